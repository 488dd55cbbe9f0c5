import type { MiddlewareDescription } from '@palisade/shared/describe'
import { BODY_METHODS } from '../internal/described'

/** What `xssSanitize` adds to operations that take a body: 400 for malformed JSON. */
export const xssSanitizeDescription: MiddlewareDescription = {
  methods: [...BODY_METHODS],
  responses: [
    {
      status: 400,
      description: 'Malformed JSON body, or nested too deeply',
      codes: ['malformed_body', 'body_too_deep'],
    },
  ],
}
