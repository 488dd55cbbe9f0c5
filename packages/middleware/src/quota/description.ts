import type { DescribedHeader, MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'

/** The RateLimit fields `quota` sets (IETF draft 8), on every answer after it counted. */
const FIELDS: DescribedHeader[] = [
  {
    name: 'RateLimit-Policy',
    description: 'The quota: calls per period, and the period in seconds (IETF draft 8)',
    schema: { type: 'string', maxLength: 200, pattern: '^"[\\x20-\\x7e]{1,64}"; ' },
  },
  {
    name: 'RateLimit',
    description: 'Calls left in this period, and seconds until it ends (IETF draft 8)',
    schema: { type: 'string', maxLength: 200, pattern: '^"[\\x20-\\x7e]{1,64}"; ' },
  },
]

/**
 * What `quota` adds to an operation: its answers (`answers.ts`: 429 `quota_exceeded` with
 * `Retry-After` and the RateLimit fields, 503 when the store fails without `failOpen`), and the
 * fields on every answer given after it counted the request.
 */
export function quotaDescription(failOpen: boolean): MiddlewareDescription {
  const retryAfter: DescribedHeader = {
    name: 'Retry-After',
    description: 'Seconds until the next period starts',
    schema: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  }
  return {
    middleware: 'quota',
    responses: responsesOf(ANSWERS, { failOpen }, { 429: [retryAfter, ...FIELDS] }),
    headers: FIELDS.map((h) => ({ ...h, on: 'passed' as const })),
  }
}
