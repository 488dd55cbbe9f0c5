/** Result of one counted request. */
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
 */
export interface RateLimitStore {
  increment(key: string, windowMs: number): Promise<RateLimitInfo>
  /** Forgets a key (for example after a successful login). Optional. */
  reset?(key: string): Promise<void>
}
