import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { BODY_METHODS } from '../internal/outcomes/described'
import { ANSWERS } from './answers'

/**
 * What `xssSanitize` adds to operations that take a body: its answers (`answers.ts`: 400 for
 * malformed or too deeply nested JSON).
 */
export const xssSanitizeDescription: MiddlewareDescription = {
  methods: [...BODY_METHODS],
  responses: responsesOf(ANSWERS, undefined),
}
