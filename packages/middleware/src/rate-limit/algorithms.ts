/**
 * The arithmetic of the three algorithms, once for every store written in TypeScript (memory,
 * Durable Objects, Deno KV): `consume` and the single-limit sliding window and token bucket go
 * through fixedEvaluate / slidingEvaluate / bucketEvaluate. (The fixed window's `increment`
 * counts refused requests too and takes no `max`: those stores add one to a counter, as Redis's
 * INCR does.) The shared stores mirror these three functions line by line, once each: the Lua
 * `limit()` of redis/rate-limit-store.ts and the PL/pgSQL `<table>_limit` of
 * postgres/rate-limit-store.ts, so every store answers alike. Pure functions of the stored state
 * and the time: no clock, no I/O.
 */
import type { RateLimitInfo, RateLimitRequest, RateLimitVerdict } from './store'

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

/** One limit's stored state in a {@link ConsumeState}, whichever algorithm counted it. */
export type LimitState = (FixedState | SlidingState | BucketState) & { expiresAt: number }

/**
 * What `consume` keeps per key: each limit's state, under `<algorithm>:<windowMs>`, the end of a
 * block, and when all of it stops mattering. Plain data, so stores that serialise it (Durable
 * Objects, Deno KV) keep it as is.
 */
export interface ConsumeState {
  limits: Record<string, LimitState>
  blockedUntil: number
  expiresAt: number
}

// The state key of one limit, `<algorithm>:<windowMs>`, made once per window length: a consume
// would otherwise build the same strings on every request. Windows come from configuration, so
// the cache stays small; past 64 lengths the ids are built each time.
const LIMIT_IDS = new Map<string, Map<number, string>>()
function limitId(algorithm: string, windowMs: number): string {
  let byWindow = LIMIT_IDS.get(algorithm)
  if (byWindow === undefined) {
    byWindow = new Map()
    LIMIT_IDS.set(algorithm, byWindow)
  }
  let id = byWindow.get(windowMs)
  if (id === undefined) {
    id = `${algorithm}:${windowMs}`
    if (byWindow.size < 64) byWindow.set(windowMs, id)
  }
  return id
}

/**
 * One `consume` call on a key's state at `now`: the verdict, and the state to store (`undefined`:
 * nothing changes: a read with cost 0, or a refusal that sets no block). Every limit is evaluated
 * first and all are taken only if all accept, so a store that applies `next` atomically (in one
 * step of the memory store, one Durable Object event, one checked Deno KV commit) is all or
 * nothing. Expired limit states are dropped from `next` (they equal no state).
 */
export function consumeEvaluate(
  state: ConsumeState | undefined,
  now: number,
  request: Required<RateLimitRequest>,
): { verdict: RateLimitVerdict; next: ConsumeState | undefined } {
  const { algorithm, limits, cost, blockMs } = request
  let blockedMs = state !== undefined && state.blockedUntil > now ? state.blockedUntil - now : 0
  const evaluate = (
    algorithm === 'fixed-window'
      ? fixedEvaluate
      : algorithm === 'sliding-window'
        ? slidingEvaluate
        : bucketEvaluate
  ) as (...a: unknown[]) => LimitEvaluation<object>
  const n = limits.length
  const ids: string[] = new Array(n)
  const results: LimitEvaluation<object>[] = new Array(n)
  let allowed = blockedMs === 0
  for (let i = 0; i < n; i++) {
    const l = limits[i] as RateLimitRequest['limits'][number]
    const id = limitId(algorithm, l.windowMs)
    ids[i] = id
    const r = evaluate(state?.limits[id], now, l.windowMs, l.max, cost)
    results[i] = r
    if (r.next === undefined) allowed = false
  }
  let next: ConsumeState | undefined
  if (cost > 0 && (allowed || (blockMs > 0 && blockedMs === 0))) {
    const kept: Record<string, LimitState> = {}
    const previous = state?.limits
    if (previous !== undefined) {
      for (const id in previous) {
        const s = previous[id] as LimitState
        if (s.expiresAt > now) kept[id] = s
      }
    }
    let blockedUntil = state?.blockedUntil ?? 0
    if (allowed) {
      for (let i = 0; i < n; i++) kept[ids[i] as string] = results[i]?.next as LimitState
    } else {
      blockedUntil = now + blockMs
      blockedMs = blockMs
    }
    let expiresAt = blockedUntil
    for (const id in kept) expiresAt = Math.max(expiresAt, (kept[id] as LimitState).expiresAt)
    next = { limits: kept, blockedUntil, expiresAt }
  }
  const counted: { count: number; ttl: number }[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const r = results[i] as LimitEvaluation<object>
    counted[i] = { count: r.count, ttl: r.ttl }
  }
  const verdict = { allowed, limits: counted, blockedMs }
  return { verdict, next }
}

/** A sliding-window or token-bucket state as a store keeps it, with when it stops mattering. */
export type StoredSliding = SlidingState & { expiresAt: number }
export type StoredBucket = BucketState & { expiresAt: number }

/**
 * One `slidingWindow` or `tokenBucket` request on a stored state (`undefined`: none, or expired)
 * at `now`: the answer, and the state to store, `undefined` when the request was refused and
 * nothing is recorded ({@link slidingEvaluate} or {@link bucketEvaluate} for one unit). For
 * stores that read, compute and write back (Durable Objects, Deno KV).
 */
export function algorithmHit(
  algorithm: 'sliding-window' | 'token-bucket',
  stored: StoredSliding | StoredBucket | undefined,
  now: number,
  windowMs: number,
  max: number,
): { info: RateLimitInfo; next: StoredSliding | StoredBucket | undefined } {
  const evaluate = (algorithm === 'sliding-window' ? slidingEvaluate : bucketEvaluate) as (
    ...a: unknown[]
  ) => LimitEvaluation<StoredSliding | StoredBucket>
  const { count, ttl, next } = evaluate(stored, now, windowMs, max, 1)
  return { info: { count, ttl }, next }
}

/**
 * The refund of one sliding-window or token-bucket request (`decrement`) on a stored state: the
 * state to store, or `undefined` when nothing changes (no state, or no request of the current
 * sliding window to give back). A bucket never goes above `max` tokens.
 */
export function algorithmRefund(
  algorithm: 'sliding-window' | 'token-bucket',
  stored: StoredSliding | StoredBucket | undefined,
  now: number,
  windowMs: number,
  max: number,
): StoredSliding | StoredBucket | undefined {
  if (stored === undefined || stored.expiresAt <= now) return undefined
  if (algorithm === 'sliding-window') {
    const state = stored as StoredSliding
    if (state.index !== Math.floor(now / windowMs) || state.current <= 0) return undefined
    return { ...state, current: state.current - 1 }
  }
  const state = { ...(stored as StoredBucket) }
  refillBucket(state, now, windowMs, max)
  state.level = Math.min(max * windowMs, state.level + windowMs)
  return { ...state, expiresAt: bucketExpiresAt(state, windowMs, max) }
}
