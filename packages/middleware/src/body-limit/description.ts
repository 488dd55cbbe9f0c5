import type { MiddlewareDescription } from '@palisade/shared/describe'
import { BODY_METHODS } from '../internal/described'

/** What `bodyLimit` adds to operations that take a body: 413 above `max` bytes. */
export function bodyLimitDescription(max: number): MiddlewareDescription {
  return {
    methods: [...BODY_METHODS],
    responses: [
      {
        status: 413,
        description: `Request body larger than ${max} bytes`,
        codes: ['body_too_large'],
      },
    ],
  }
}
