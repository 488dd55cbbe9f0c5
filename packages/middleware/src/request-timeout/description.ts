import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'

/** What `requestTimeout` adds: its answers (`answers.ts`: 408 when the chain is not done in `ms`). */
export function requestTimeoutDescription(ms: number): MiddlewareDescription {
  return { responses: responsesOf(ANSWERS, { ms }) }
}
