import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'

/**
 * What `concurrencyLimit` adds to an operation: its answers (`answers.ts`: 429
 * `concurrency_limited` with `Retry-After`, and 503 when a store that can fail is configured
 * without `failOpen`).
 */
export function concurrencyLimitDescription(
  sharedStore: boolean,
  failOpen: boolean,
): MiddlewareDescription {
  const retryAfter = {
    name: 'Retry-After',
    description: 'Seconds after which a retry may find a free slot',
    schema: { type: 'integer', minimum: 1 },
  } as const
  return {
    middleware: 'concurrencyLimit',
    responses: responsesOf(ANSWERS, { storeCanFail: sharedStore, failOpen }, { 429: [retryAfter] }),
  }
}
