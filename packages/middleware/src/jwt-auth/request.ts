import type { Context, MiddlewareHandler } from 'hono'
import { getCookieCopies } from '../internal/cookies/cookie'
import { JwksUnavailableError } from '../internal/keys/jwks'
import { begin, decide } from '../internal/outcomes/decisions'
import { passOn } from '../internal/pass-on'
import { reject } from './answers'
import { bearerToken, INVALID_REQUEST, schemeToken, type TokenScheme } from './bearer'
import type { JwtAuthConfig } from './config'
import { challengesOf, dpopGate } from './dpop-request'
import type { JWTPayload } from './payload'
import { MAX_TOKEN_LENGTH, NO_EXP, type TokenVerifier, type Verdict } from './verifier'

// No double quote: it also goes into the challenge's quoted error_description (RFC 6750).
const MISSING_EXP_MESSAGE = 'The token has no exp (expiration time) claim, which is required'

/** The scopes a token grants: `scope` (space-separated) and `scp` (array or space-separated). */
export function tokenScopes(payload: JWTPayload): Set<string> {
  const out = new Set<string>()
  for (const value of [payload.scope, payload.scp]) {
    if (typeof value === 'string') {
      for (const s of value.split(' ')) if (s !== '') out.add(s)
    } else if (Array.isArray(value)) {
      for (const s of value) if (typeof s === 'string') out.add(s)
    }
  }
  return out
}

/**
 * The request path of one `jwtAuth`: the token (the Bearer header, else the cookie's copies),
 * its verdict from the verifier (from memory when it is known), the refusals with their
 * `WWW-Authenticate` challenge (RFC 6750), the scopes, and the payload handed to the handler.
 * Everything it reads is fixed at construction (`config`, `verifier`).
 */
export function jwtAuthHandler(config: JwtAuthConfig, verifier: TokenVerifier): MiddlewareHandler {
  const { cookieName, scopes, dpop } = config
  const retryAfter = String(Math.ceil(config.cacheSettings.cooldownMs / 1000))
  const challenges = challengesOf(config)
  // 'dpop' only with the dpop option (its challenge is then defined).
  const challengeOf = (scheme: TokenScheme) =>
    scheme === 'bearer' ? challenges.bearer : (challenges.dpop as string)
  function unauthorized(
    error?: 'invalid_token' | 'invalid_request',
    scheme: TokenScheme = 'bearer',
  ): never {
    reject(401, 'Unauthorized', error ? 'token_invalid' : 'token_missing', {
      'WWW-Authenticate': error ? `${challengeOf(scheme)}, error="${error}"` : challenges.missing,
    })
  }
  function expMissing(scheme: TokenScheme): never {
    reject(401, MISSING_EXP_MESSAGE, 'token_invalid', {
      'WWW-Authenticate': `${challengeOf(scheme)}, error="invalid_token", error_description="${MISSING_EXP_MESSAGE}"`,
    })
  }
  const scopeChallenge = (scheme: TokenScheme) =>
    `${challengeOf(scheme)}, error="insufficient_scope", scope="${scopes.join(' ')}"`
  const dpopCheck =
    dpop === undefined ? undefined : dpopGate(config, dpop, challenges.dpop as string)

  const full: MiddlewareHandler = async function jwtAuth(c, next) {
    const d = begin(c, 'jwtAuth')
    let token: string | undefined
    let scheme: TokenScheme = 'bearer'
    const authorization = c.req.header('authorization')
    if (authorization !== undefined) {
      let found = bearerToken(authorization)
      if (found === undefined && dpop !== undefined) {
        found = schemeToken(authorization, 'dpop')
        // Another scheme (Basic, …) is no token: a cookie's token is then answered as Bearer.
        if (found !== undefined) scheme = 'dpop'
      }
      if (found === INVALID_REQUEST) unauthorized('invalid_request', scheme)
      // DPoP required: a Bearer token is refused before any verify (RFC 9449 §7.1).
      if (found !== undefined && scheme === 'bearer' && dpop?.mode === 'required') {
        unauthorized('invalid_token', 'dpop')
      }
      token = found
    }
    let copies: string[] = []
    if (token === undefined) {
      const all = cookieName === undefined ? [] : getCookieCopies(c, cookieName)
      // More copies than are examined (padding): ambiguous, none is accepted.
      if (all === null) unauthorized('invalid_token')
      copies = all.filter((v) => v !== '')
      if (copies.length === 0) unauthorized()
    }
    let payload: Verdict
    try {
      if (token === undefined) payload = await fromCookies(verifier, copies, c)
      else if (token.length > MAX_TOKEN_LENGTH) payload = null
      else {
        // `verifier.verify` inlined: a remembered token costs no extra await.
        const known = verifier.remembered(token)
        payload = known !== undefined ? known : await verifier.verifyAnew(token, c)
      }
    } catch (err) {
      if (!(err instanceof JwksUnavailableError)) throw err
      // The cause goes to the operator (hook or warning, decision record), never to the client.
      verifier.keySetFailed(err, c)
      decide(d, 'reject', 'jwks_unavailable', 503)
      if (d !== undefined) d.decision.cause = err.message
      reject(503, 'Service Unavailable', 'jwks_unavailable', { 'Retry-After': retryAfter })
    }
    if (payload === null) unauthorized('invalid_token', scheme)
    if (payload === NO_EXP) expMissing(scheme)
    // The token that verified is the one a cookie or the header carried (a cookie's: Bearer,
    // `scheme` stays 'bearer' without a DPoP header token).
    const after =
      dpopCheck === undefined ? undefined : await dpopCheck(c, d, token ?? '', scheme, payload)
    if (scopes.length > 0) {
      const granted = tokenScopes(payload)
      if (!scopes.every((s) => granted.has(s))) {
        reject(403, 'Forbidden', 'insufficient_scope', {
          'WWW-Authenticate': scopeChallenge(scheme),
        })
      }
    }
    c.set('jwtPayload', payload)
    decide(d, 'allow')
    await next()
    // Nothing to do after the handler but a fresh DPoP nonce.
    after?.()
  }

  // Not async on the common request: a Bearer token remembered from an earlier verify, valid
  // now, with the scopes asked for and no DPoP. Anything else (no header, another scheme, a
  // token not remembered or refused, a scope missing) takes the full path above from the start,
  // which reads the header again and gives every answer.
  return function jwtAuth(c, next) {
    if (dpop !== undefined) return full(c, next)
    const authorization = c.req.header('authorization')
    if (authorization === undefined) return full(c, next)
    const token = bearerToken(authorization)
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return full(c, next)
    const payload = verifier.remembered(token)
    if (payload === undefined || payload === null) return full(c, next)
    if (scopes.length > 0) {
      const granted = tokenScopes(payload)
      if (!scopes.every((s) => granted.has(s))) return full(c, next)
    }
    const d = begin(c, 'jwtAuth')
    c.set('jwtPayload', payload)
    decide(d, 'allow')
    return passOn(next)
  }
}

/**
 * Cookie tossing: a sibling subdomain can plant a second cookie of this name that the browser
 * sends first. Every copy (up to 8; more is a 401) is verified: junk in front is skipped, and
 * two different valid tokens (one may be the attacker's own) are ambiguous and accept neither.
 */
async function fromCookies(
  verifier: TokenVerifier,
  copies: string[],
  c: Context,
): Promise<Verdict> {
  let found: { token: string; payload: JWTPayload } | null = null
  let noExp = false
  for (const copy of copies) {
    if (found !== null && copy === found.token) continue
    const payload = await verifier.verify(copy, c)
    if (payload === NO_EXP) noExp = true
    if (payload === null || payload === NO_EXP) continue
    if (found !== null) return null
    found = { token: copy, payload }
  }
  if (found === null) return noExp ? NO_EXP : null
  return found.payload
}
