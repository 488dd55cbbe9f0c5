import type {
  DescribedHeader,
  DescribedScheme,
  MiddlewareDescription,
} from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS, type JwtAuthSetup } from './answers'

/** What shapes the description of one `jwtAuth` instance. */
export interface JwtAuthDescribed extends JwtAuthSetup {
  cookieName: string | undefined
  /** With `discovery`: the OpenID configuration URL of the issuer. */
  openIdConnectUrl: string | undefined
}

/**
 * What `jwtAuth` adds: an OpenID Connect scheme (with discovery) or a bearer JWT scheme, the
 * cookie when configured, the required scopes, and the answers of its table (`answers.ts`) that
 * its options make possible.
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
  const retryAfter: DescribedHeader = {
    name: 'Retry-After',
    description: 'Seconds to wait',
    schema: { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  }
  const responses = responsesOf(ANSWERS, d, {
    401: [challenge],
    403: [challenge],
    503: [retryAfter],
  })
  return {
    middleware: 'jwtAuth',
    ...(d.cookieName === undefined ? {} : { cookieAuth: true }),
    security,
    responses,
  }
}
