import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'

/**
 * What `contentTypeGuard` adds on its methods: the accepted request media types and its answers
 * (`answers.ts`: 415).
 */
export function contentTypeGuardDescription(
  required: readonly string[],
  methods: ReadonlySet<string>,
): MiddlewareDescription {
  return {
    methods: [...methods],
    requestMediaTypes: required.map((t) => t.toLowerCase()),
    responses: responsesOf(ANSWERS, { required }),
  }
}
