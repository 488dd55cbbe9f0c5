import type { MiddlewareHandler } from 'hono'
import { described } from '../internal/outcomes/described'
import type { JwtAuthDpopRejects, JwtAuthRejects } from './answers'
import { type JwtAuthOptions, jwtAuthConfig } from './config'
import { jwtAuthDescription } from './description'
import { jwtAuthHandler } from './request'
import { TokenVerifier } from './verifier'

export type { JwtAuthOptions } from './config'

/**
 * Verifies a JWT and puts its payload in the context as `jwtPayload`: one pass over the compact
 * token and one WebCrypto verify (jose imports the keys and picks JWKS members). The key comes
 * from exactly one source: an HMAC `secret`, one `publicKey`, a `jwks` (URL or object), or the
 * `issuer`'s OpenID discovery document (`discovery: true`).
 *
 * The token is read from `Authorization: Bearer <token>` (scheme case-insensitive), else from the
 * `cookie` named in the options. Only `algorithms` are accepted (never `none`, never HMAC with a
 * public key or a public-key algorithm with a secret, and a JWKS key only for its own type,
 * `alg` and `use`); `exp` and `nbf` are enforced, `iat` must not lie in the future, and each of
 * the three, when present, must be a finite number (`1e400` is Infinity, rejected). A secret
 * shorter than the hash output of an allowed algorithm is refused at construction. Every failure
 * is a 401 `Unauthorized` with a `WWW-Authenticate: Bearer realm="…"` challenge, plus
 * `error="invalid_token"` when a token was sent (RFC 6750); a token without `exp` is refused
 * unless `requireExp: false`, with a message that says so; missing `scopes` are a 403
 * `insufficient_scope`; a JWKS that cannot be fetched (and has no stale keys left) is a 503
 * `jwks_unavailable`. Keys are imported (and a JWKS fetched) on first use, never at
 * construction. Up to 1,000 verified tokens are remembered per middleware (exact string),
 * with `exp`/`nbf` re-checked on every hit, so a returning token skips the WebCrypto verify;
 * apart from them, up to 1,000 tokens whose signature failed are refused from memory while the
 * key set is the one they failed under.
 *
 * @param options.secret HMAC secret; or `publicKey`, `jwks`, or `issuer` + `discovery: true`
 * @param options.algorithms default `['HS256']` with a secret, the key's own with `publicKey`,
 *   every public-key algorithm with a JWKS
 * @param options.jwksCache default `{ maxAgeMs: 600000, cooldownMs: 30000, maxStaleMs: 3600000,
 *   timeoutMs: 5000 }`
 * @param options.cookie unset: header only
 * @param options.realm default `'api'`
 * @param options.clockTolerance default `0` seconds, at most `300`
 * @param options.requireExp default `true`
 * @param options.maxTokenAge unset: no age limit
 * @param options.scopes default `[]`
 * @param options.dpop unset (Bearer only); `'required'`, `'allowed'` or `{ mode, nonceStore,
 *   maxAgeSeconds, algorithms, nonce, url }`: DPoP-bound tokens (RFC 9449) sent as
 *   `Authorization: DPoP <token>` with a `DPoP` proof (exactly one; `typ: dpop+jwt`, a public-key
 *   `alg`, the public `jwk`, `htm`/`htu` of this request, a fresh `iat`, an unused `jti`, `ath`
 *   of the token, the key the token's `cnf.jkt` names); a bound token sent as Bearer is refused;
 *   401 `invalid_dpop_proof`, `use_dpop_nonce` (with `DPoP-Nonce`), `c.get('dpop').jkt`
 * @example
 * ```ts
 * app.use('/api/*', jwtAuth({ secret: process.env.JWT_SECRET! }))
 * app.use(
 *   '/v1/*',
 *   jwtAuth({ issuer: 'https://tenant.auth0.com/', discovery: true, audience: 'https://api', scopes: ['read:items'] }),
 * )
 * app.get('/api/me', (c) => c.json({ sub: c.get('jwtPayload').sub }))
 * ```
 */
export function jwtAuth(
  options: JwtAuthOptions & { dpop?: undefined },
): MiddlewareHandler & JwtAuthRejects
export function jwtAuth(options: JwtAuthOptions): MiddlewareHandler & JwtAuthDpopRejects
export function jwtAuth(options: JwtAuthOptions): MiddlewareHandler & JwtAuthDpopRejects {
  // Options → frozen config (with its key source, see key-source.ts); the verifier (claim checks,
  // the verified and refused token caches); the request path that puts them together. Each is a
  // module of its own in this folder.
  const config = jwtAuthConfig(options)
  const verifier = new TokenVerifier(config)
  const description = jwtAuthDescription({
    cookieName: config.cookieName,
    scopes: config.scopes,
    remote: config.keys.remote,
    openIdConnectUrl: config.keys.openIdConnectUrl,
    dpop: config.dpop !== undefined,
    dpopMode: config.dpop?.mode,
    dpopAlgorithms: config.dpop?.algorithms ?? [],
    dpopNonce: config.dpop?.nonce !== undefined,
    storeCanFail: config.dpop?.storeCanFail === true,
  })
  return described(description, jwtAuthHandler(config, verifier)) as MiddlewareHandler &
    JwtAuthDpopRejects
}
