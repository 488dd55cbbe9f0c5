/**
 * The arithmetic of the sliding window and the token bucket, shared by the memory store and
 * mirrored line by line in the Redis store's Lua scripts (redis-store.ts), so both stores answer
 * alike. Pure functions of the stored state and the time: no clock, no I/O.
 */
import type { RateLimitInfo } from './store'

/** Sliding-window state of one key: the count of window `index` and of the window before it. */
export interface SlidingState {
  index: number
  current: number
  previous: number
}

/**
 * One sliding-window request at `now`: the weighted count (previous window × the part of it still
 * inside the last `windowMs`, rounded down, plus the current window, plus this request) and the
 * state to store, or `null` when the request is over `max` and nothing is recorded.
 */
export function slidingWindowHit(
  state: SlidingState | undefined,
  now: number,
  windowMs: number,
  max: number,
): { info: RateLimitInfo; next: SlidingState | null } {
  const index = Math.floor(now / windowMs)
  let current = 0
  let previous = 0
  if (state !== undefined) {
    if (state.index === index) {
      current = state.current
      previous = state.previous
    } else if (state.index === index - 1) {
      previous = state.current
    }
  }
  const elapsed = now - index * windowMs
  const count = Math.floor((previous * (windowMs - elapsed)) / windowMs) + current + 1
  const info = { count, ttl: windowMs - elapsed }
  return { info, next: count > max ? null : { index, current: current + 1, previous } }
}

/** When a sliding-window state stops mattering: the end of the window after its own. */
export function slidingExpiresAt(state: SlidingState, windowMs: number): number {
  return (state.index + 2) * windowMs
}

/**
 * Token-bucket state of one key. The level is kept in integer units, `windowMs` units per token
 * and `max` units refilled per millisecond, so the arithmetic is exact (no float drift in
 * JavaScript or in Redis's Lua) as long as `max × windowMs` is a safe integer.
 */
export interface BucketState {
  level: number
  at: number
}

/** The bucket's level at `now`: full when new, else refilled since `at`, capped at capacity. */
export function bucketLevel(
  state: BucketState | undefined,
  now: number,
  windowMs: number,
  max: number,
): number {
  const capacity = max * windowMs
  if (state === undefined) return capacity
  return Math.min(capacity, state.level + Math.max(0, now - state.at) * max)
}

/**
 * One token-bucket request: takes a token (`windowMs` units) when the bucket holds one, else
 * records nothing. `count` is the tokens in use after this request (`max` minus whole tokens
 * left), or `max + 1` when empty; `ttl` is the time until the next whole token.
 */
export function tokenBucketHit(
  state: BucketState | undefined,
  now: number,
  windowMs: number,
  max: number,
): { info: RateLimitInfo; next: BucketState | null } {
  const level = bucketLevel(state, now, windowMs, max)
  if (level < windowMs) {
    return { info: { count: max + 1, ttl: Math.ceil((windowMs - level) / max) }, next: null }
  }
  const left = level - windowMs
  const count = max - Math.floor(left / windowMs)
  return {
    info: { count, ttl: Math.ceil((windowMs - (left % windowMs)) / max) },
    next: { level: left, at: now },
  }
}

/** When a bucket is full again, after which its state equals no state at all. */
export function bucketExpiresAt(state: BucketState, windowMs: number, max: number): number {
  return state.at + Math.ceil((max * windowMs - state.level) / max)
}
