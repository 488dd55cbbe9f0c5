import type { MiddlewareDescription } from '@palisade/shared/describe'
import { methodsExcept } from '../internal/described'

/**
 * What `csrf` adds to operations with an unsafe method: the token header as an apiKey scheme (so
 * an explorer's Authorize can send it; the cookie travels by itself) and 403.
 */
export function csrfDescription(
  headerName: string,
  cookieName: string,
  safeMethods: ReadonlySet<string>,
): MiddlewareDescription {
  return {
    methods: methodsExcept(safeMethods),
    security: [
      [
        {
          name: 'csrfToken',
          scheme: {
            type: 'apiKey',
            in: 'header',
            name: headerName,
            description: `The value of the ${cookieName} cookie (double submit)`,
          },
        },
      ],
    ],
    responses: [{ status: 403, description: 'Invalid CSRF token', codes: ['csrf_token_invalid'] }],
  }
}
