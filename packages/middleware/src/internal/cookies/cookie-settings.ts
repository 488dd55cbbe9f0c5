import type { Context } from 'hono'
import { TOKEN } from '../http/header-syntax'
import { assertBoolean, assertKnownKeys, assertNonNegativeInteger, optionError } from '../options'
import { type CookieOptions, type CookieSettings, isHttps } from './cookie'

/** RFC 6265 cookie names are HTTP tokens: the same grammar as header names. */
const COOKIE_NAME = TOKEN
/** Characters that would end or split a cookie attribute. */
const ATTRIBUTE_UNSAFE = /[;\r\n,\s]/
/** Browsers cap cookie lifetimes at 400 days; Hono's serializer throws beyond it. */
export const MAX_COOKIE_AGE = 34_560_000

/** Validates a cookie name at construction, so a bad one never throws on a request. */
export function assertCookieName(factory: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || !COOKIE_NAME.test(value)) {
    throw optionError(factory, `"${name}" must be a valid cookie name (RFC 6265 token)`)
  }
  return value
}

/**
 * Validates the user's `cookie` option (only the `allowed` keys) and the rules browsers and Hono
 * enforce: `SameSite=None` needs `Secure`; `__Host-` names need `Path=/` and no `Domain`.
 */
export function assertCookieSettings(
  factory: string,
  cookieName: string,
  value: unknown,
  allowed: readonly (keyof CookieSettings)[],
): CookieSettings {
  if (value === undefined) return {}
  assertKnownKeys(
    factory,
    value as object,
    allowed.map((k) => `${k}`),
  )
  const v = value as CookieSettings
  const out: CookieSettings = {}
  if (v.httpOnly !== undefined) out.httpOnly = assertBoolean(factory, 'cookie.httpOnly', v.httpOnly)
  if (v.secure !== undefined) out.secure = assertBoolean(factory, 'cookie.secure', v.secure)
  if (v.sameSite !== undefined) {
    const s = typeof v.sameSite === 'string' ? v.sameSite.toLowerCase() : ''
    if (s !== 'strict' && s !== 'lax' && s !== 'none') {
      throw optionError(factory, `"cookie.sameSite" must be 'Strict', 'Lax' or 'None'`)
    }
    out.sameSite = s === 'strict' ? 'Strict' : s === 'lax' ? 'Lax' : 'None'
    if (out.sameSite === 'None' && out.secure !== true) {
      throw optionError(factory, `"cookie.sameSite" 'None' requires "cookie.secure": true`)
    }
  }
  for (const key of ['path', 'domain'] as const) {
    const attr = v[key]
    if (attr === undefined) continue
    if (typeof attr !== 'string' || attr.length === 0 || ATTRIBUTE_UNSAFE.test(attr)) {
      throw optionError(
        factory,
        `"cookie.${key}" must be a non-empty string without ";", "," or spaces`,
      )
    }
    out[key] = attr
  }
  if (v.maxAge !== undefined) {
    const age = assertNonNegativeInteger(factory, 'cookie.maxAge', v.maxAge)
    if (age > MAX_COOKIE_AGE) {
      throw optionError(factory, `"cookie.maxAge" must be at most ${MAX_COOKIE_AGE} (400 days)`)
    }
    out.maxAge = age
  }
  if (/^__(secure|host)-/i.test(cookieName) && out.secure === false) {
    throw optionError(
      factory,
      `a "__Secure-" or "__Host-" cookie cannot set "cookie.secure": false`,
    )
  }
  if (/^__host-/i.test(cookieName)) {
    if ((out.path ?? '/') !== '/' || out.domain !== undefined) {
      throw optionError(factory, `a "__Host-" cookie needs path "/" and no domain`)
    }
  }
  return out
}

/**
 * The per-request cookie attributes: the middleware's defaults, then the user's settings. `Secure`
 * follows the request scheme unless set explicitly, and is forced for `__Secure-`/`__Host-` names.
 */
export function cookieOptions(
  c: Context,
  cookieName: string,
  settings: CookieSettings,
  defaults: { httpOnly: boolean; maxAge?: number },
): CookieOptions {
  const secure =
    settings.secure ?? (isHttps(c) || /^__(secure|host)-/i.test(cookieName) ? true : undefined)
  const options: CookieOptions = {
    path: settings.path ?? '/',
    httpOnly: settings.httpOnly ?? defaults.httpOnly,
    sameSite: settings.sameSite ?? 'Lax',
  }
  if (secure) options.secure = true
  if (settings.domain !== undefined) options.domain = settings.domain
  const maxAge = settings.maxAge ?? defaults.maxAge
  if (maxAge !== undefined) options.maxAge = maxAge
  return options
}
