// The checks every store's `consume` shares: what a malformed request is refused with, and the
// cost a store computes with.

import { describe, expect, it } from 'vitest'
import { checkRateLimitRequest, clampCost, MAX_LIMITS, type RateLimitRequest } from './store'

const check = (request: unknown) => checkRateLimitRequest('S', request as RateLimitRequest)
const fixed = (over: object = {}) => ({
  algorithm: 'fixed-window',
  limits: [{ max: 3, windowMs: 100 }],
  cost: 1,
  ...over,
})

describe('checkRateLimitRequest', () => {
  it('returns the request with blockMs defaulted to 0, or as given', () => {
    expect(check(fixed())).toEqual({ ...fixed(), blockMs: 0 })
    expect(check(fixed({ blockMs: 500, cost: 0 }))).toEqual({ ...fixed({ cost: 0 }), blockMs: 500 })
  })

  it('refuses what is not an object', () => {
    for (const bad of [null, undefined, 'fixed-window', 3]) {
      expect(() => check(bad)).toThrow(new TypeError('S.consume: request must be an object'))
    }
  })

  it('refuses an unknown algorithm, naming it', () => {
    expect(() => check(fixed({ algorithm: 'leaky-bucket' }))).toThrow(
      new TypeError('S.consume: unknown algorithm leaky-bucket'),
    )
    expect(() => check(fixed({ algorithm: undefined }))).toThrow(
      new TypeError('S.consume: unknown algorithm undefined'),
    )
  })

  it('takes 1 to 8 limits in an array', () => {
    const message = new TypeError('S.consume: limits must be an array of 1 to 8 { max, windowMs }')
    const nine = Array.from({ length: 9 }, (_, i) => ({ max: 3, windowMs: 100 + i }))
    expect(MAX_LIMITS).toBe(8)
    for (const limits of [[], nine, { length: 1, 0: { max: 3, windowMs: 100 } }, undefined]) {
      expect(() => check(fixed({ limits }))).toThrow(message)
    }
    expect(check(fixed({ limits: nine.slice(1) })).limits).toHaveLength(8)
  })

  it('checks each limit: its windowMs, its max, and windows that differ', () => {
    expect(() => check(fixed({ limits: [null] }))).toThrow(
      new TypeError('S.consume: windowMs must be a positive integer, got undefined'),
    )
    expect(() => check(fixed({ limits: [{ max: 0, windowMs: 100 }] }))).toThrow(
      new TypeError('S.consume: max must be a positive integer up to 2^53 − 1'),
    )
    const twice = [
      { max: 3, windowMs: 100 },
      { max: 5, windowMs: 100 },
    ]
    expect(() => check(fixed({ limits: twice }))).toThrow(
      new TypeError('S.consume: two limits share windowMs 100'),
    )
  })

  it('max × windowMs past 2^53 is fine for a fixed window, not for the other two', () => {
    // A monthly quota of 10 million calls.
    const monthly = [{ max: 10_000_000, windowMs: 2_700_000_000 }]
    expect(check(fixed({ limits: monthly })).limits).toBe(monthly)
    for (const algorithm of ['sliding-window', 'token-bucket']) {
      expect(() => check(fixed({ algorithm, limits: monthly }))).toThrow(
        new TypeError(
          'S.consume: max must be a positive integer with max × windowMs a safe integer',
        ),
      )
    }
  })

  it('cost and blockMs: non-negative safe integers', () => {
    const cost = new TypeError('S.consume: cost must be a non-negative integer up to 2^53 − 1')
    for (const bad of [-1, 1.5, 2 ** 53, '1', undefined]) {
      expect(() => check(fixed({ cost: bad }))).toThrow(cost)
    }
    const block = new TypeError('S.consume: blockMs must be a non-negative integer up to 2^53 − 1')
    for (const bad of [-1, 1.5, 2 ** 53, '1', null]) {
      expect(() => check(fixed({ blockMs: bad }))).toThrow(block)
    }
    expect(check(fixed({ cost: 0, blockMs: 0 }))).toMatchObject({ cost: 0, blockMs: 0 })
  })

  it('a cost above the smallest max is counted as that max + 1', () => {
    const limits = [
      { max: 5, windowMs: 1000 },
      { max: 3, windowMs: 100 },
    ]
    expect(check(fixed({ limits, cost: Number.MAX_SAFE_INTEGER })).cost).toBe(4)
    expect(check(fixed({ limits, cost: 4 })).cost).toBe(4)
    expect(check(fixed({ limits, cost: 3 })).cost).toBe(3)
  })
})

describe('clampCost', () => {
  it('the smallest max + 1 at most, whichever order the limits come in', () => {
    const limits = [
      { max: 3, windowMs: 100 },
      { max: 5, windowMs: 1000 },
    ]
    expect(clampCost(limits, 10)).toBe(4)
    expect(clampCost([...limits].reverse(), 10)).toBe(4)
    expect(clampCost(limits, 2)).toBe(2)
    expect(clampCost([], 10)).toBe(10)
  })
})
