// The arithmetic every TypeScript store shares (memory, Durable Objects, Deno KV), at its edges:
// a window that ends exactly now, a clock that went back, rounding, a full or an empty bucket,
// the expiry each state reports. Window 100 ms and max 4 unless a case says otherwise.

import { describe, expect, it } from 'vitest'
import {
  algorithmHit,
  algorithmRefund,
  type BucketState,
  bucketEvaluate,
  bucketExpiresAt,
  type ConsumeState,
  consumeEvaluate,
  fixedEvaluate,
  refillBucket,
  type SlidingState,
  slidingEvaluate,
  slidingExpiresAt,
  slidingWindowHit,
  tokenBucketHit,
} from './algorithms'
import type { RateLimitRequest } from './store'

describe('fixedEvaluate', () => {
  it('a fresh window starts now; the count includes the cost', () => {
    expect(fixedEvaluate(undefined, 1000, 100, 4, 2)).toEqual({
      count: 2,
      ttl: 100,
      next: { count: 2, expiresAt: 1100 },
    })
  })

  it('a live window keeps its end and adds to its count, up to max included', () => {
    expect(fixedEvaluate({ count: 3, expiresAt: 1050 }, 1000, 100, 4, 1)).toEqual({
      count: 4,
      ttl: 50,
      next: { count: 4, expiresAt: 1050 },
    })
    expect(fixedEvaluate({ count: 4, expiresAt: 1050 }, 1000, 100, 4, 1)).toEqual({
      count: 5,
      ttl: 50,
      next: undefined,
    })
  })

  it('a window that ends exactly now is over', () => {
    expect(fixedEvaluate({ count: 4, expiresAt: 1000 }, 1000, 100, 4, 1)).toEqual({
      count: 1,
      ttl: 100,
      next: { count: 1, expiresAt: 1100 },
    })
  })
})

describe('slidingEvaluate', () => {
  // now 250: window index 2, 50 ms into it, half of the previous window still weighs.
  it('a fresh key counts the cost alone, until the end of the current window', () => {
    expect(slidingEvaluate(undefined, 250, 100, 4, 1)).toEqual({
      count: 1,
      ttl: 50,
      next: { index: 2, current: 1, previous: 0, expiresAt: 400 },
    })
  })

  it('the same window: its count plus the previous one weighted, rounded down', () => {
    const state = { index: 2, current: 1, previous: 3, expiresAt: 400 }
    // floor(3 × 50 / 100) = 1, + 1 current + 2 cost
    expect(slidingEvaluate(state, 250, 100, 4, 2)).toEqual({
      count: 4,
      ttl: 50,
      next: { index: 2, current: 3, previous: 3, expiresAt: 400 },
    })
    expect(slidingEvaluate(state, 250, 100, 3, 2)).toEqual({ count: 4, ttl: 50, next: undefined })
  })

  it('the window after the stored one: the stored count becomes the previous one', () => {
    const state = { index: 1, current: 5, previous: 9, expiresAt: 300 }
    // floor(5 × 70 / 100) = 3, + 0 current + 1 cost
    expect(slidingEvaluate(state, 230, 100, 4, 1)).toEqual({
      count: 4,
      ttl: 70,
      next: { index: 2, current: 1, previous: 5, expiresAt: 400 },
    })
  })

  it('an older window, or a state that expires exactly now, counts nothing', () => {
    const old = { index: 0, current: 5, previous: 9, expiresAt: 10_000 }
    expect(slidingEvaluate(old, 250, 100, 4, 1).count).toBe(1)
    const ended = { index: 2, current: 3, previous: 3, expiresAt: 250 }
    expect(slidingEvaluate(ended, 250, 100, 4, 1)).toEqual({
      count: 1,
      ttl: 50,
      next: { index: 2, current: 1, previous: 0, expiresAt: 400 },
    })
  })

  it('at the first millisecond of a window the previous one weighs in full', () => {
    const state = { index: 1, current: 3, previous: 0, expiresAt: 300 }
    expect(slidingEvaluate(state, 200, 100, 4, 1)).toEqual({
      count: 4,
      ttl: 100,
      next: { index: 2, current: 1, previous: 3, expiresAt: 400 },
    })
  })
})

describe('bucketEvaluate', () => {
  // max 4 per 100 ms: capacity 400 units, 100 units a token, 4 units refilled a millisecond.
  it('a fresh key is a full bucket', () => {
    expect(bucketEvaluate(undefined, 1000, 100, 4, 1)).toEqual({
      count: 1,
      ttl: 25,
      next: { level: 300, at: 1000, expiresAt: 1025 },
    })
  })

  it('refills since the last take, capped at capacity; an expired state is a full bucket', () => {
    // 250 + 10 ms × 4 = 290: 2 whole tokens left after one, ttl to the third: ceil(10 / 4)
    const state = { level: 250, at: 990, expiresAt: 2000 }
    expect(bucketEvaluate(state, 1000, 100, 4, 1)).toEqual({
      count: 3,
      ttl: 3,
      next: { level: 190, at: 1000, expiresAt: 1053 },
    })
    const nearlyFull = { level: 390, at: 0, expiresAt: 2000 }
    expect(bucketEvaluate(nearlyFull, 1000, 100, 4, 1)?.next?.level).toBe(300)
    const ended = { level: 0, at: 900, expiresAt: 1000 }
    expect(bucketEvaluate(ended, 1000, 100, 4, 1)?.next?.level).toBe(300)
  })

  it('a clock that went back refills nothing and takes nothing away', () => {
    const state = { level: 150, at: 1010, expiresAt: 2000 }
    expect(bucketEvaluate(state, 1000, 100, 4, 1)).toEqual({
      count: 4,
      ttl: 13,
      next: { level: 50, at: 1000, expiresAt: 1088 },
    })
  })

  it('exactly one token left is taken', () => {
    const state = { level: 100, at: 1000, expiresAt: 2000 }
    expect(bucketEvaluate(state, 1000, 100, 4, 1)).toEqual({
      count: 4,
      ttl: 25,
      next: { level: 0, at: 1000, expiresAt: 1100 },
    })
  })

  it('too few tokens: nothing taken, the count past max, the time until enough', () => {
    const state = { level: 90, at: 1000, expiresAt: 2000 }
    expect(bucketEvaluate(state, 1000, 100, 4, 1)).toEqual({ count: 5, ttl: 3, next: undefined })
    // 4 − 0 whole tokens + 3: more than max + 1; (300 − 90) / 4 = 52.5
    expect(bucketEvaluate(state, 1000, 100, 4, 3)).toEqual({ count: 7, ttl: 53, next: undefined })
    // 2 whole tokens left, 3 asked: 4 − 2 + 3 = 5 = max + 1
    const two = { level: 250, at: 1000, expiresAt: 2000 }
    expect(bucketEvaluate(two, 1000, 100, 4, 3)).toEqual({ count: 5, ttl: 13, next: undefined })
  })

  it('cost 0 on a full bucket: nothing in use, and the state expires a millisecond later', () => {
    expect(bucketEvaluate(undefined, 1000, 100, 4, 0)).toEqual({
      count: 0,
      ttl: 25,
      next: { level: 400, at: 1000, expiresAt: 1001 },
    })
  })
})

describe('the in-place single-unit hits', () => {
  it('slidingWindowHit records an accepted request in the state, not a refused one', () => {
    const state: SlidingState = { index: Number.NEGATIVE_INFINITY, current: 0, previous: 0 }
    expect(slidingWindowHit(state, 250, 100, 1)).toEqual({ count: 1, ttl: 50 })
    expect(state).toEqual({ index: 2, current: 1, previous: 0 })
    expect(slidingWindowHit(state, 260, 100, 1)).toEqual({ count: 2, ttl: 40 })
    expect(state).toEqual({ index: 2, current: 1, previous: 0 })
    // Next window: the stored count weighs 100 − 10 = 90% of 1: floor 0.
    expect(slidingWindowHit(state, 310, 100, 1)).toEqual({ count: 1, ttl: 90 })
    expect(state).toEqual({ index: 3, current: 1, previous: 1 })
    expect(slidingExpiresAt(state, 100)).toBe(500)
  })

  it('tokenBucketHit takes a token in the state, and leaves an empty bucket alone', () => {
    const state: BucketState = { level: 100, at: 1000 }
    expect(tokenBucketHit(state, 1000, 100, 4)).toEqual({ count: 4, ttl: 25 })
    expect(state).toEqual({ level: 0, at: 1000 })
    expect(tokenBucketHit(state, 1010, 100, 4)).toEqual({ count: 5, ttl: 15 })
    expect(state).toEqual({ level: 0, at: 1000 })
    expect(bucketExpiresAt(state, 100, 4)).toBe(1100)
    expect(bucketExpiresAt({ level: 250, at: 1000 }, 100, 4)).toBe(1038)
  })

  it('refillBucket adds the time since `at`, capped, and ignores a clock that went back', () => {
    const state: BucketState = { level: 100, at: 1000 }
    refillBucket(state, 1010, 100, 4)
    expect(state).toEqual({ level: 140, at: 1010 })
    refillBucket(state, 1000, 100, 4)
    expect(state).toEqual({ level: 140, at: 1010 })
    refillBucket(state, 1010, 100, 4)
    expect(state).toEqual({ level: 140, at: 1010 })
    refillBucket(state, 5000, 100, 4)
    expect(state).toEqual({ level: 400, at: 5000 })
  })
})

describe('consumeEvaluate', () => {
  const request = (
    over: Partial<RateLimitRequest> & Pick<RateLimitRequest, 'limits'>,
  ): Required<RateLimitRequest> => ({ algorithm: 'fixed-window', cost: 1, blockMs: 0, ...over })
  const twoLimits = [
    { max: 2, windowMs: 100 },
    { max: 5, windowMs: 1000 },
  ]

  it('takes the cost from every limit of a fresh key', () => {
    expect(consumeEvaluate(undefined, 1000, request({ limits: twoLimits }))).toEqual({
      verdict: {
        allowed: true,
        limits: [
          { count: 1, ttl: 100 },
          { count: 1, ttl: 1000 },
        ],
        blockedMs: 0,
      },
      next: {
        limits: {
          'fixed-window:100': { count: 1, expiresAt: 1100 },
          'fixed-window:1000': { count: 1, expiresAt: 2000 },
        },
        blockedUntil: 0,
        expiresAt: 2000,
      },
    })
  })

  it('one limit refusing refuses all and records nothing (no block asked)', () => {
    const state: ConsumeState = {
      limits: { 'fixed-window:100': { count: 2, expiresAt: 1050 } },
      blockedUntil: 0,
      expiresAt: 1050,
    }
    expect(consumeEvaluate(state, 1000, request({ limits: twoLimits }))).toEqual({
      verdict: {
        allowed: false,
        limits: [
          { count: 3, ttl: 50 },
          { count: 1, ttl: 1000 },
        ],
        blockedMs: 0,
      },
      next: undefined,
    })
  })

  it('a refusal with blockMs blocks the key and keeps the live states as they were', () => {
    const state: ConsumeState = {
      limits: {
        'fixed-window:100': { count: 2, expiresAt: 1050 },
        'token-bucket:100': { level: 1, at: 900, expiresAt: 1000 },
        'sliding-window:7': { index: 1, current: 1, previous: 0, expiresAt: 3000 },
      },
      blockedUntil: 400,
      expiresAt: 3000,
    }
    const { verdict, next } = consumeEvaluate(
      state,
      1000,
      request({ limits: twoLimits, blockMs: 500 }),
    )
    expect(verdict).toEqual({
      allowed: false,
      limits: [
        { count: 3, ttl: 50 },
        { count: 1, ttl: 1000 },
      ],
      blockedMs: 500,
    })
    // The bucket's state ended exactly now: dropped. Nothing of this request is recorded.
    expect(next).toEqual({
      limits: {
        'fixed-window:100': { count: 2, expiresAt: 1050 },
        'sliding-window:7': { index: 1, current: 1, previous: 0, expiresAt: 3000 },
      },
      blockedUntil: 1500,
      expiresAt: 3000,
    })
  })

  it('a blocked key is refused without counting, and its block is not extended', () => {
    const state: ConsumeState = { limits: {}, blockedUntil: 1200, expiresAt: 1200 }
    const blocked = request({ limits: twoLimits, blockMs: 500 })
    expect(consumeEvaluate(state, 1000, blocked)).toEqual({
      verdict: {
        allowed: false,
        limits: [
          { count: 1, ttl: 100 },
          { count: 1, ttl: 1000 },
        ],
        blockedMs: 200,
      },
      next: undefined,
    })
    // A block that ends exactly now is over: the request passes, the old end is kept.
    const { verdict, next } = consumeEvaluate(state, 1200, blocked)
    expect(verdict.allowed).toBe(true)
    expect(verdict.blockedMs).toBe(0)
    expect(next?.blockedUntil).toBe(1200)
    expect(next?.expiresAt).toBe(2200)
  })

  it('cost 0 reads the state and records nothing, even where it passes', () => {
    const state: ConsumeState = {
      limits: { 'fixed-window:100': { count: 2, expiresAt: 1050 } },
      blockedUntil: 0,
      expiresAt: 1050,
    }
    expect(consumeEvaluate(state, 1000, request({ limits: twoLimits, cost: 0 }))).toEqual({
      verdict: {
        allowed: true,
        limits: [
          { count: 2, ttl: 50 },
          { count: 0, ttl: 1000 },
        ],
        blockedMs: 0,
      },
      next: undefined,
    })
    // Refused at cost 0 with a block asked: still nothing recorded, no block set.
    const over = request({ limits: [{ max: 1, windowMs: 100 }], cost: 0, blockMs: 500 })
    expect(consumeEvaluate(state, 1000, over)).toEqual({
      verdict: { allowed: false, limits: [{ count: 2, ttl: 50 }], blockedMs: 0 },
      next: undefined,
    })
  })

  it('the sliding window and the token bucket keep their own states, under their own ids', () => {
    const limits = [{ max: 4, windowMs: 100 }]
    const sliding = consumeEvaluate(
      undefined,
      250,
      request({ algorithm: 'sliding-window', limits }),
    )
    expect(sliding.next).toEqual({
      limits: { 'sliding-window:100': { index: 2, current: 1, previous: 0, expiresAt: 400 } },
      blockedUntil: 0,
      expiresAt: 400,
    })
    const bucket = consumeEvaluate(
      sliding.next,
      1000,
      request({ algorithm: 'token-bucket', limits, cost: 2 }),
    )
    expect(bucket.verdict).toEqual({ allowed: true, limits: [{ count: 2, ttl: 25 }], blockedMs: 0 })
    // The sliding state ended at 400: dropped.
    expect(bucket.next).toEqual({
      limits: { 'token-bucket:100': { level: 200, at: 1000, expiresAt: 1050 } },
      blockedUntil: 0,
      expiresAt: 1050,
    })
  })

  it('ids stay exact past the cache of 64 window lengths', () => {
    let state: ConsumeState | undefined
    for (let w = 1; w <= 70; w++) {
      state = consumeEvaluate(state, 0, request({ limits: [{ max: 9, windowMs: 1000 + w }] })).next
    }
    expect(Object.keys(state?.limits ?? {})).toHaveLength(70)
    expect(state?.limits['fixed-window:1070']).toEqual({ count: 1, expiresAt: 1070 })
    const again = consumeEvaluate(state, 1, request({ limits: [{ max: 9, windowMs: 1070 }] }))
    expect(again.verdict.limits).toEqual([{ count: 2, ttl: 1069 }])
  })
})

describe('algorithmHit and algorithmRefund (the read-compute-write stores)', () => {
  it('algorithmHit: one unit by the named algorithm, with the state to store', () => {
    expect(algorithmHit('sliding-window', undefined, 250, 100, 4)).toEqual({
      info: { count: 1, ttl: 50 },
      next: { index: 2, current: 1, previous: 0, expiresAt: 400 },
    })
    expect(algorithmHit('token-bucket', undefined, 1000, 100, 4)).toEqual({
      info: { count: 1, ttl: 25 },
      next: { level: 300, at: 1000, expiresAt: 1025 },
    })
    const empty = { level: 0, at: 1000, expiresAt: 1100 }
    expect(algorithmHit('token-bucket', empty, 1000, 100, 4)).toEqual({
      info: { count: 5, ttl: 25 },
      next: undefined,
    })
  })

  it('nothing to refund: no state, or one that ends exactly now', () => {
    expect(algorithmRefund('sliding-window', undefined, 250, 100, 4)).toBeUndefined()
    expect(algorithmRefund('token-bucket', undefined, 1000, 100, 4)).toBeUndefined()
    const ended = { index: 2, current: 3, previous: 0, expiresAt: 250 }
    expect(algorithmRefund('sliding-window', ended, 250, 100, 4)).toBeUndefined()
    const bucket = { level: 0, at: 900, expiresAt: 1000 }
    expect(algorithmRefund('token-bucket', bucket, 1000, 100, 4)).toBeUndefined()
  })

  it('sliding window: gives back one request of the current window only', () => {
    const state = { index: 2, current: 3, previous: 7, expiresAt: 400 }
    expect(algorithmRefund('sliding-window', state, 250, 100, 4)).toEqual({
      index: 2,
      current: 2,
      previous: 7,
      expiresAt: 400,
    })
    expect(state.current).toBe(3)
    // The window after: the request counted is in the previous window now.
    expect(algorithmRefund('sliding-window', state, 310, 100, 4)).toBeUndefined()
    const none = { ...state, current: 0 }
    expect(algorithmRefund('sliding-window', none, 250, 100, 4)).toBeUndefined()
    const one = { ...state, current: 1 }
    expect(algorithmRefund('sliding-window', one, 250, 100, 4)).toMatchObject({ current: 0 })
  })

  it('token bucket: refills to now, puts a token back, never above max', () => {
    const state = { level: 100, at: 1000, expiresAt: 1075 }
    // 100 + 10 ms × 4 + 100 = 240; full again in (400 − 240) / 4 = 40 ms
    expect(algorithmRefund('token-bucket', state, 1010, 100, 4)).toEqual({
      level: 240,
      at: 1010,
      expiresAt: 1050,
    })
    expect(state).toEqual({ level: 100, at: 1000, expiresAt: 1075 })
    const nearlyFull = { level: 380, at: 1000, expiresAt: 1005 }
    expect(algorithmRefund('token-bucket', nearlyFull, 1000, 100, 4)).toEqual({
      level: 400,
      at: 1000,
      expiresAt: 1000,
    })
  })
})
