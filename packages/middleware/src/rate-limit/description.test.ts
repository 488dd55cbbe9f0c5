// What `rateLimit` writes into an OpenAPI document: its answers and headers, texts and schemas.

import { getMiddlewareDescription as describeOf } from '@palisade/shared/describe'
import { describe, expect, it } from 'vitest'
import { rateLimitDescription, rateLimitHeaders } from './description'
import { MemoryRateLimitStore } from './memory-store'
import { rateLimit } from './rate-limit'

const MAX = Number.MAX_SAFE_INTEGER
const count = { type: 'integer', format: 'int64', minimum: 0, maximum: MAX }
const draft6 = [
  { name: 'RateLimit-Limit', description: 'Requests allowed in the window', schema: count },
  { name: 'RateLimit-Remaining', description: 'Requests left in the window', schema: count },
  { name: 'RateLimit-Reset', description: 'Seconds until the window resets', schema: count },
  {
    name: 'RateLimit-Policy',
    description: 'The quota policy, `<max>;w=<seconds>`',
    schema: { type: 'string', pattern: '^[0-9]+;w=[0-9]+$', maxLength: 40 },
  },
]
const draft8 = [
  { name: 'RateLimit-Policy', description: 'The quota policy (IETF draft 8)' },
  { name: 'RateLimit', description: 'Remaining quota and reset (IETF draft 8)' },
]
const retryAfter = {
  name: 'Retry-After',
  description: 'Seconds until a retry can succeed',
  schema: { type: 'integer', format: 'int64', minimum: 1, maximum: MAX },
}
const unavailable = {
  status: 503,
  description: 'The rate limit store is unavailable',
  codes: ['store_unavailable'],
}
const shared = { increment: async () => ({ count: 1, ttl: 1 }) }

describe('rateLimitHeaders', () => {
  it('draft 6 by default: four headers, the counts as non-negative safe integers', () => {
    expect(rateLimitHeaders()).toEqual(draft6)
    expect(rateLimitHeaders('draft-6')).toEqual(draft6)
  })

  it('draft 8: the two structured fields, no schema', () => {
    expect(rateLimitHeaders('draft-8')).toEqual(draft8)
  })

  it('the policy pattern takes what the draft-6 header sends, and nothing else', () => {
    const pattern = new RegExp(String(rateLimitHeaders()[3]?.schema?.pattern))
    expect(pattern.test('100;w=60')).toBe(true)
    for (const bad of ['x100;w=60', '100;w=60x', '100;w=', ';w=60', '100; w=60']) {
      expect(pattern.test(bad)).toBe(false)
    }
  })
})

describe('rateLimitDescription', () => {
  it('the default memory store cannot fail: 429 alone, with Retry-After and the headers', () => {
    expect(rateLimitDescription(undefined, false)).toEqual({
      middleware: 'rateLimit',
      responses: [
        {
          status: 429,
          description: 'Too many requests',
          codes: ['rate_limited'],
          headers: [retryAfter, ...draft6],
        },
      ],
      headers: draft6.map((h) => ({ ...h, on: 'passed' })),
    })
    expect(rateLimitDescription(new MemoryRateLimitStore(), false).responses).toHaveLength(1)
  })

  it('a store that can fail adds 503, unless failOpen', () => {
    expect(rateLimitDescription(shared, false).responses?.[1]).toEqual(unavailable)
    expect(rateLimitDescription(shared, true).responses).toHaveLength(1)
  })

  it('rateLimit describes itself from its options: draft 8 headers, a shared store', () => {
    expect(describeOf(rateLimit({ standardHeaders: 'draft-8', store: shared }))).toEqual({
      middleware: 'rateLimit',
      responses: [
        {
          status: 429,
          description: 'Too many requests',
          codes: ['rate_limited'],
          headers: [retryAfter, ...draft8],
        },
        unavailable,
      ],
      headers: draft8.map((h) => ({ ...h, on: 'passed' })),
    })
  })
})
