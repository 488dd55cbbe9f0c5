import type { MiddlewareHandler } from 'hono'
import {
  assertKnownKeys,
  assertNonEmptyString,
  assertPositiveInteger,
  optionError,
} from '../internal/options'
import { begin, decide, overrule } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { type RequestTimeoutRejects, reject } from './answers'
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
 * to stop their own work (pass it to `fetch`, database drivers, …). The signal is created on the
 * first `c.get('timeoutSignal')` of a request (read after the timeout, it is already aborted), so
 * requests that never ask for it cost no AbortController; `c.var.timeoutSignal` is filled in by
 * that first `c.get`. The timer is cleared as soon as the handler finishes, and a handler's error
 * propagates to `app.onError` unchanged.
 *
 * @param options.ms required, milliseconds
 * @param options.message default `Request Timeout`
 * @example
 * ```ts
 * app.use('/api/*', requestTimeout({ ms: 5000 }))
 * app.get('/api/report', async (c) => c.json(await buildReport({ signal: c.get('timeoutSignal') })))
 * ```
 */
export function requestTimeout(
  options: RequestTimeoutOptions,
): MiddlewareHandler & RequestTimeoutRejects {
  if (options === undefined) throw optionError(NAME, 'options with "ms" must be given')
  assertKnownKeys(NAME, options, KNOWN)
  const ms = assertPositiveInteger(NAME, 'ms', options.ms)
  if (ms > MAX_DELAY) throw optionError(NAME, `"ms" must be at most ${MAX_DELAY}, got ${ms}`)
  const message = assertNonEmptyString(NAME, 'message', options.message ?? 'Request Timeout')

  const description = requestTimeoutDescription(ms)
  return described(description, function requestTimeout(c, next) {
    // Decided on entry (a deadline set); a timeout overturns it below.
    const d = begin(c, NAME)
    decide(d, 'allow')
    // The AbortController behind c.get('timeoutSignal') is made on first read: most handlers
    // never read it. c.get is defined, not assigned: on V8, assigning over a function the
    // context holds as its own field made every object of the request outlive the young
    // generation (bench/FINDINGS.md, "Garbage").
    // One closure makes the signal and answers every other key.
    let controller: AbortController | undefined
    const get = c.get
    const lazyGet = (key: string): unknown => {
      if (key !== 'timeoutSignal') return get(key as never)
      if (controller === undefined) {
        controller = new AbortController()
        c.set('timeoutSignal', controller.signal)
      }
      return controller.signal
    }
    Object.defineProperty(c, 'get', {
      value: lazyGet,
      writable: true,
      enumerable: true,
      configurable: true,
    })
    // One promise settled by whichever comes first, rather than Promise.race over two: the
    // chain keeps running after a timeout, and its late failure lands in an already settled
    // promise instead of becoming an unhandled rejection.
    return new Promise<void>((resolve, fail) => {
      const timer = setTimeout(() => {
        // Materialised at the timeout, so code reading c.var.timeoutSignal (sessions does, to
        // skip saving a request that already got its 408) sees an aborted signal.
        lazyGet('timeoutSignal')
        controller?.abort(new DOMException(message, 'TimeoutError'))
        overrule(d, 'request_timeout', 408)
        fail(timeoutError(message))
      }, ms)
      next().then(
        () => {
          clearTimeout(timer)
          resolve()
        },
        (error: unknown) => {
          clearTimeout(timer)
          fail(error)
        },
      )
    })
  })
}

/** The 408 rejection every timed-out request gets, as a value to settle a promise with. */
function timeoutError(message: string): unknown {
  try {
    reject(408, message, 'request_timeout')
  } catch (error) {
    return error
  }
}
