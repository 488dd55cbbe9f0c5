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
