import type { Context } from 'hono'
import { failureReporter } from './failure-report'

/**
 * What a guard does when its store throws, shared by rateLimit and concurrencyLimit: hand the
 * error to `onStoreError`, or by default `console.warn` once per outage (see `failureReporter`).
 * Returns `[report, recovered]`: call `recovered()` after each successful call to end the outage.
 */
export function storeFailures(
  factory: string,
  failOpen: boolean,
  onStoreError: ((error: unknown, c: Context) => void) | undefined,
): [report: (error: unknown, c: Context) => void, recovered: () => void] {
  return failureReporter(
    (reason) =>
      `${factory}: store failed, ${failOpen ? 'letting requests through' : 'rejecting with 503'} until it recovers: ${reason}`,
    onStoreError,
  )
}

/**
 * A store call whose failure is reported, never thrown: `attempt(c, call)` resolves to the call's
 * result, or to `undefined` when it threw (synchronously or by rejecting), after handing the error
 * to `report`. A success ends the outage (`recovered`). For the calls made after a guard has
 * decided (a release, a renewal, a stored response), where a failure must not change the answer.
 * Shared by concurrencyLimit and idempotency.
 */
export function storeAttempt(
  report: (error: unknown, c: Context) => void,
  recovered: () => void,
): <T>(c: Context, call: () => Promise<T>) => Promise<T | undefined> {
  return async (c, call) => {
    try {
      const result = await call()
      recovered()
      return result
    } catch (error) {
      report(error, c)
      return undefined
    }
  }
}
