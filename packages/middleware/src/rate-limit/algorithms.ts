/**
 * The arithmetic of the sliding window and the token bucket, shared by the memory store and
 * mirrored line by line in the Redis store's Lua scripts (redis/rate-limit-store.ts), so both
 * stores answer alike. Pure functions of the stored state and the time: no clock, no I/O.
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
 * inside the last `windowMs`, rounded down, plus the current window, plus this request). Records
 * the request in `state` (in place: this runs on every request) unless the count passes `max`.
 * A new key starts from `{ index: -Infinity, current: 0, previous: 0 }`.
 */
export function slidingWindowHit(
  state: SlidingState,
  now: number,
  windowMs: number,
  max: number,
): RateLimitInfo {
  const index = Math.floor(now / windowMs)
  let current = 0
  let previous = 0
  if (state.index === index) {
    current = state.current
    previous = state.previous
  } else if (state.index === index - 1) {
    previous = state.current
  }
  const elapsed = now - index * windowMs
  const count = Math.floor((previous * (windowMs - elapsed)) / windowMs) + current + 1
  if (count <= max) {
    state.index = index
    state.current = current + 1
    state.previous = previous
  }
  return { count, ttl: windowMs - elapsed }
}

/** When a sliding-window state stops mattering: the end of the window after its own. */
export function slidingExpiresAt(state: SlidingState, windowMs: number): number {
  return (state.index + 2) * windowMs
}

/**
 * Token-bucket state of one key. The level is kept in integer units, `windowMs` units per token
 * and `max` units refilled per millisecond, so the arithmetic is exact (no float drift in
 * JavaScript or in Redis's Lua) as long as `max × windowMs` is a safe integer. A new key is a
 * full bucket: `{ level: max × windowMs, at: now }`.
 */
export interface BucketState {
  level: number
  at: number
}

/** Refills the bucket up to `now` (in place), capped at capacity. */
export function refillBucket(state: BucketState, now: number, windowMs: number, max: number): void {
  if (now > state.at) {
    state.level = Math.min(max * windowMs, state.level + (now - state.at) * max)
    state.at = now
  }
}

/**
 * One token-bucket request: takes a token (`windowMs` units) when the bucket holds one, else
 * records nothing. `count` is the tokens in use after this request (`max` minus whole tokens
 * left), or `max + 1` when empty; `ttl` is the time until the next whole token.
 */
export function tokenBucketHit(
  state: BucketState,
  now: number,
  windowMs: number,
  max: number,
): RateLimitInfo {
  refillBucket(state, now, windowMs, max)
  const level = state.level
  if (level < windowMs) return { count: max + 1, ttl: Math.ceil((windowMs - level) / max) }
  const left = level - windowMs
  state.level = left
  return {
    count: max - Math.floor(left / windowMs),
    ttl: Math.ceil((windowMs - (left % windowMs)) / max),
  }
}

/** When a bucket is full again, after which its state equals no state at all. */
export function bucketExpiresAt(state: BucketState, windowMs: number, max: number): number {
  return state.at + Math.ceil((max * windowMs - state.level) / max)
}
