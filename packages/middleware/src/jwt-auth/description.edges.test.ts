// jwtAuth's self-description, whole (issue 37, point 7): what each option adds to it (schemes,
// scopes, the cookie, DPoP's request header, the answers of answers.ts that the options make
// possible, their headers), compared as a whole rather than piece by piece.
import { getMiddlewareDescription } from '@palisade/shared/describe'
import { beforeAll, describe, expect, it } from 'vitest'
import { MemoryNonceStore } from '../internal/stores/nonce-store'
import { type JwtAuthOptions, jwtAuth } from './jwt-auth'

const SECRET = 'a-test-secret-that-is-at-least-64-bytes-long-for-hs512-0123456789'
let publicKey: CryptoKey

beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  publicKey = pair.publicKey
})

const described = (options: JwtAuthOptions) => getMiddlewareDescription(jwtAuth(options))

const BEARER_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description:
    'A JWT in the Authorization header (`Bearer <token>`), verified as RFC8725 (JWT best current practices) asks: only the configured algorithms (never `none`) with keys of one source, `exp` and `nbf` enforced.',
}
const dpopScheme = (algs: string) => ({
  type: 'http',
  scheme: 'DPoP',
  description: `A DPoP-bound access token (RFC 9449, OAuth 2.0 Demonstrating Proof of Possession): \`Authorization: DPoP <token>\` with a \`DPoP\` header holding a proof JWT (\`typ: dpop+jwt\`, signed with ${algs} by the key the token's \`cnf.jkt\` names) for this method and URL, with \`ath\` the token's hash, a fresh \`iat\` and an unused \`jti\`.`,
})
const BEARER_CHALLENGE = {
  name: 'WWW-Authenticate',
  description: 'The Bearer challenge (RFC 6750)',
}
const dpopChallenge = (which: string) => ({
  name: 'WWW-Authenticate',
  description: `The ${which} (RFC 9449 §7.1: \`DPoP algs="…"\`, with \`error\` invalid_token, invalid_dpop_proof or use_dpop_nonce)`,
})
const NONCE_HEADER = {
  name: 'DPoP-Nonce',
  description: 'The nonce the next DPoP proof must carry (RFC 9449 §8)',
  schema: { type: 'string', pattern: '^[\\x21\\x23-\\x5b\\x5d-\\x7e]+$' },
}
const RETRY_AFTER = {
  name: 'Retry-After',
  description: 'Seconds to wait',
  schema: { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
}
const dpopHeader = (required: boolean) => ({
  name: 'DPoP',
  description: 'A DPoP proof JWT for this request (RFC 9449 §4): required with Authorization: DPoP',
  required,
  schema: { type: 'string', maxLength: 4096 },
})
const MISSING_OR_INVALID =
  'Missing bearer token, or invalid bearer token (malformed, bad signature, expired, …)'
const DPOP_PROOF =
  'missing or invalid DPoP proof (RFC 9449: malformed, bad signature, another method or URL, too old, replayed, or not for this token)'
const NONCE = 'the DPoP proof must carry the nonce sent in the DPoP-Nonce header'
const JWKS = 'The signing keys (JWKS) cannot be fetched and no cached keys are left'
const STORE = 'The DPoP replay store (nonce store) is unavailable'

describe('jwtAuth: its self-description, whole', () => {
  it('a secret: the bearer scheme and the two 401s', () => {
    expect(described({ secret: SECRET })).toEqual({
      middleware: 'jwtAuth',
      security: [[{ name: 'bearerAuth', scheme: BEARER_SCHEME }]],
      responses: [
        {
          status: 401,
          description: MISSING_OR_INVALID,
          codes: ['token_missing', 'token_invalid'],
          headers: [BEARER_CHALLENGE],
        },
      ],
    })
  })

  it('a cookie and scopes: the cookie scheme beside bearer, both with the scopes; 403', () => {
    expect(described({ secret: SECRET, cookie: 'at', scopes: ['read', 'write:x'] })).toEqual({
      middleware: 'jwtAuth',
      cookieAuth: true,
      security: [
        [{ name: 'bearerAuth', scheme: BEARER_SCHEME, scopes: ['read', 'write:x'] }],
        [
          {
            name: 'jwtCookie',
            scheme: {
              type: 'apiKey',
              in: 'cookie',
              name: 'at',
              description: 'The JWT in a cookie',
            },
            scopes: ['read', 'write:x'],
          },
        ],
      ],
      responses: [
        {
          status: 401,
          description: MISSING_OR_INVALID,
          codes: ['token_missing', 'token_invalid'],
          headers: [BEARER_CHALLENGE],
        },
        {
          status: 403,
          description: 'The token lacks a required scope (read write:x)',
          codes: ['insufficient_scope'],
          headers: [BEARER_CHALLENGE],
        },
      ],
    })
  })

  it('a JWKS URL: 503 jwks_unavailable with Retry-After', () => {
    expect(described({ jwks: 'https://keys.example/jwks.json' })?.responses).toEqual([
      {
        status: 401,
        description: MISSING_OR_INVALID,
        codes: ['token_missing', 'token_invalid'],
        headers: [BEARER_CHALLENGE],
      },
      { status: 503, description: JWKS, codes: ['jwks_unavailable'], headers: [RETRY_AFTER] },
    ])
    // A JWKS object is fetched from nowhere: no 503.
    expect(described({ jwks: { keys: [] } })?.responses?.map((r) => r.status)).toEqual([401])
  })

  it('discovery with dpop "allowed": OpenID Connect, bearer and DPoP, each a choice of its own', () => {
    const d = described({
      issuer: 'https://id.example',
      discovery: true,
      scopes: ['s'],
      dpop: { mode: 'allowed', algorithms: ['ES256', 'EdDSA'] },
    })
    expect(d).toEqual({
      middleware: 'jwtAuth',
      security: [
        [
          {
            name: 'openIdConnect',
            scheme: {
              type: 'openIdConnect',
              openIdConnectUrl: 'https://id.example/.well-known/openid-configuration',
            },
            scopes: ['s'],
          },
        ],
        [{ name: 'bearerAuth', scheme: BEARER_SCHEME, scopes: ['s'] }],
        [{ name: 'dpopAuth', scheme: dpopScheme('ES256, EdDSA'), scopes: ['s'] }],
      ],
      responses: [
        {
          status: 401,
          description: `${MISSING_OR_INVALID}, or ${DPOP_PROOF}`,
          codes: ['token_missing', 'token_invalid', 'invalid_dpop_proof'],
          headers: [dpopChallenge('Bearer (RFC 6750) and DPoP challenges')],
        },
        {
          status: 403,
          description: 'The token lacks a required scope (s)',
          codes: ['insufficient_scope'],
          headers: [dpopChallenge('Bearer (RFC 6750) and DPoP challenges')],
        },
        { status: 503, description: JWKS, codes: ['jwks_unavailable'], headers: [RETRY_AFTER] },
      ],
      requestHeaders: [dpopHeader(false)],
    })
  })

  it('dpop "required" with nonces and a shared store: the DPoP scheme alone, every DPoP answer', () => {
    const d = described({
      jwks: 'https://keys.example/jwks.json',
      dpop: { mode: 'required', nonce: {}, nonceStore: { claim: async () => true } },
    })
    expect(d).toEqual({
      middleware: 'jwtAuth',
      security: [[{ name: 'dpopAuth', scheme: dpopScheme('ES256, EdDSA, PS256, RS256') }]],
      responses: [
        {
          status: 401,
          description: `${MISSING_OR_INVALID}, or ${DPOP_PROOF}, or ${NONCE}`,
          codes: ['token_missing', 'token_invalid', 'invalid_dpop_proof', 'use_dpop_nonce'],
          headers: [dpopChallenge('DPoP challenge'), NONCE_HEADER],
        },
        {
          status: 503,
          description: `${JWKS}, or the DPoP replay store (nonce store) is unavailable`,
          codes: ['jwks_unavailable', 'store_unavailable'],
          headers: [RETRY_AFTER],
        },
      ],
      requestHeaders: [dpopHeader(true)],
      headers: [{ ...NONCE_HEADER, on: 'success' }],
    })
  })

  it('a shared store alone brings 503 store_unavailable; a memory store does not', () => {
    const shared = described({
      publicKey,
      dpop: { mode: 'allowed', nonceStore: { claim: async () => true } },
    })
    expect(shared?.responses?.find((r) => r.status === 503)).toEqual({
      status: 503,
      description: STORE,
      codes: ['store_unavailable'],
      headers: [RETRY_AFTER],
    })
    for (const nonceStore of [new MemoryNonceStore(), undefined]) {
      const memory = described({ publicKey, dpop: { mode: 'allowed', nonceStore } })
      expect(memory?.responses?.map((r) => r.status)).toEqual([401])
      expect(memory?.headers).toBeUndefined()
      expect(memory?.responses?.[0]?.headers).toEqual([
        dpopChallenge('Bearer (RFC 6750) and DPoP challenges'),
      ])
    }
  })

  it('a cookie with dpop "allowed": bearer, DPoP, then the cookie', () => {
    const d = described({ publicKey, cookie: 'at', dpop: 'allowed' })
    expect(d?.cookieAuth).toBe(true)
    expect(d?.security?.map((s) => s.map((x) => x.name))).toEqual([
      ['bearerAuth'],
      ['dpopAuth'],
      ['jwtCookie'],
    ])
  })
})
