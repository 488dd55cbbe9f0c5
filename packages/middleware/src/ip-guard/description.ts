import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'

/** What `ipGuard` adds: its answers (`answers.ts`: 403 for a client address outside the rule). */
export const ipGuardDescription: MiddlewareDescription = {
  responses: responsesOf(ANSWERS, undefined),
}
