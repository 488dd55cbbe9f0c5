import type { Context } from 'hono'
import { generateCookie } from 'hono/cookie'
import type { CookieOptions } from 'hono/utils/cookie'
import { tryDecodeURIComponent } from 'hono/utils/url'
import { editResponseHeaders } from './headers'

export { deleteCookie, getCookie, setCookie } from 'hono/cookie'
export type { CookieOptions }

/**
 * `setCookie` for use after `next()`: the same serialisation as hono/cookie (its
 * `generateCookie`), appended to the finished response in place. Hono's `c.header()` on a
 * finished response rebuilds the Response, which turns a string body into a stream.
 */
export function appendSetCookie(
  c: Context,
  name: string,
  value: string,
  options?: CookieOptions,
): void {
  const cookie = generateCookie(name, value, options)
  editResponseHeaders(c, (h) => h.append('Set-Cookie', cookie))
}

/** `deleteCookie` for use after `next()`: an empty value with `Max-Age=0`, appended in place. */
export function appendDeleteCookie(c: Context, name: string, options?: CookieOptions): void {
  appendSetCookie(c, name, '', { ...options, maxAge: 0 })
}

/** Hono's rule for a cookie value it accepts (RFC 6265 cookie-octets plus space and comma). */
const COOKIE_VALUE = /^[ !#-:<-[\]-~]*$/

/**
 * Every copy of the cookie `name` the request carries, in header order, decoded as hono/cookie's
 * `getCookie` decodes the first one (quotes stripped, percent-decoding, invalid values skipped).
 * At most `limit` copies are returned.
 *
 * Why: browsers send every cookie whose domain and path match, so a sibling subdomain can plant
 * a second `sid` that sorts first (cookie tossing). `getCookie` returns only that first copy;
 * sessions and csrf look at all of them and pick the one they can verify.
 */
export function getCookieValues(c: Context, name: string, limit = 8): string[] {
  const header = c.req.header('cookie')
  const out: string[] = []
  if (header === undefined) return out
  // A scan with indexOf, no split and no regex per pair: this runs on every request.
  let from = 0
  while (out.length < limit) {
    const at = header.indexOf(name, from)
    if (at === -1) break
    from = at + name.length
    // The name must be a whole pair name: after the start or a ';' (spaces and tabs allowed
    // around it), and followed by optional spaces and '='.
    let before = at - 1
    while (before >= 0 && isSpace(header.charCodeAt(before))) before--
    if (before >= 0 && header.charCodeAt(before) !== 59 /* ; */) continue
    let eq = from
    while (eq < header.length && isSpace(header.charCodeAt(eq))) eq++
    if (header.charCodeAt(eq) !== 61 /* = */) continue
    let end = header.indexOf(';', eq + 1)
    if (end === -1) end = header.length
    from = end
    let start = eq + 1
    while (start < end && isSpace(header.charCodeAt(start))) start++
    let stop = end
    while (stop > start && isSpace(header.charCodeAt(stop - 1))) stop--
    let value = header.slice(start, stop)
    if (
      value.length >= 2 &&
      value.charCodeAt(0) === 34 &&
      value.charCodeAt(value.length - 1) === 34
    ) {
      value = value.slice(1, -1)
    }
    if (!COOKIE_VALUE.test(value)) continue
    out.push(value.includes('%') ? tryDecodeURIComponent(value) : value)
  }
  return out
}

/** Space or tab: the whitespace hono/cookie trims around names and values. */
function isSpace(code: number): boolean {
  return code === 32 || code === 9
}

/** Cookie options a user may set on `csrf` and `sessions`. */
export interface CookieSettings {
  httpOnly?: boolean
  secure?: boolean
  sameSite?: 'Strict' | 'Lax' | 'None'
  path?: string
  domain?: string
  maxAge?: number
}

/** True when the request URL is https (behind a TLS-terminating proxy, set `cookie.secure`). */
export function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:'
}
