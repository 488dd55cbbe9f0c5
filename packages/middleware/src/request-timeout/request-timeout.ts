import type { MiddlewareHandler } from 'hono'
import { described } from '../internal/described'
import {
  assertKnownKeys,
  assertNonEmptyString,
  assertPositiveInteger,
  optionError,
} from '../internal/options'
import { reject } from '../internal/reject'
import { requestTimeoutDescription } from './description'

/**
 * Options of {@link requestTimeout}.
 *
 * @example
 * const options: RequestTimeoutOptions = { ms: 5_000, message: 'The report took too long' }
 * app.use('/reports/*', requestTimeout(options))
 */
export interface RequestTimeoutOptions {
  /** Time the handler chain may take, in milliseconds. Required. */
  ms: number
  /** Rejection body. Default `Request Timeout`. */
  message?: string
}

const NAME = 'requestTimeout'
const KNOWN = ['ms', 'message'] as const
// setTimeout treats larger delays as 1 ms, which would time out every request at once.
const MAX_DELAY = 2_147_483_647

/**
 * Races the rest of the chain against a timer of `ms` milliseconds and rejects with 408 when the
 * timer wins. Handlers get an `AbortSignal` as `c.get('timeoutSignal')`, aborted at the timeout,
 * to stop their own work (pass it to `fetch`, database drivers, …). The timer is cleared as soon
 * as the handler finishes, and a handler's error propagates to `app.onError` unchanged.
 *
 * @param options.ms required, milliseconds
 * @param options.message default `Request Timeout`
 * @example
 * ```ts
 * app.use('/api/*', requestTimeout({ ms: 5000 }))
 * app.get('/api/report', async (c) => c.json(await buildReport({ signal: c.get('timeoutSignal') })))
 * ```
 */
export function requestTimeout(options: RequestTimeoutOptions): MiddlewareHandler {
  if (options === undefined) throw optionError(NAME, 'options with "ms" must be given')
  assertKnownKeys(NAME, options, KNOWN)
  const ms = assertPositiveInteger(NAME, 'ms', options.ms)
  if (ms > MAX_DELAY) throw optionError(NAME, `"ms" must be at most ${MAX_DELAY}, got ${ms}`)
  const message = assertNonEmptyString(NAME, 'message', options.message ?? 'Request Timeout')

  const description = requestTimeoutDescription(ms)
  return described(description, async function requestTimeout(c, next) {
    const controller = new AbortController()
    c.set('timeoutSignal', controller.signal)
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new DOMException(message, 'TimeoutError'))
        resolve('timeout')
      }, ms)
    })
    try {
      // The chain keeps running after a timeout; race's subscription also keeps a late failure
      // of the chain from becoming an unhandled rejection.
      if ((await Promise.race([next(), timedOut])) === 'timeout')
        reject(408, message, 'request_timeout')
    } finally {
      clearTimeout(timer)
    }
  })
}
