/**
 * Result of one counted request.
 *
 * @example
 * const info: RateLimitInfo = await new MemoryRateLimitStore().increment('203.0.113.7', 60_000)
 * // { count: 1, ttl: 60000 }: the first request of a fresh one-minute window
 */
export interface RateLimitInfo {
  /** Requests counted in the current window, including this one. */
  count: number
  /** Milliseconds until the current window resets. */
  ttl: number
}

/**
 * Counter store behind `rateLimit`. `increment` counts one request for `key` and starts a new
 * window of `windowMs` when none is running; it must be atomic, so concurrent requests never
 * share a count.
 *
 * @example
 * // Any backend fits: count atomically and report the window's remaining time.
 * const store: RateLimitStore = {
 *   async increment(key, windowMs) {
 *     const { count, ttlMs } = await counters.incrementWithTtl(key, windowMs)
 *     return { count, ttl: ttlMs }
 *   },
 * }
 * app.use('/api/*', rateLimit({ store }))
 */
export interface RateLimitStore {
  increment(key: string, windowMs: number): Promise<RateLimitInfo>
  /** Forgets a key (for example after a successful login). Optional. */
  reset?(key: string): Promise<void>
}
