import type { Context, MiddlewareHandler } from 'hono'
import { appendSetCookie, getCookieCopies } from '../internal/cookies/cookie'
import { cookieOptions } from '../internal/cookies/cookie-settings'
import { SESSION_BINDING, type SessionBinding } from '../internal/cookies/cookie-signing'
import { begin, decide, type Pending } from '../internal/outcomes/decisions'
import { passOn } from '../internal/pass-on'
import { rejectOrRecord } from './answers'
import { bodyToken } from './body-token'
import { type CsrfConfig, FACTORY } from './config'
import { originAllowed } from './origin'
import { MAX_TOKEN_LENGTH, matchesAny, newToken, plainTokens, signedTokens } from './token'

/**
 * The request path of `csrf`: find our token cookie, check an unsafe request (origin, then
 * token), hand the token to the handler, and set a new cookie when there was none or the
 * session changed.
 */
export function csrfHandler(config: CsrfConfig): MiddlewareHandler {
  const { cookieName, headerKey, bodyField, safeMethods, signer, origins, dryRun } = config

  /** Whether an unsafe request proves it comes from our pages (origin, then token). */
  const proven = async (c: Context, tokens: string[]): Promise<boolean> => {
    if (!originAllowed(c, origins) || tokens.length === 0) return false
    const sent = c.req.header(headerKey) || (await bodyToken(c, bodyField))
    if (!sent || sent.length > MAX_TOKEN_LENGTH) return false
    return matchesAny(sent, tokens)
  }

  const setTokenCookie = (c: Context, token: string): void => {
    appendSetCookie(
      c,
      cookieName,
      token,
      cookieOptions(c, cookieName, config.settings, { httpOnly: false }),
    )
  }

  const isSafe = (method: string): boolean =>
    safeMethods.has(method) || safeMethods.has(method.toUpperCase())

  /** Checks, hands over the token, and sets a cookie after the handler when one is due. */
  const check = async (
    c: Context,
    next: () => Promise<void>,
    d: Pending | undefined,
    session: SessionBinding | undefined,
    binding: string,
    tokens: string[],
  ): Promise<void> => {
    if (isSafe(c.req.method)) decide(d, 'skip')
    else if (await proven(c, tokens)) decide(d, 'allow')
    else rejectOrRecord(d, dryRun, 403, 'Invalid CSRF token', 'csrf_token_invalid')

    const cookieToken = tokens[0]
    const token = cookieToken ?? (await newToken(config.generateToken, signer, binding))
    c.set('csrfToken', token)
    await next()
    // After login (regenerate) or the first write of a session, the session ID changes: a token
    // bound to the old one would fail on the next request, so a token for the new ID is set now.
    const nextBinding = session ? session.next() : binding
    if (nextBinding !== binding) {
      setTokenCookie(c, await newToken(config.generateToken, signer, nextBinding))
    } else if (cookieToken === undefined) {
      setTokenCookie(c, token)
    }
  }

  // Not async: the common request (no secret, a safe method, the token cookie already there) has
  // nothing to check, await or set after the handler, so it passes on the chain's own promise.
  return function csrf(c, next) {
    const d = begin(c, FACTORY)
    const session = signer
      ? (c.get(SESSION_BINDING as never) as SessionBinding | undefined)
      : undefined
    const binding = session ? session.current : ''
    // More copies than are examined (padding): ambiguous, treated as no token cookie.
    const copies = getCookieCopies(c, cookieName) ?? []
    if (copies.length === 0) return check(c, next, d, session, binding, copies)
    if (signer) {
      return signedTokens(signer, copies, binding).then((tokens) =>
        check(c, next, d, session, binding, tokens),
      )
    }
    const tokens = plainTokens(copies)
    const cookieToken = tokens[0]
    if (cookieToken === undefined || !isSafe(c.req.method)) {
      return check(c, next, d, session, binding, tokens)
    }
    decide(d, 'skip')
    c.set('csrfToken', cookieToken)
    return passOn(next)
  }
}
