import type { Context } from 'hono'

/**
 * How a middleware reports that something it depends on failed (a store, a key set): the error
 * goes to the user's hook (`onStoreError`, `onKeySetError`), or by default to `console.warn` once
 * per outage (the first failure after a success), so a dead dependency does not flood the log.
 * Returns `[report, recovered]`: call `recovered()` after each success to end the outage. (A
 * pair, not an object: property names survive minification, and the entries are on a size
 * budget.)
 */
export function failureReporter(
  warning: (reason: string) => string,
  hook: ((error: unknown, c: Context) => void) | undefined,
): [report: (error: unknown, c: Context) => void, recovered: () => void] {
  let failing = false
  return [
    (error, c) => {
      const firstOfOutage = !failing
      failing = true
      try {
        if (hook) hook(error, c)
        else if (firstOfOutage) {
          console.warn(warning(error instanceof Error ? error.message : String(error)))
        }
      } catch {
        // A broken error hook must not turn an outage into a crash.
      }
    },
    () => {
      failing = false
    },
  ]
}
