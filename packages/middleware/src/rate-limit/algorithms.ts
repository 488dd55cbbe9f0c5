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
 * A new key starts from `{ index: -Infinity, current: 0, previous: 0 }`. The arithmetic is
 * {@link slidingEvaluate}'s, for one unit.
 */
export function slidingWindowHit(
  state: SlidingState,
  now: number,
  windowMs: number,
  max: number,
): RateLimitInfo {
  const live = { ...state, expiresAt: Number.POSITIVE_INFINITY }
  const { count, ttl, next } = slidingEvaluate(live, now, windowMs, max, 1)
  if (next !== undefined) {
    state.index = next.index
    state.current = next.current
    state.previous = next.previous
  }
  return { count, ttl }
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
 * left), or `max + 1` when empty; `ttl` is the time until the next whole token. The arithmetic
 * is {@link bucketEvaluate}'s, for one token.
 */
export function tokenBucketHit(
  state: BucketState,
  now: number,
  windowMs: number,
  max: number,
): RateLimitInfo {
  const live = { ...state, expiresAt: Number.POSITIVE_INFINITY }
  const { count, ttl, next } = bucketEvaluate(live, now, windowMs, max, 1)
  if (next !== undefined) {
    state.level = next.level
    state.at = next.at
  }
  return { count, ttl }
}

/** When a bucket is full again, after which its state equals no state at all. */
export function bucketExpiresAt(state: BucketState, windowMs: number, max: number): number {
  return state.at + Math.ceil((max * windowMs - state.level) / max)
}

/**
 * One limit of a `consume` call, evaluated without touching the stored state: what the count
 * and ttl would be with `cost` more units, and the state to store if the call goes through
 * (`undefined`: this limit refuses it). The memory store applies `next` only when every limit of
 * the call accepts; the Redis and PostgreSQL stores mirror these lines in Lua and PL/pgSQL.
 */
export interface LimitEvaluation<S> extends RateLimitInfo {
  next: (S & { expiresAt: number }) | undefined
}

/** Fixed-window state of one limit: the count of the window that ends at `expiresAt`. */
export interface FixedState {
  count: number
  expiresAt: number
}

/** Fixed window: a live window's count, or a fresh window starting now. */
export function fixedEvaluate(
  state: FixedState | undefined,
  now: number,
  windowMs: number,
  max: number,
  cost: number,
): LimitEvaluation<FixedState> {
  const live = state !== undefined && state.expiresAt > now
  const end = live ? state.expiresAt : now + windowMs
  const count = (live ? state.count : 0) + cost
  return { count, ttl: end - now, next: count <= max ? { count, expiresAt: end } : undefined }
}

/** Sliding window, as {@link slidingWindowHit} with `cost` units instead of one. */
export function slidingEvaluate(
  state: (SlidingState & { expiresAt: number }) | undefined,
  now: number,
  windowMs: number,
  max: number,
  cost: number,
): LimitEvaluation<SlidingState> {
  const index = Math.floor(now / windowMs)
  let current = 0
  let previous = 0
  if (state !== undefined && state.expiresAt > now) {
    if (state.index === index) {
      current = state.current
      previous = state.previous
    } else if (state.index === index - 1) {
      previous = state.current
    }
  }
  const elapsed = now - index * windowMs
  const count = Math.floor((previous * (windowMs - elapsed)) / windowMs) + current + cost
  const next =
    count <= max
      ? { index, current: current + cost, previous, expiresAt: (index + 2) * windowMs }
      : undefined
  return { count, ttl: windowMs - elapsed, next }
}

/** Token bucket, as {@link tokenBucketHit} taking `cost` tokens instead of one. */
export function bucketEvaluate(
  state: (BucketState & { expiresAt: number }) | undefined,
  now: number,
  windowMs: number,
  max: number,
  cost: number,
): LimitEvaluation<BucketState> {
  const capacity = max * windowMs
  let level = capacity
  if (state !== undefined && state.expiresAt > now) {
    level = Math.min(capacity, state.level + Math.max(0, now - state.at) * max)
  }
  const need = cost * windowMs
  if (level < need) {
    return {
      count: Math.max(max + 1, max - Math.floor(level / windowMs) + cost),
      ttl: Math.ceil((need - level) / max),
      next: undefined,
    }
  }
  const left = level - need
  return {
    count: max - Math.floor(left / windowMs),
    ttl: Math.ceil((windowMs - (left % windowMs)) / max),
    next: {
      level: left,
      at: now,
      expiresAt: now + Math.max(1, Math.ceil((capacity - left) / max)),
    },
  }
}
