import type { Context, MiddlewareHandler } from 'hono'
import { appendSetCookie, type CookieSettings, getCookieCopies } from '../internal/cookies/cookie'
import {
  assertCookieName,
  assertCookieSettings,
  cookieOptions,
} from '../internal/cookies/cookie-settings'
import {
  assertSecretList,
  type CookieSigner,
  createCookieSigner,
  SESSION_BINDING,
  type SessionBinding,
} from '../internal/cookies/cookie-signing'
import { timingSafeEqual } from '../internal/crypto'
import { TOKEN as HTTP_TOKEN } from '../internal/http/header-syntax'
import { isJsonContentType, readBodyForm, readBodyText } from '../internal/http/json-body'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertStringArray,
  optionError,
} from '../internal/options'
import { begin, decide } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { type CsrfRejects, rejectOrRecord } from './answers'
import { csrfDescription } from './description'
import { originAllowed } from './origin'

/**
 * Options of {@link csrf}.
 *
 * @example
 * const options: CsrfOptions = {
 *   secret: process.env.CSRF_SECRET!,
 *   origins: ['https://app.example.com'],
 * }
 * app.use(csrf(options))
 */
export interface CsrfOptions {
  /** Cookie carrying the token. Default `'XSRF-TOKEN'`. */
  cookieName?: string
  /** Header the client echoes the token in. Default `'X-XSRF-Token'`. */
  headerName?: string
  /** Body field read when the header is absent (JSON, urlencoded, multipart). Default `'_csrf'`. */
  bodyField?: string
  /** Methods that are never checked. Default `['GET', 'HEAD', 'OPTIONS', 'QUERY']`. */
  safeMethods?: string[]
  /** Random token source. Default `crypto.randomUUID()`. */
  generateToken?: () => string
  /** Cookie attributes. Defaults: readable by scripts, `SameSite=Lax`, `Path=/`, `Secure` on https. */
  cookie?: CookieSettings
  /**
   * HMAC secret(s), at least 32 characters each: tokens become `<random>.<signature>` and a
   * cookie this server did not sign (one planted by a sibling subdomain, say) is rejected and
   * replaced. When `sessions()` runs before `csrf()`, the signature also covers the session ID,
   * so a token works only with the session it was issued to. First signs, all verify.
   */
  secret?: string | string[]
  /**
   * Allowed origins (`https://app.example.com`). An unsafe request whose `Origin` (or, without
   * one, `Referer`) is not listed is rejected before the token is looked at. Unset: the origin
   * must have the request's own host.
   */
  origins?: string[]
  /**
   * Report instead of refuse: an unsafe request without a valid token passes, and its decision
   * is `dry-run` (`csrf_token_invalid`). Default `false`.
   */
  dryRun?: boolean
}

const KNOWN = [
  'cookieName',
  'headerName',
  'bodyField',
  'safeMethods',
  'generateToken',
  'cookie',
  'secret',
  'origins',
  'dryRun',
] as const
/** Printable ASCII without separators: survives the cookie, `document.cookie` and a header. */
const TOKEN = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]{1,256}$/
/** Longer cookie or header values are not ours and are not compared. */
const MAX_TOKEN_LENGTH = 512

/**
 * CSRF protection in three layers, each checked on unsafe methods before the handler runs:
 *
 * 1. Fetch Metadata: `Sec-Fetch-Site: cross-site` is rejected unless the `Origin` is allowed.
 * 2. Origin: an `Origin` (or, without one, a `Referer`) must be allowed: listed in `origins`, or
 *    by default on the request's own host. Requests carrying neither go on to the token.
 * 3. Double-submit token: a random token is set as a cookie that scripts can read (on any request
 *    that lacks a valid one) and exposed as `c.get('csrfToken')`; the request must echo it in the
 *    `headerName` header or the `bodyField` field of a JSON, urlencoded or multipart body. The
 *    comparison is constant-time. With `secret`, tokens are signed (and bound to the session
 *    when `sessions()` runs first); every copy of the cookie is looked at, so a junk copy planted
 *    in front of ours (cookie tossing) cannot lock the user out.
 *
 * Any failure: 403 `Invalid CSRF token`. The body is read from a copy, so handlers can still
 * read it.
 *
 * @param options.cookieName default `'XSRF-TOKEN'`; `'__Host-XSRF-TOKEN'` recommended on https
 * @param options.headerName default `'X-XSRF-Token'`
 * @param options.bodyField default `'_csrf'`
 * @param options.safeMethods default `['GET', 'HEAD', 'OPTIONS', 'QUERY']`
 * @param options.generateToken default `crypto.randomUUID()`
 * @param options.secret unset; set it (32+ characters) to sign tokens
 * @param options.origins unset: same host as the request
 * @example
 * ```ts
 * app.use(sessions({ secret: process.env.SESSION_SECRET! }))
 * app.use(csrf({ secret: process.env.CSRF_SECRET!, origins: ['https://app.example.com'] }))
 * app.get('/form', (c) =>
 *   c.html(`<form method="post"><input type="hidden" name="_csrf" value="${c.get('csrfToken')}">…`),
 * )
 * ```
 */
export function csrf(options: CsrfOptions = {}): MiddlewareHandler & CsrfRejects {
  const factory = 'csrf'
  assertKnownKeys(factory, options, KNOWN)
  const dryRun = assertBoolean(factory, 'dryRun', options.dryRun ?? false)
  const cookieName = assertCookieName(factory, 'cookieName', options.cookieName ?? 'XSRF-TOKEN')
  const headerName = assertNonEmptyString(
    factory,
    'headerName',
    options.headerName ?? 'X-XSRF-Token',
  )
  if (!HTTP_TOKEN.test(headerName)) {
    throw optionError(factory, '"headerName" must be a valid header name')
  }
  // Lowercased once: Headers.get would lowercase the name on every request.
  const headerKey = headerName.toLowerCase()
  const bodyField = assertNonEmptyString(factory, 'bodyField', options.bodyField ?? '_csrf')
  const safeMethods = new Set(
    assertStringArray(
      factory,
      'safeMethods',
      options.safeMethods ?? ['GET', 'HEAD', 'OPTIONS', 'QUERY'],
    ).map((m) => m.toUpperCase()),
  )
  const generateToken =
    options.generateToken === undefined
      ? () => crypto.randomUUID()
      : assertFunction<() => string>(factory, 'generateToken', options.generateToken)
  const settings = assertCookieSettings(factory, cookieName, options.cookie, [
    'httpOnly',
    'secure',
    'sameSite',
    'path',
    'domain',
    'maxAge',
  ])
  let signer: CookieSigner | undefined
  if (options.secret !== undefined) {
    signer = createCookieSigner(assertSecretList(factory, options.secret), 'csrf')
  }
  let origins: Set<string> | undefined
  if (options.origins !== undefined) {
    origins = new Set(
      assertStringArray(factory, 'origins', options.origins, { allowEmpty: false }).map((o) => {
        let parsed: URL | undefined
        try {
          parsed = new URL(o)
        } catch {
          parsed = undefined
        }
        if (
          !parsed ||
          parsed.origin === 'null' ||
          parsed.origin !== o.replace(/\/$/, '').toLowerCase()
        ) {
          throw optionError(
            factory,
            `"origins" entries must be origins like "https://app.example.com", got ${JSON.stringify(o)}`,
          )
        }
        return parsed.origin
      }),
    )
  }

  /** Whether an unsafe request proves it comes from our pages (origin, then token). */
  const proven = async (c: Context, tokens: string[]): Promise<boolean> => {
    if (!originAllowed(c, origins) || tokens.length === 0) return false
    const sent = c.req.header(headerKey) || (await bodyToken(c, bodyField))
    if (!sent || sent.length > MAX_TOKEN_LENGTH) return false
    let match = false
    // Every copy is compared (no early exit), each in constant time.
    for (const token of tokens) match = timingSafeEqual(sent, token) || match
    return match
  }

  const newToken = async (binding: string): Promise<string> => {
    const raw = generateToken()
    if (typeof raw !== 'string' || !TOKEN.test(raw)) {
      throw new TypeError(
        'csrf: generateToken must return 1–256 printable ASCII characters without ";", ",", quotes, backslashes or spaces',
      )
    }
    return signer ? signer.sign(raw, binding) : raw
  }

  /**
   * Every copy of the cookie that is ours: signed by us for this session (with a secret), or
   * any well-formed value (without one; an attacker who can write cookies wins then anyway).
   */
  const signedTokens = async (copies: string[], binding: string): Promise<string[]> => {
    const out: string[] = []
    for (const copy of copies) {
      if (copy.length === 0 || copy.length > MAX_TOKEN_LENGTH) continue
      if ((await (signer as CookieSigner).unsign(copy, binding)) !== null) out.push(copy)
    }
    return out
  }
  const plainTokens = (copies: string[]): string[] =>
    copies.filter((copy) => copy.length > 0 && copy.length <= MAX_TOKEN_LENGTH)

  const description = csrfDescription(headerName, cookieName, safeMethods)
  return described(description, async function csrf(c, next) {
    const d = begin(c, factory)
    const session = signer
      ? (c.get(SESSION_BINDING as never) as SessionBinding | undefined)
      : undefined
    const binding = session ? session.current : ''
    // More copies than are examined (padding): ambiguous, treated as no token cookie.
    const copies = getCookieCopies(c, cookieName) ?? []
    // Without a secret there is nothing to await: the common path stays synchronous.
    const tokens =
      copies.length === 0
        ? copies
        : signer
          ? await signedTokens(copies, binding)
          : plainTokens(copies)

    const method = c.req.method
    if (safeMethods.has(method) || safeMethods.has(method.toUpperCase())) decide(d, 'skip')
    else if (await proven(c, tokens)) decide(d, 'allow')
    else rejectOrRecord(d, dryRun, 403, 'Invalid CSRF token', 'csrf_token_invalid')

    const cookieToken = tokens[0]
    const token = cookieToken ?? (await newToken(binding))
    c.set('csrfToken', token)
    await next()
    // After login (regenerate) or the first write of a session, the session ID changes: a token
    // bound to the old one would fail on the next request, so a token for the new ID is set now.
    const nextBinding = session ? session.next() : binding
    if (nextBinding !== binding) {
      setTokenCookie(c, await newToken(nextBinding))
    } else if (cookieToken === undefined) {
      setTokenCookie(c, token)
    }
  })

  function setTokenCookie(c: Context, token: string): void {
    appendSetCookie(
      c,
      cookieName,
      token,
      cookieOptions(c, cookieName, settings, { httpOnly: false }),
    )
  }
}

/** The token from the body field, for JSON, urlencoded and multipart bodies; else undefined. */
async function bodyToken(c: Context, field: string): Promise<string | undefined> {
  const type = c.req.header('content-type')
  if (isJsonContentType(type)) {
    const text = await readBodyText(c)
    if (!text) return undefined
    try {
      const body: unknown = JSON.parse(text)
      if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
        const value = Object.hasOwn(body, field)
          ? (body as Record<string, unknown>)[field]
          : undefined
        return typeof value === 'string' ? value : undefined
      }
    } catch {
      // Malformed JSON carries no token.
    }
    return undefined
  }
  const media = type?.split(';')[0]?.trim().toLowerCase()
  if (media !== 'application/x-www-form-urlencoded' && media !== 'multipart/form-data') {
    return undefined
  }
  const form = await readBodyForm(c)
  const value = form?.get(field)
  return typeof value === 'string' ? value : undefined
}
