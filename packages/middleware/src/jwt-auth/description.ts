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
  /** The `dpop` option's mode; `undefined` without it. */
  dpopMode: 'required' | 'allowed' | undefined
  /** The proof algorithms DPoP accepts. */
  dpopAlgorithms: readonly string[]
}

/** The DPoP scheme (RFC 9449): an http scheme named `DPoP`, described for the explorer. */
function dpopScheme(d: JwtAuthDescribed, scopes: { scopes?: string[] }): DescribedScheme {
  return {
    name: 'dpopAuth',
    scheme: {
      type: 'http',
      // No bearerFormat: OpenAPI allows it only with the bearer scheme.
      scheme: 'DPoP',
      description: `A DPoP-bound access token (RFC 9449, OAuth 2.0 Demonstrating Proof of Possession): \`Authorization: DPoP <token>\` with a \`DPoP\` header holding a proof JWT (\`typ: dpop+jwt\`, signed with ${d.dpopAlgorithms.join(', ')} by the key the token's \`cnf.jkt\` names) for this method and URL, with \`ath\` the token's hash, a fresh \`iat\` and an unused \`jti\`.`,
    },
    ...scopes,
  }
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
  // the same token pasted by hand (an explorer's Authorize dialog cannot paste into OIDC). DPoP
  // required: the DPoP scheme alone (neither can carry a proof).
  const security: DescribedScheme[][] =
    d.dpopMode === 'required'
      ? [[dpopScheme(d, scopes)]]
      : d.openIdConnectUrl === undefined
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
  if (d.dpopMode === 'allowed') security.push([dpopScheme(d, scopes)])
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
  const challenge = {
    name: 'WWW-Authenticate',
    description:
      d.dpopMode === undefined
        ? 'The Bearer challenge (RFC 6750)'
        : `The ${d.dpopMode === 'required' ? 'DPoP challenge' : 'Bearer (RFC 6750) and DPoP challenges'} (RFC 9449 §7.1: \`DPoP algs="…"\`, with \`error\` invalid_token, invalid_dpop_proof or use_dpop_nonce)`,
  }
  const nonceHeader: DescribedHeader = {
    name: 'DPoP-Nonce',
    description: 'The nonce the next DPoP proof must carry (RFC 9449 §8)',
    schema: { type: 'string', pattern: '^[\\x21\\x23-\\x5b\\x5d-\\x7e]+$' },
  }
  const retryAfter: DescribedHeader = {
    name: 'Retry-After',
    description: 'Seconds to wait',
    schema: { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  }
  const responses = responsesOf(ANSWERS, d, {
    401: d.dpopNonce ? [challenge, nonceHeader] : [challenge],
    403: [challenge],
    503: [retryAfter],
  })
  return {
    middleware: 'jwtAuth',
    ...(d.cookieName === undefined ? {} : { cookieAuth: true }),
    security,
    responses,
    ...(d.dpopMode === undefined
      ? {}
      : {
          requestHeaders: [
            {
              name: 'DPoP',
              description:
                'A DPoP proof JWT for this request (RFC 9449 §4): required with Authorization: DPoP',
              required: d.dpopMode === 'required',
              schema: { type: 'string', maxLength: 4096 },
            },
          ],
          ...(d.dpopNonce ? { headers: [{ ...nonceHeader, on: 'success' as const }] } : {}),
        }),
  }
}
