import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { BODY_METHODS } from '../internal/outcomes/described'
import { ANSWERS } from './answers'

/**
 * What `bodyLimit` adds to operations that take a body: its answers (`answers.ts`: 413 above
 * `max` bytes, 400 for a body that is not what its Content-Length says or that breaks off).
 */
export function bodyLimitDescription(max: number): MiddlewareDescription {
  return {
    middleware: 'bodyLimit',
    methods: [...BODY_METHODS],
    responses: responsesOf(ANSWERS, { max }),
  }
}
