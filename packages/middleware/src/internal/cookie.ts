import type { Context } from 'hono'
import { generateCookie } from 'hono/cookie'
import type { CookieOptions } from 'hono/utils/cookie'
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
