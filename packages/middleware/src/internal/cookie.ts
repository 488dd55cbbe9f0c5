import type { Context } from 'hono'
import type { CookieOptions } from 'hono/utils/cookie'

export { deleteCookie, getCookie, setCookie } from 'hono/cookie'
export type { CookieOptions }

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
