// What rateLimit says when its options are wrong: each message in full, as a developer reads it.

import { describe, expect, it } from 'vitest'
import { rateLimit } from './rate-limit'

const big = 2 ** 60
const nine = Array.from({ length: 9 }, (_, i) => ({ max: 1, windowMs: 1_000 + i }))
const plain = { increment: async () => ({ count: 1, ttl: 1 }) }
const draft8 = { standardHeaders: 'draft-8' } as const

describe('rateLimit: option errors, in full', () => {
  it.each<[string, Record<string, unknown>, string]>([
    [
      'max × windowMs past 2^53',
      { max: 2 ** 40, windowMs: 2 ** 20 },
      '"max" × "windowMs" must be a safe integer (at most 2^53 − 1), got 1099511627776 × 1048576',
    ],
    ['a windowMs past 2^53', { windowMs: big }, `"windowMs" must be at most 2^53 − 1, got ${big}`],
    ['a cost past 2^53', { cost: big }, `"cost" must be at most 2^53 − 1, got ${big}`],
    [
      'a blockDurationMs past 2^53',
      { blockDurationMs: big },
      `"blockDurationMs" must be at most 2^53 − 1, got ${big}`,
    ],
    ['max 0', { max: 0 }, '"max" must be a positive integer, got 0'],
    ['a fractional max', { max: 1.5 }, '"max" must be a positive integer, got 1.5'],
    [
      'an identifier with a quote',
      { ...draft8, identifier: 'a"b' },
      '"identifier" must be 1–64 printable ASCII characters without quotes or backslashes, got "a\\"b"',
    ],
    [
      'an identifier without draft-8',
      { identifier: 'ok' },
      `"identifier" names the draft-8 quota: set standardHeaders: 'draft-8'`,
    ],
    [
      'limits not an array',
      { limits: 'x' },
      '"limits" must be a non-empty array of { max, windowMs }',
    ],
    ['nine limits', { limits: nine }, '"limits" takes at most 8 limits'],
    ['a null limit', { limits: [null] }, '"limits[0]" must be { max, windowMs }'],
    [
      'a number among the limits',
      { limits: [{ max: 1, windowMs: 1_000 }, 5] },
      '"limits[1]" must be { max, windowMs }',
    ],
    [
      'limits with max(c)',
      { limits: [{ max: 1, windowMs: 1_000 }], max: () => 1 },
      '"limits" replaces "max": give one or the other',
    ],
    [
      'limits with an identifier',
      { ...draft8, limits: [{ max: 1, windowMs: 1_000 }], identifier: 'x' },
      '"limits" replaces "identifier": give one or the other',
    ],
    [
      'a limit whose max × windowMs is past 2^53',
      { limits: [{ max: 2 ** 40, windowMs: 2 ** 20 }] },
      '"limits[0].max" × "windowMs" must be a safe integer (at most 2^53 − 1), got 1099511627776 × 1048576',
    ],
    [
      'cost with skipSuccessfulRequests',
      { cost: 2, skipSuccessfulRequests: true },
      'skipSuccessfulRequests cannot be combined with "cost" (a refund of several limits or units is not supported)',
    ],
    [
      'blockDurationMs with skipFailedRequests',
      { blockDurationMs: 5, skipFailedRequests: true },
      'skipFailedRequests cannot be combined with "blockDurationMs" (a refund of several limits or units is not supported)',
    ],
    [
      'limits with skipFailedRequests',
      { limits: [{ max: 1, windowMs: 1_000 }], skipFailedRequests: true },
      'skipFailedRequests cannot be combined with "limits" (a refund of several limits or units is not supported)',
    ],
    [
      'the token bucket on a store without it',
      { store: plain, algorithm: 'token-bucket' },
      `algorithm 'token-bucket' needs a store with tokenBucket(key, windowMs, max); this store has none`,
    ],
    [
      'the sliding window on a store without it',
      { store: plain, algorithm: 'sliding-window' },
      `algorithm 'sliding-window' needs a store with slidingWindow(key, windowMs, max); this store has none`,
    ],
    [
      'refunds on a store without decrement',
      { store: plain, skipSuccessfulRequests: true },
      'skipSuccessfulRequests needs a store with decrement(key, hit); this store has none',
    ],
    [
      'a block on a store without consume',
      { store: plain, blockDurationMs: 5 },
      '"blockDurationMs" needs a store with consume(key, request); this store has none',
    ],
    [
      'a null store',
      { store: null },
      '"store" must be a RateLimitStore with an increment(key, windowMs)',
    ],
    [
      'a string store',
      { store: 'redis' },
      '"store" must be a RateLimitStore with an increment(key, windowMs)',
    ],
    ['a numeric onStoreError', { onStoreError: 5 }, '"onStoreError" must be a function, got 5'],
    ['a numeric skip', { skip: 5 }, '"skip" must be a function, got 5'],
  ])('%s', (_, options, message) => {
    expect(() => rateLimit(options as never)).toThrow(new TypeError(`rateLimit: ${message}`))
  })
})
