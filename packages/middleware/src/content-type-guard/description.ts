import type { MiddlewareDescription } from '@palisade/shared/describe'

/** What `contentTypeGuard` adds on its methods: the accepted request media types and 415. */
export function contentTypeGuardDescription(
  required: readonly string[],
  methods: ReadonlySet<string>,
): MiddlewareDescription {
  return {
    methods: [...methods],
    requestMediaTypes: required.map((t) => t.toLowerCase()),
    responses: [
      {
        status: 415,
        description: `Content-Type is not ${required.join(' or ')}`,
        codes: ['unsupported_media_type'],
      },
    ],
  }
}
