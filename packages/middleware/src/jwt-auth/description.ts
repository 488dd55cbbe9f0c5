import type {
  DescribedResponse,
  DescribedScheme,
  MiddlewareDescription,
} from '@palisade/shared/describe'

/** What shapes the description of one `jwtAuth` instance. */
export interface JwtAuthDescribed {
  cookieName: string | undefined
  /** Required scopes, listed in the security requirement. */
  scopes: string[]
  /** The keys come from a remote JWKS, so a 503 `jwks_unavailable` can answer. */
  remote: boolean
  /** With `discovery`: the OpenID configuration URL of the issuer. */
  openIdConnectUrl: string | undefined
}

/**
 * What `jwtAuth` adds: an OpenID Connect scheme (with discovery) or a bearer JWT scheme, the
 * cookie when configured, the required scopes, 401, and 403 / 503 where they can happen.
 */
export function jwtAuthDescription(d: JwtAuthDescribed): MiddlewareDescription {
  const scopes = d.scopes.length > 0 ? { scopes: [...d.scopes] } : {}
  const bearer: DescribedScheme = {
    name: 'bearerAuth',
    scheme: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'A JWT in the Authorization header (`Bearer <token>`), verified as RFC8725 (JWT best current practices) asks: only the configured algorithms (never `none`) with keys of one source, `exp` and `nbf` enforced.',
    },
    ...scopes,
  }
  // With discovery the issuer's OpenID configuration is the scheme; the bearer alternative is
  // the same token pasted by hand (an explorer's Authorize dialog cannot paste into OIDC).
  const security: DescribedScheme[][] =
    d.openIdConnectUrl === undefined
      ? [[bearer]]
      : [
          [
            {
              name: 'openIdConnect',
              scheme: { type: 'openIdConnect', openIdConnectUrl: d.openIdConnectUrl },
              ...scopes,
            },
          ],
          [bearer],
        ]
  if (d.cookieName !== undefined) {
    security.push([
      {
        name: 'jwtCookie',
        scheme: {
          type: 'apiKey',
          in: 'cookie',
          name: d.cookieName,
          description: 'The JWT in a cookie',
        },
        ...scopes,
      },
    ])
  }
  const challenge = { name: 'WWW-Authenticate', description: 'The Bearer challenge (RFC 6750)' }
  const responses: DescribedResponse[] = [
    {
      status: 401,
      description: 'Missing or invalid bearer token',
      codes: ['token_missing', 'token_invalid'],
      headers: [challenge],
    },
  ]
  if (d.scopes.length > 0) {
    responses.push({
      status: 403,
      description: `The token lacks a required scope (${d.scopes.join(' ')})`,
      codes: ['insufficient_scope'],
      headers: [challenge],
    })
  }
  if (d.remote) {
    responses.push({
      status: 503,
      description: 'The signing keys (JWKS) cannot be fetched and no cached keys are left',
      codes: ['jwks_unavailable'],
      headers: [
        {
          name: 'Retry-After',
          description: 'Seconds to wait',
          schema: {
            type: 'integer',
            format: 'int64',
            minimum: 0,
            maximum: Number.MAX_SAFE_INTEGER,
          },
        },
      ],
    })
  }
  return {
    middleware: 'jwtAuth',
    ...(d.cookieName === undefined ? {} : { cookieAuth: true }),
    security,
    responses,
  }
}
