/**
 * How `rateLimit` counts:
 * - `'fixed-window'`: a counter per key that resets `windowMs` after its first request;
 * - `'sliding-window'`: the current window's count plus the previous window's count weighted by
 *   how much of it still overlaps the last `windowMs` (the approximation Cloudflare and
 *   @upstash/ratelimit use: two counters per key, no per-request log);
 * - `'token-bucket'`: a bucket of `max` tokens that refills evenly, `max` tokens per `windowMs`;
 *   each request takes one.
 *
 * @example
 * const algorithm: RateLimitAlgorithm = 'sliding-window'
 * app.use('/api/*', rateLimit({ max: 100, windowMs: 60_000, algorithm }))
 */
export type RateLimitAlgorithm = 'fixed-window' | 'sliding-window' | 'token-bucket'

/**
 * Result of one counted request.
 *
 * @example
 * const info: RateLimitInfo = await new MemoryRateLimitStore().increment('203.0.113.7', 60_000)
 * // { count: 1, ttl: 60000 }: the first request of a fresh one-minute window
 */
export interface RateLimitInfo {
  /**
   * Requests counted against the limit, including this one. Above `max` means "reject": the
   * sliding window and the token bucket then report the count the request would have made
   * without recording it.
   */
  count: number
  /**
   * Milliseconds until the count drops: the end of the fixed window, the end of the current
   * sliding sub-window, or the next token of the bucket.
   */
  ttl: number
}

/**
 * What a refund must undo: the algorithm, window and limit the request was counted with.
 *
 * @example
 * const hit: RateLimitHit = { algorithm: 'token-bucket', windowMs: 60_000, max: 10 }
 * await store.decrement?.('203.0.113.7', hit)
 */
export interface RateLimitHit {
  algorithm: RateLimitAlgorithm
  windowMs: number
  max: number
}

/**
 * Counter store behind `rateLimit`. `increment` (fixed window) is the one required method, so a
 * store written for the first version of this interface keeps working. The other methods are
 * capabilities: `rateLimit` checks at construction that its store has the method its
 * `algorithm` needs (and `decrement` when `skipFailedRequests` / `skipSuccessfulRequests` is on),
 * and throws a `TypeError` otherwise. Every method must be atomic, so concurrent requests never
 * share a count, and must keep each algorithm's state apart (one key may be limited by two
 * algorithms through two middlewares on one store).
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
  /** Fixed window: counts one request for `key`, starting a window of `windowMs` if none runs. */
  increment(key: string, windowMs: number): Promise<RateLimitInfo>
  /**
   * Sliding window: counts one request unless the weighted count would pass `max`, in which case
   * nothing is recorded and `count` is `max + 1` or more. Optional.
   */
  slidingWindow?(key: string, windowMs: number, max: number): Promise<RateLimitInfo>
  /**
   * Token bucket of `max` tokens refilled at `max` per `windowMs`: takes one token, or records
   * nothing and reports `count` above `max` when the bucket is empty. Optional.
   */
  tokenBucket?(key: string, windowMs: number, max: number): Promise<RateLimitInfo>
  /**
   * Gives back one request counted by `hit.algorithm` (for `skipFailedRequests` and
   * `skipSuccessfulRequests`). A count never goes below zero and a bucket never above `max`.
   * Optional.
   */
  decrement?(key: string, hit: RateLimitHit): Promise<void>
  /** Forgets a key under every algorithm (for example after a successful login). Optional. */
  reset?(key: string): Promise<void>
}
