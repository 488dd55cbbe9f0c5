// StrykerJS over one security-critical area at a time (`pnpm mutate --folder=<area>`, see
// tools/mutate.mjs and bench/MUTATION.md). Sized for a shared 2-core machine: 2 workers, each
// mutant runs only the tests that cover it (perTest), and an incremental file per area so a
// second run re-tests only the mutants whose code or tests changed.
import { currentArea } from './areas.mjs'

const area = currentArea()

export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'tests/mutation/vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.PALISADE_MUTATE_CONCURRENCY ?? 2),
  mutate: area.mutate,
  // What the tests of these areas never read stays out of the sandbox copy (an area's `sandbox`
  // names what its tests do read).
  ignorePatterns: [
    '/docs',
    '/bench',
    '/examples',
    '/artifacts',
    '/reports',
    '**/dist',
    '/tests/runtime',
    '/tests/docs',
    '/.git',
    // Every area's sandboxes: two areas may run at once, and one must not copy the other's.
    '/.stryker-tmp',
  ].filter((p) => !area.sandbox?.includes(p)),
  tempDirName: `.stryker-tmp/${area.name}`,
  incremental: true,
  incrementalFile: `reports/mutation/${area.name}.incremental.json`,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${area.name}.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  thresholds: { high: 90, low: 80, break: null },
  // A mutant that loops (a bound removed) counts as detected once it runs this much longer than
  // the tests did; a short margin keeps such mutants from holding a worker for long.
  timeoutMS: 3_000,
  timeoutFactor: 2,
  cleanTempDir: 'always',
}
