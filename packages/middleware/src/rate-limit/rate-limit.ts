import type { MiddlewareHandler } from 'hono'
import { described } from '../internal/outcomes/described'
import type { RateLimitRejects } from './answers'
import { type RateLimitOptions, rateLimitConfig } from './config'
import { RateLimitCounter } from './counter'
import { rateLimitDescription, rateLimitHeaders } from './description'
import { quotaHeaders } from './headers'
import { rateLimitHandler } from './request'

export type { RateLimitOptions } from './config'

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
export function rateLimit(options: RateLimitOptions = {}): MiddlewareHandler & RateLimitRejects {
  // Options → frozen config; the counter (store, algorithm, refunds, deny cache); the headers;
  // the request path that puts them together. Each is a module of its own in this folder.
  const config = rateLimitConfig(options)
  const counter = new RateLimitCounter(config)
  const handler = rateLimitHandler(
    config,
    counter,
    quotaHeaders(config.standardHeaders, config.identifier),
  )
  const description = rateLimitDescription(
    config.store,
    config.failOpen,
    rateLimitHeaders(config.standardHeaders),
  )
  return described(description, handler) as MiddlewareHandler & RateLimitRejects
}
