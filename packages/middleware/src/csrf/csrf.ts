import type { Context, MiddlewareHandler } from 'hono'
import { appendSetCookie, type CookieSettings, getCookie } from '../internal/cookie'
import { assertCookieName, assertCookieSettings, cookieOptions } from '../internal/cookie-settings'
import { assertSecretList, createCookieSigner } from '../internal/cookie-signing'
import { timingSafeEqual } from '../internal/crypto'
import { described } from '../internal/described'
import { TOKEN as HTTP_TOKEN } from '../internal/headers'
import { isJsonContentType, readBodyForm, readBodyText } from '../internal/json-body'
import {
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertStringArray,
  optionError,
} from '../internal/options'
import { reject } from '../internal/reject'
import { csrfDescription } from './description'

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
   * HMAC secret(s): tokens become `<random>.<signature>` and a cookie this server did not sign
   * (one planted by a sibling subdomain, say) is rejected and replaced. First signs, all verify.
   */
  secret?: string | string[]
  /**
   * Allowed origins (`https://app.example.com`). When set, an unsafe request whose `Origin` (or,
   * without one, `Referer`) is not listed is rejected before the token is looked at.
   */
  origins?: string[]
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
] as const
/** Printable ASCII without separators: survives the cookie, `document.cookie` and a header. */
const TOKEN = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]{1,256}$/
/** Longer cookie or header values are not ours and are not compared. */
const MAX_TOKEN_LENGTH = 512

/**
 * Double-submit-cookie CSRF protection, no server-side state. A random token is set as a cookie
 * that scripts can read (set on any request that lacks a valid one) and exposed as
 * `c.get('csrfToken')`. Requests with an unsafe method must echo it in the `headerName` header or
 * the `bodyField` field of a JSON, urlencoded or multipart body; the comparison is constant-time.
 * Otherwise: 403 `Invalid CSRF token`. The body is read from a copy, so handlers can still read it.
 *
 * @param options.cookieName default `'XSRF-TOKEN'`
 * @param options.headerName default `'X-XSRF-Token'`
 * @param options.bodyField default `'_csrf'`
 * @param options.safeMethods default `['GET', 'HEAD', 'OPTIONS', 'QUERY']`
 * @param options.generateToken default `crypto.randomUUID()`
 * @param options.secret unset; set it to sign tokens
 * @param options.origins unset; set it to also check `Origin`
 * @example
 * ```ts
 * app.use(csrf({ secret: process.env.CSRF_SECRET!, origins: ['https://app.example.com'] }))
 * app.get('/form', (c) =>
 *   c.html(`<form method="post"><input type="hidden" name="_csrf" value="${c.get('csrfToken')}">…`),
 * )
 * ```
 */
export function csrf(options: CsrfOptions = {}): MiddlewareHandler {
  const factory = 'csrf'
  assertKnownKeys(factory, options, KNOWN)
  const cookieName = assertCookieName(factory, 'cookieName', options.cookieName ?? 'XSRF-TOKEN')
  const headerName = assertNonEmptyString(
    factory,
    'headerName',
    options.headerName ?? 'X-XSRF-Token',
  )
  if (!HTTP_TOKEN.test(headerName)) {
    throw optionError(factory, '"headerName" must be a valid header name')
  }
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
  let signer: ReturnType<typeof createCookieSigner> | undefined
  if (options.secret !== undefined) {
    signer = createCookieSigner(assertSecretList(factory, options.secret))
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

  function invalid(): never {
    reject(403, 'Invalid CSRF token', 'csrf_token_invalid')
  }

  const newToken = async (): Promise<string> => {
    const raw = generateToken()
    if (typeof raw !== 'string' || !TOKEN.test(raw)) {
      throw new TypeError(
        'csrf: generateToken must return 1–256 printable ASCII characters without ";", ",", quotes, backslashes or spaces',
      )
    }
    return signer ? signer.sign(raw) : raw
  }

  const isOurs = async (token: string): Promise<boolean> =>
    signer ? (await signer.unsign(token)) !== null : true

  const description = csrfDescription(headerName, cookieName, safeMethods)
  return described(description, async function csrf(c, next) {
    let cookieToken = getCookie(c, cookieName) || undefined
    if (
      cookieToken !== undefined &&
      (cookieToken.length > MAX_TOKEN_LENGTH || !(await isOurs(cookieToken)))
    ) {
      cookieToken = undefined
    }

    if (!safeMethods.has(c.req.method.toUpperCase())) {
      if (origins && !originAllowed(c, origins)) invalid()
      if (cookieToken === undefined) invalid()
      const sent = c.req.header(headerName) || (await bodyToken(c, bodyField))
      if (!sent || sent.length > MAX_TOKEN_LENGTH || !timingSafeEqual(sent, cookieToken)) invalid()
    }

    const token = cookieToken ?? (await newToken())
    c.set('csrfToken', token)
    await next()
    if (cookieToken === undefined) {
      appendSetCookie(
        c,
        cookieName,
        token,
        cookieOptions(c, cookieName, settings, { httpOnly: false }),
      )
    }
  })
}

/**
 * `Origin` must be listed. Without `Origin`, the `Referer`'s origin must be. With neither (a
 * non-browser client, or a browser that strips both), the token check alone decides.
 */
function originAllowed(c: Context, origins: Set<string>): boolean {
  const origin = c.req.header('origin')
  if (origin !== undefined) return origins.has(origin.toLowerCase())
  const referer = c.req.header('referer')
  if (referer === undefined) return true
  try {
    return origins.has(new URL(referer).origin)
  } catch {
    return false
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
