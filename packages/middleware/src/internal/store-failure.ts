import type { Context } from 'hono'

/**
 * What a guard does when its store throws, shared by rateLimit and concurrencyLimit: hand the
 * error to `onStoreError`, or by default `console.warn` once per outage (the first failure after
 * a success), so a dead store does not flood the log. Returns `[report, recovered]`: call
 * `recovered()` after each successful call to end the outage. (A pair, not an object: property
 * names survive minification, and both limits' entries are on a size budget.)
 */
export function storeFailures(
  factory: string,
  failOpen: boolean,
  onStoreError: ((error: unknown, c: Context) => void) | undefined,
): [report: (error: unknown, c: Context) => void, recovered: () => void] {
  let failing = false
  return [
    (error, c) => {
      const firstOfOutage = !failing
      failing = true
      try {
        if (onStoreError) onStoreError(error, c)
        else if (firstOfOutage) {
          const reason = error instanceof Error ? error.message : String(error)
          console.warn(
            `${factory}: store failed, ${failOpen ? 'letting requests through' : 'rejecting with 503'} until it recovers: ${reason}`,
          )
        }
      } catch {
        // A broken error hook must not turn a store outage into a crash.
      }
    },
    () => {
      failing = false
    },
  ]
}
