import type { DescribedHeader, MiddlewareDescription } from '@palisade/shared/describe'
import { MemoryRateLimitStore } from './memory-store'
import type { RateLimitStore } from './store'

const integer = { type: 'integer', minimum: 0 } as const

/** The headers `rateLimit` sets, by the draft of the IETF RateLimit header fields it follows. */
export function rateLimitHeaders(draft: 'draft-6' | 'draft-8' = 'draft-6'): DescribedHeader[] {
  if (draft === 'draft-8') {
    return [
      { name: 'RateLimit-Policy', description: 'The quota policy (IETF draft 8)' },
      { name: 'RateLimit', description: 'Remaining quota and reset (IETF draft 8)' },
    ]
  }
  return [
    { name: 'RateLimit-Limit', description: 'Requests allowed in the window', schema: integer },
    { name: 'RateLimit-Remaining', description: 'Requests left in the window', schema: integer },
    { name: 'RateLimit-Reset', description: 'Seconds until the window resets', schema: integer },
    { name: 'RateLimit-Policy', description: 'The quota policy, `<max>;w=<seconds>`' },
  ]
}

/**
 * What `rateLimit` adds to an operation: 429 with `Retry-After` and the RateLimit headers, those
 * headers on success, and 503 when a store that can fail is configured without `failOpen`.
 */
export function rateLimitDescription(
  store: RateLimitStore | undefined,
  failOpen: boolean,
  headers: DescribedHeader[] = rateLimitHeaders(),
): MiddlewareDescription {
  const responses: MiddlewareDescription['responses'] = [
    {
      status: 429,
      description: 'Too many requests',
      codes: ['rate_limited'],
      headers: [
        {
          name: 'Retry-After',
          description: 'Seconds until a retry can succeed',
          schema: { type: 'integer', minimum: 1 },
        },
        ...headers,
      ],
    },
  ]
  if (!failOpen && store !== undefined && !(store instanceof MemoryRateLimitStore)) {
    responses.push({
      status: 503,
      description: 'The rate limit store is unavailable',
      codes: ['store_unavailable'],
    })
  }
  return { responses, headers }
}
