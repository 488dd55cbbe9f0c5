import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'

/**
 * What `shield` adds to every operation it runs for (it reads the path, query and headers of
 * every method, and bodies): its answer (`answers.ts`: 403 `attack_detected`).
 */
export const shieldDescription: MiddlewareDescription = {
  middleware: 'shield',
  responses: responsesOf(ANSWERS, undefined),
}
