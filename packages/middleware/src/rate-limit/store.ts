import type { Context } from 'hono'
import { checkCount, checkMax, checkWindowMs } from '../internal/stores/store-args'

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
 * One limit of a {@link RateLimitRequest}: `max` units per `windowMs`.
 *
 * @example
 * const perSecond: RateLimitWindow = { max: 10, windowMs: 1_000 }
 */
export interface RateLimitWindow {
  max: number
  windowMs: number
}

/**
 * What {@link RateLimitStore.consume} checks and records in one atomic call.
 *
 * @example
 * // 10 per second and 1,000 per hour, checked together; 3 units; 15 minutes of lockout.
 * const request: RateLimitRequest = {
 *   algorithm: 'fixed-window',
 *   limits: [{ max: 10, windowMs: 1_000 }, { max: 1_000, windowMs: 3_600_000 }],
 *   cost: 3,
 *   blockMs: 15 * 60_000,
 * }
 */
export interface RateLimitRequest {
  algorithm: RateLimitAlgorithm
  /** One to eight limits with distinct `windowMs`, all checked, all consumed, or none. */
  limits: readonly RateLimitWindow[]
  /**
   * Units this request takes from every limit (a non-negative safe integer). `0` reads the key's
   * state without recording anything (no window starts, no block is set). A cost above the
   * smallest `max` can never pass; the stores count it as that `max + 1` (see `clampCost`), so
   * the `count`s reported for it are the ones of that cost.
   */
  cost: number
  /**
   * When a request with `cost > 0` is refused, the key is blocked for this many milliseconds:
   * every call until then is refused without counting. `0` (default) blocks nothing.
   */
  blockMs?: number
}

/**
 * The answer of {@link RateLimitStore.consume}.
 *
 * @example
 * const verdict: RateLimitVerdict = await store.consume!('203.0.113.7', request)
 * if (!verdict.allowed) console.log('retry in', Math.max(verdict.blockedMs, ...verdict.limits.map((l) => l.ttl)))
 */
export interface RateLimitVerdict {
  /** Whether the request passed every limit (and the key is not blocked); only then it counted. */
  allowed: boolean
  /**
   * Per limit, in the request's order: `count` is the units in use including this request's
   * `cost` (above `max` means this limit refuses it), `ttl` the milliseconds until that count
   * drops (the window's end, the sliding sub-window's end, or enough tokens for `cost`).
   */
  limits: RateLimitInfo[]
  /** Milliseconds the key stays blocked (`blockMs`), `0` when it is not blocked. */
  blockedMs: number
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
  /**
   * Checks every limit of `request` for `key` and, only if all pass and the key is not blocked,
   * takes `request.cost` from each, atomically (one call, one round trip on shared stores). No
   * algorithm records a refused request here (unlike `increment`); a refused request with
   * `blockMs` blocks the key. With `cost: 0` it reads the state and records nothing. What
   * `rateLimit`'s `cost`, `limits` and `blockDurationMs` need. Optional.
   */
  consume?(key: string, request: RateLimitRequest): Promise<RateLimitVerdict>
  /**
   * For a store whose handle arrives with the request (a Workers binding on `c.env`): the store
   * to use for the request `c`. `rateLimit` calls it once per request, before any other method, so the
   * store and the middleware can be built once at module scope. Optional.
   */
  forContext?(c: Context): RateLimitStore
}

const ALGORITHMS = new Set(['fixed-window', 'sliding-window', 'token-bucket'])

/** Most limits one `consume` call may check (each is a row, a hash field set or a map entry). */
export const MAX_LIMITS = 8

/**
 * Validates a {@link RateLimitRequest} as every store's `consume` receives it, so all stores
 * refuse the same malformed calls with the store's name in the message. Returns it with
 * `blockMs` defaulted to 0.
 */
export function checkRateLimitRequest(
  store: string,
  request: RateLimitRequest,
): Required<RateLimitRequest> {
  const fail = (what: string) => new TypeError(`${store}.consume: ${what}`)
  if (request === null || typeof request !== 'object') throw fail('request must be an object')
  const { algorithm, limits, cost, blockMs = 0 } = request
  if (!ALGORITHMS.has(algorithm)) throw fail(`unknown algorithm ${String(algorithm)}`)
  if (!Array.isArray(limits) || limits.length === 0 || limits.length > MAX_LIMITS) {
    throw fail(`limits must be an array of 1 to ${MAX_LIMITS} { max, windowMs }`)
  }
  const windows = new Set<number>()
  for (const limit of limits) {
    const { max, windowMs } = limit ?? {}
    checkWindowMs(`${store}.consume`, windowMs)
    // A fixed window counts whole units (count + cost against max): only the sliding window and
    // the token bucket compute with max × windowMs, so only they need that product in range. A
    // monthly quota of 10 million calls is 10^7 × 2.7·10^9 ms, past 2^53.
    if (algorithm === 'fixed-window') checkCount(`${store}.consume`, max)
    else checkMax(`${store}.consume`, windowMs, max)
    if (windows.has(windowMs)) throw fail(`two limits share windowMs ${windowMs}`)
    windows.add(windowMs)
  }
  if (!Number.isSafeInteger(cost) || cost < 0) {
    throw fail('cost must be a non-negative integer up to 2^53 − 1')
  }
  if (!Number.isSafeInteger(blockMs) || blockMs < 0) {
    throw fail('blockMs must be a non-negative integer up to 2^53 − 1')
  }
  return { algorithm, limits, cost: clampCost(limits, cost), blockMs }
}

/**
 * The cost a store computes with: `cost`, or the smallest `max` + 1 when `cost` is above it. Such
 * a request is refused whatever it costs (one limit can never hold it), and a bounded number
 * keeps every backend's arithmetic in range (a token bucket multiplies the cost by `windowMs`:
 * PostgreSQL's bigint overflows, Lua's doubles round).
 */
export function clampCost(limits: readonly RateLimitWindow[], cost: number): number {
  let smallest = Number.POSITIVE_INFINITY
  for (const l of limits) smallest = Math.min(smallest, l.max)
  return Math.min(cost, smallest + 1)
}
