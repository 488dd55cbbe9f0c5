import type { MiddlewareDescription } from '@palisade/shared/describe'

/** What `ssrfGuard` adds: 400 for a URL that is not http(s), 403 for a blocked destination. */
export const ssrfGuardDescription: MiddlewareDescription = {
  responses: [
    { status: 400, description: 'Invalid URL (not http or https)', codes: ['url_invalid'] },
    {
      status: 403,
      description: 'The URL points to a private, loopback or metadata address',
      codes: ['url_forbidden'],
    },
  ],
}
