import type { MiddlewareHandler } from 'hono'
import { described } from '../internal/outcomes/described'
import type { CsrfRejects } from './answers'
import { type CsrfOptions, csrfConfig } from './config'
import { csrfDescription } from './description'
import { csrfHandler } from './request'

export type { CsrfOptions } from './config'

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
  // Options → frozen config (config.ts); the origin check (origin.ts); the token: made, found
  // among the cookie's copies, compared (token.ts), read from the body (body-token.ts); the
  // request path that puts them together (request.ts).
  const config = csrfConfig(options)
  const description = csrfDescription(config.headerName, config.cookieName, config.safeMethods)
  return described(description, csrfHandler(config)) as MiddlewareHandler & CsrfRejects
}
