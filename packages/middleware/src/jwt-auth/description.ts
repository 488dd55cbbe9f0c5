import type { DescribedScheme, MiddlewareDescription } from '@palisade/shared/describe'

/** What `jwtAuth` adds: a bearer JWT scheme (or its cookie, when configured) and 401. */
export function jwtAuthDescription(cookieName: string | undefined): MiddlewareDescription {
  const security: DescribedScheme[][] = [
    [{ name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }],
  ]
  if (cookieName !== undefined) {
    security.push([
      {
        name: 'jwtCookie',
        scheme: {
          type: 'apiKey',
          in: 'cookie',
          name: cookieName,
          description: 'The JWT in a cookie',
        },
      },
    ])
  }
  return {
    security,
    responses: [
      {
        status: 401,
        description: 'Missing or invalid bearer token',
        codes: ['token_missing', 'token_invalid'],
        headers: [{ name: 'WWW-Authenticate', description: 'The Bearer challenge (RFC 6750)' }],
      },
    ],
  }
}
