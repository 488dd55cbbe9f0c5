import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'

/** What `botGuard` adds: its answers (`answers.ts`: 403 for a bot of a denied category). */
export const botGuardDescription: MiddlewareDescription = {
  responses: responsesOf(ANSWERS, undefined),
}
