import type { MiddlewareHandler } from 'hono'
import { begin, clock, decide, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { storeFor } from '../internal/stores/store-binding'
import { storeAttempt, storeFailures } from '../internal/stores/store-failure'
import { type ConcurrencyLimitRejects, reject, rejectOrRecord } from './answers'
import { type ConcurrencyLimitOptions, concurrencyLimitConfig, NAME } from './config'
import { concurrencyLimitDescription } from './description'
import { MemoryConcurrencyStore } from './memory-store'
import { holdSlot, releaseWithBody, type SlotKeeper } from './slot'
import type { ConcurrencyStore } from './store'

export type { ConcurrencyLimitOptions } from './config'

/**
 * Limits the requests in flight at once per key (default: client IP). A request that finds `max`
 * requests of its key in flight gets 429 `concurrency_limited` with `Retry-After`. Its slot is
 * freed exactly once: when the response body has been sent (a streamed body: when the stream
 * ends or is cancelled; for HEAD, when the GET handler's unsent body ends), when the client
 * aborts, when the handler throws, or when an enclosing `requestTimeout` answers 408 (with
 * `release: 'handler'`, not before the handler has returned). On a shared store slots are leases of `leaseMs`, renewed while
 * the request runs, so a crashed instance's slots come back on their own.
 *
 * @param options.max required
 * @param options.key default: the client IP (`clientIpKey`)
 * @param options.store default `new MemoryConcurrencyStore()` (created lazily)
 * @param options.leaseMs default `60000`
 * @param options.retryAfter default `1` (seconds)
 * @param options.message default `'Too many concurrent requests'`
 * @param options.failOpen default `false`
 * @param options.release default `'response'`
 * @example
 * ```ts
 * // Two LLM streams at a time per client; the third waits for one to finish.
 * app.post('/chat', concurrencyLimit({ max: 2 }), (c) => streamSSE(c, chat))
 * // Per user, across instances:
 * app.use('/export/*', concurrencyLimit({ max: 1, store, key: (c) => c.req.header('x-account') ?? '' }))
 * ```
 */
export function concurrencyLimit(
  options: ConcurrencyLimitOptions,
): MiddlewareHandler & ConcurrencyLimitRejects {
  const config = concurrencyLimitConfig(options)
  const { max, leaseMs, skip, keyOf, failOpen, dryRun, message, retryAfter } = config
  let store = config.store
  const [report, recovered] = storeFailures(NAME, failOpen, config.onStoreError)
  const keeper: SlotKeeper = {
    leaseMs,
    renewMs: config.renewMs,
    untilHandlerEnds: config.untilHandlerEnds,
    /** Calls a store method that may throw synchronously or reject; failures are reported. */
    attempt: storeAttempt(report, recovered),
  }

  const sharedStore = store !== undefined && !(store instanceof MemoryConcurrencyStore)
  const description = concurrencyLimitDescription(sharedStore, failOpen)
  return described(description, async function concurrencyLimit(c, next) {
    const d = begin(c, NAME)
    if (skip && (await skip(c))) {
      decide(d, 'skip')
      await next()
      return
    }
    const key = await keyOf(c)
    if (typeof key !== 'string') {
      // A bug in the key function, not a store outage: it fails the request (500).
      throw new TypeError(`concurrencyLimit: key(c) must return a string, got ${typeof key}`)
    }
    store ??= new MemoryConcurrencyStore()
    let s: ConcurrencyStore | undefined
    const lease = crypto.randomUUID()
    let acquired: boolean
    try {
      // A store built with a resolver finds its handle on the request; a failing resolver is a
      // failing store.
      s = storeFor(store, c)
      const t = clock(d)
      const result = await (s as ConcurrencyStore).acquire(key, lease, max, leaseMs)
      if (typeof result?.acquired !== 'boolean') {
        throw new TypeError('store returned an invalid { acquired, inFlight }')
      }
      storeTime(d, 'acquire', t)
      acquired = result.acquired
      recovered()
    } catch (error) {
      report(error, c)
      // The lease may have been taken before the failure (a lost reply): give it back, or let
      // it expire if the store stays down.
      const asked = s
      if (asked) void keeper.attempt(c, () => asked.release(key, lease))
      if (failOpen) {
        decide(d, 'skip', 'store_unavailable')
        await next()
        return
      }
      return reject(503, 'Concurrency store unavailable', 'store_unavailable')
    }
    if (!acquired) {
      rejectOrRecord(d, dryRun, 429, message, 'concurrency_limited', { 'Retry-After': retryAfter })
      await next()
      return
    }
    decide(d, 'allow')
    const slot = holdSlot(c, s as ConcurrencyStore, key, lease, keeper)
    try {
      await next()
    } catch (error) {
      slot.free()
      throw error
    }
    // With release: 'handler' the handler has now returned: from here on the slot follows the
    // response (a 408 or an abort already sent means nobody will read this body: free now).
    slot.watch()
    releaseWithBody(c, slot)
  })
}
