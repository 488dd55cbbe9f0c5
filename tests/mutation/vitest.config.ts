// The vitest config Stryker runs (tests/mutation/stryker.config.mjs): the root's aliases, and
// only the test files of the area being mutated (tests/mutation/areas.mjs), in one project.
import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import root from '../../vitest.config'
import { currentArea } from './areas.mjs'

export default mergeConfig(
  { ...root, test: {} },
  defineConfig({
    root: fileURLToPath(new URL('../..', import.meta.url)),
    test: {
      include: currentArea().tests,
      exclude: ['**/node_modules/**'],
      environment: 'node',
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  }),
)
