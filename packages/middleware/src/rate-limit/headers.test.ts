// The draft-8 quota name at each unit's boundary, and the draft-6 headers of several limits.

import { describe, expect, it } from 'vitest'
import { defaultPolicyName, quotaHeaders } from './headers'

describe('defaultPolicyName', () => {
  it.each([
    [1_000, '1sec'],
    [59_000, '59sec'],
    [60_000, '1min'],
    [90_000, '1.5min'],
    [3_540_000, '59min'],
    [3_600_000, '1hr'],
    [5_400_000, '1.5hrs'],
    [82_800_000, '23hrs'],
    [86_400_000, '1day'],
    [129_600_000, '1.5days'],
  ])('a window of %i ms is %s', (windowMs, duration) => {
    expect(defaultPolicyName(7, windowMs)).toBe(`7-in-${duration}`)
  })
})

describe('quotaHeaders: draft-6', () => {
  it('reports the first quota, lists every policy, and rounds a window up to whole seconds', () => {
    const headersOf = quotaHeaders('draft-6', undefined)
    const second = { max: 2, windowMs: 1_500, remaining: 1, reset: 2 }
    const hour = { max: 100, windowMs: 3_600_000, remaining: 99, reset: 3_600 }
    expect(headersOf([second, hour], 'k')).toEqual({
      'RateLimit-Limit': '2',
      'RateLimit-Remaining': '1',
      'RateLimit-Reset': '2',
      'RateLimit-Policy': '2;w=2, 100;w=3600',
    })
    expect(headersOf([hour], 'k')).toEqual({
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '99',
      'RateLimit-Reset': '3600',
      'RateLimit-Policy': '100;w=3600',
    })
  })
})
