import type { Context, MiddlewareHandler } from 'hono'
import { described } from '../internal/described'
import { editResponseHeaders } from '../internal/headers'
import { reject } from '../internal/reject'
import { rateLimitDescription, rateLimitHeaders } from './description'
import { defaultPolicyName, draft6, draft8, partitionKey, type Quota } from './headers'
import { MemoryRateLimitStore } from './memory-store'
import { type RateLimitOptions, rateLimitConfig } from './options'
import type { RateLimitHit, RateLimitInfo, RateLimitStore } from './store'

/**
 * Rate limiting per key (default: client IP, IPv6 by /56). Request number `max` in a window
 * passes, the next one gets 429 with `message` and `Retry-After` (seconds). `algorithm` picks a
 * fixed window (default), a sliding window or a token bucket. Every counted response carries the
 * IETF RateLimit headers (`standardHeaders`: draft-6 by default, or draft-8). A failing store
 * gives 503 `Rate limit store unavailable`, or lets requests through with `failOpen: true`.
 *
 * @param options.max default `60`; a number or `(c) => number | Promise<number>`
 * @param options.windowMs default `60000`
 * @param options.algorithm default `'fixed-window'`
 * @param options.standardHeaders default `'draft-6'`
 * @param options.ipv6Subnet default `56`
 * @param options.message default `'Too many requests'`
 * @param options.store default `new MemoryRateLimitStore()` (created lazily)
 * @param options.failOpen default `false`
 * @example
 * ```ts
 * app.use('/api/*', rateLimit({ max: 100, windowMs: 60_000, algorithm: 'sliding-window' }))
 * app.post('/login', rateLimit({ max: 5, windowMs: 15 * 60_000, skipSuccessfulRequests: true }), login)
 * ```
 */
export function rateLimit(options: RateLimitOptions = {}): MiddlewareHandler {
  const config = rateLimitConfig(options)
  const {
    windowMs,
    algorithm,
    checkMax,
    maxFn,
    staticMax,
    standardHeaders,
    identifier,
    message,
    keyGenerator,
    skip,
    skipFailed,
    skipSuccessful,
    failOpen,
    onStoreError,
  } = config
  let store = config.store
  const count: (s: RateLimitStore, key: string, max: number) => Promise<RateLimitInfo> =
    algorithm === 'fixed-window'
      ? (s, key) => s.increment(key, windowMs)
      : algorithm === 'sliding-window'
        ? (s, key, max) =>
            (s.slidingWindow as NonNullable<RateLimitStore['slidingWindow']>)(key, windowMs, max)
        : (s, key, max) =>
            (s.tokenBucket as NonNullable<RateLimitStore['tokenBucket']>)(key, windowMs, max)
  // The sliding window and the token bucket record nothing for a rejected request; the fixed
  // window counts it, so only there does skipFailedRequests give a 429 back.
  const countsRejected = algorithm === 'fixed-window'
  const windowSeconds = Math.ceil(windowMs / 1000)
  let failing = false

  const report = (error: unknown, c: Context): void => {
    const firstOfOutage = !failing
    failing = true
    try {
      if (onStoreError) onStoreError(error, c)
      else if (firstOfOutage) {
        const reason = error instanceof Error ? error.message : String(error)
        console.warn(
          `rateLimit: store failed, ${failOpen ? 'letting requests through' : 'rejecting with 503'} until it recovers: ${reason}`,
        )
      }
    } catch {
      // A broken error hook must not turn a store outage into a crash.
    }
  }

  const refund = async (
    s: RateLimitStore,
    key: string,
    hit: RateLimitHit,
    deadline: number,
    c: Context,
  ): Promise<void> => {
    // A window that has ended since the request was counted is gone: a refund would land in the
    // next one and hand out a free request (express-rate-limit checks its resetTime alike).
    if (algorithm !== 'token-bucket' && Date.now() >= deadline) return
    try {
      await (s.decrement as NonNullable<RateLimitStore['decrement']>)(key, hit)
    } catch (error) {
      report(error, c)
    }
  }

  const headersFor = async (quota: Quota, key: string): Promise<Record<string, string>> => {
    if (standardHeaders === 'draft-6') return draft6(quota, windowSeconds)
    const name = identifier ?? defaultPolicyName(quota.max, windowMs)
    return draft8(quota, windowSeconds, name, await partitionKey(key))
  }

  const description = rateLimitDescription(store, failOpen, rateLimitHeaders(standardHeaders))
  return described(description, async function rateLimit(c, next) {
    if (skip && (await skip(c))) return next()
    const key = await keyGenerator(c)
    const max = maxFn ? checkMax(await maxFn(c), 'max(c)') : staticMax
    let info: RateLimitInfo
    let s: RateLimitStore
    try {
      s = store ??= new MemoryRateLimitStore()
      info = await count(s, key, max)
      if (!(Number.isFinite(info?.count) && Number.isFinite(info?.ttl))) {
        throw new TypeError('store returned an invalid { count, ttl }')
      }
      failing = false
    } catch (error) {
      report(error, c)
      if (failOpen) return next()
      reject(503, 'Rate limit store unavailable', 'store_unavailable')
    }

    const reset = Math.max(0, Math.ceil(info.ttl / 1000))
    const headers = await headersFor({ max, remaining: Math.max(0, max - info.count), reset }, key)
    const refunds = skipFailed || skipSuccessful
    const deadline = refunds ? Date.now() + info.ttl : 0
    const hit: RateLimitHit = { algorithm, windowMs, max }
    if (info.count > max) {
      if (skipFailed && countsRejected) await refund(s, key, hit, deadline, c)
      reject(429, message, 'rate_limited', {
        ...headers,
        'Retry-After': String(Math.max(1, reset)),
      })
    }
    await next()
    if (refunds) {
      const failed = c.error !== undefined || c.res.status >= 400
      if (failed ? skipFailed : skipSuccessful) await refund(s, key, hit, deadline, c)
    }
    // In place: c.header() on a finished response rebuilds the Response on every call, which
    // turns a string body into a stream and costs @hono/node-server its fast path.
    editResponseHeaders(c, (h) => {
      for (const name in headers) {
        const value = headers[name] as string
        // Stacked draft-8 limiters list every quota; the outer one (which runs last) goes first.
        const inner = standardHeaders === 'draft-8' ? h.get(name) : null
        h.set(name, inner ? `${value}, ${inner}` : value)
      }
    })
  })
}
