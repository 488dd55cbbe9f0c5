// The version matrix's vitest config (tests/versions/run.mjs): the unit-test files that depend on
// @hono/node-server's or Hono's internals, with `hono` and `@hono/node-server` resolved to the
// versions named in the environment (package names installed in tests/package.json as aliases:
// `hono-4.13.8` is the oldest Hono the tests pass on, `@hono/node-server-2.0.3` the oldest
// node-server the docs support), and the borrowed internals switched off when asked.
import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import root from '../../vitest.config'

const HONO = process.env.PALISADE_HONO ?? 'hono'
const NODE_SERVER = process.env.PALISADE_NODE_SERVER ?? '@hono/node-server'

/** `hono/…` and `@hono/node-server/…` as the chosen package, resolved from tests/ (ESM). */
function resolveAs(source: string): string | undefined {
  let target: string | undefined
  if (source === 'hono' || source.startsWith('hono/')) target = HONO + source.slice(4)
  else if (source === '@hono/node-server' || source.startsWith('@hono/node-server/'))
    target = NODE_SERVER + source.slice('@hono/node-server'.length)
  if (target === undefined) return undefined
  try {
    return fileURLToPath(import.meta.resolve(target))
  } catch {
    // A subpath this version does not have (`hono/mount` before 4.13.x): importing it fails, as
    // it would in an app on that version, instead of falling back to the root's newer copy.
    return `${MISSING}${source}`
  }
}

const MISSING = '\0palisade-versions-missing:'

/** The files that read another package's internals, directly or through the stack they test. */
export const FILES = [
  'packages/middleware/src/internal/http/*.test.ts',
  'packages/middleware/src/body-limit/*.test.ts',
  // concurrencyLimit's release on node:http's `close` of a plain body (issue 42).
  'packages/middleware/src/concurrency-limit/concurrency-limit.node-server.test.ts',
  'packages/openapi/src/app/*.test.ts',
  // The wrapper's route records, base path and error handler on a whole app, end to end.
  'tests/openapi/audit.test.ts',
  'tests/openapi/docs-wire.test.ts',
  'tests/openapi/one-json-reader.test.ts',
  // The error handler read before and after wrapping, and the response check (with the c.json
  // override, or reading the Response back with the switch on).
  'tests/openapi/wrapped-existing.test.ts',
  'tests/openapi/internals-switch.test.ts',
  'packages/openapi/src/validate/response*.test.ts',
  'tests/openapi/validate.test.ts',
]

/**
 * What cannot run with the switch on, by design: `palisade audit` refuses (it reads the router
 * as Hono runs it); tests/openapi/internals-switch.test.ts checks that refusal in every cell.
 */
const NEEDS_INTERNALS = ['tests/openapi/audit.test.ts']

export default mergeConfig(
  { ...root, test: {} },
  defineConfig({
    root: fileURLToPath(new URL('../..', import.meta.url)),
    plugins: [
      {
        name: 'palisade-versions',
        enforce: 'pre',
        resolveId: (source) => resolveAs(source),
        load: (id) =>
          id.startsWith(MISSING)
            ? `throw new Error(${JSON.stringify(`${id.slice(MISSING.length)}: not in this version`)})`
            : undefined,
      },
    ],
    test: {
      include: FILES,
      // Pins node-server 1.19.19 itself, and holds its header fix, which the switch turns off by
      // design (docs/guide/node.md: do not switch off on 1.x). The unit run keeps it.
      exclude: [
        '**/node_modules/**',
        '**/light-response.node-server-1.test.ts',
        ...(process.env.PALISADE_NO_INTERNALS === '1' ? NEEDS_INTERNALS : []),
      ],
      environment: 'node',
      testTimeout: 20_000,
      setupFiles: [fileURLToPath(new URL('./setup.ts', import.meta.url))],
    },
  }),
)
