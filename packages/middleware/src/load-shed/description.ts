import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'

/** What `loadShed` adds to an operation: 503 `overloaded` with `Retry-After` (`answers.ts`). */
export function loadShedDescription(): MiddlewareDescription {
  const retryAfter = {
    name: 'Retry-After',
    description: 'Seconds after which the server expects to accept requests again',
    schema: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  } as const
  return {
    middleware: 'loadShed',
    responses: responsesOf(ANSWERS, undefined, { 503: [retryAfter] }),
  }
}
