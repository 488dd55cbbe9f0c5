import type { DescribedHeader, MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'
import { MemoryRateLimitStore } from './memory-store'
import type { RateLimitStore } from './store'

/** A count or a number of seconds: never negative, always a safe integer. */
const integer = {
  type: 'integer',
  format: 'int64',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
} as const

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
    {
      name: 'RateLimit-Policy',
      description: 'The quota policy, `<max>;w=<seconds>`',
      schema: { type: 'string', pattern: '^[0-9]+;w=[0-9]+$', maxLength: 40 },
    },
  ]
}

/**
 * What `rateLimit` adds to an operation: its answers (`answers.ts`: 429 with `Retry-After` and the
 * RateLimit headers, 503 when a store that can fail is configured without `failOpen`), and those
 * headers on every answer given after it counted the request.
 */
export function rateLimitDescription(
  store: RateLimitStore | undefined,
  failOpen: boolean,
  headers: DescribedHeader[] = rateLimitHeaders(),
): MiddlewareDescription {
  const storeCanFail = store !== undefined && !(store instanceof MemoryRateLimitStore)
  const retryAfter: DescribedHeader = {
    name: 'Retry-After',
    description: 'Seconds until a retry can succeed',
    schema: { ...integer, minimum: 1 },
  }
  // Set before the request goes on: on what passes, and on every later rejection and error too.
  return {
    middleware: 'rateLimit',
    responses: responsesOf(ANSWERS, { storeCanFail, failOpen }, { 429: [retryAfter, ...headers] }),
    headers: headers.map((h) => ({ ...h, on: 'passed' as const })),
  }
}
