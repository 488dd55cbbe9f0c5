import type { Context } from 'hono'
import { generateCookie } from 'hono/cookie'
import type { CookieOptions } from 'hono/utils/cookie'
import { tryDecodeURIComponent } from 'hono/utils/url'
import { appendResponseCookie } from '../http/fetch-headers'

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
  appendResponseCookie(c, cookie)
}

/** `deleteCookie` for use after `next()`: an empty value with `Max-Age=0`, appended in place. */
export function appendDeleteCookie(c: Context, name: string, options?: CookieOptions): void {
  appendSetCookie(c, name, '', { ...options, maxAge: 0 })
}

/** Hono's rule for a cookie value it accepts (RFC 6265 cookie-octets plus space and comma). */
const COOKIE_VALUE = /^[ !#-:<-[\]-~]*$/

/**
 * How many copies of one cookie name sessions, csrf and jwtAuth examine. A request carrying more
 * is ambiguous (see {@link getCookieCopies}). Browsers send one copy per matching domain and
 * path, so a real request carries one or two; 8 leaves room for a few stale paths.
 */
export const MAX_COOKIE_COPIES = 8

/**
 * Every copy of the cookie `name` the request carries, in header order, decoded as hono/cookie's
 * `getCookie` decodes the first one (quotes stripped, percent-decoding, invalid values skipped),
 * or `null` when the request carries more than `limit` copies.
 *
 * Why: browsers send every cookie whose domain and path match, so a sibling subdomain can plant
 * a second `sid` that sorts first (cookie tossing). `getCookie` returns only that first copy;
 * sessions, csrf and jwtAuth look at all of them and pick the one they can verify. Looking at only
 * the first few would let padding hide the user's own copy behind junk and an attacker's valid
 * one; so a request with more copies than are examined has no usable cookie at all (a fresh
 * session, a csrf rejection, a jwtAuth 401). Every pair of that name counts, valid value or not.
 */
export function getCookieCopies(
  c: Context,
  name: string,
  limit = MAX_COOKIE_COPIES,
): string[] | null {
  const { values, more } = scanCookie(c.req.header('cookie'), name, limit)
  return more ? null : values
}

function scanCookie(
  header: string | undefined,
  name: string,
  limit: number,
): { values: string[]; more: boolean } {
  const out: string[] = []
  if (header === undefined) return { values: out, more: false }
  let seen = 0
  // A scan with indexOf, no split and no regex per pair: this runs on every request.
  let from = 0
  for (;;) {
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
    if (++seen > limit) return { values: out, more: true }
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
  return { values: out, more: false }
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
