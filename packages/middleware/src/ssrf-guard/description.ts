import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'

/**
 * What `ssrfGuard` adds: its answers (`answers.ts`: 400 for a URL that is not http(s), 403 for a
 * blocked destination).
 */
export const ssrfGuardDescription: MiddlewareDescription = {
  responses: responsesOf(ANSWERS, undefined),
}
