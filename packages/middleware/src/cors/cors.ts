import type { Context, MiddlewareHandler } from 'hono'
import { TOKEN } from '../internal/http/header-syntax'
import { editResponseHeaders, type HeaderEdit } from '../internal/http/headers'
import {
  assertBoolean,
  assertKnownKeys,
  assertNonNegativeInteger,
  assertStringArray,
  optionError,
} from '../internal/options'
import { begin, decide } from '../internal/outcomes/decisions'

/**
 * Options of {@link cors}.
 *
 * @example
 * const options: CorsOptions = {
 *   origin: ['https://app.example.com'],
 *   credentials: true,
 *   maxAge: 600,
 * }
 * app.use('/api/*', cors(options))
 */
export interface CorsOptions {
  /**
   * Allowed origin(s), e.g. `'https://app.example.com'` or a list of them. `'*'` allows any
   * origin (never together with `credentials`). Unset: no `Access-Control-Allow-Origin` is sent.
   */
  origin?: string | string[]
  /** Methods allowed in preflights. Default `['GET','POST','PUT','PATCH','DELETE','OPTIONS']`. */
  allowMethods?: string[]
  /** Request headers allowed in preflights. Default `['content-type','authorization']`. */
  allowHeaders?: string[]
  /** Response headers scripts may read. Default `[]`. */
  exposeHeaders?: string[]
  /** Sends `Access-Control-Allow-Credentials: true`. Default `false`. */
  credentials?: boolean
  /** Preflight cache lifetime in seconds (`Access-Control-Max-Age`). Default unset. */
  maxAge?: number
}

const NAME = 'cors'
const KNOWN = [
  'origin',
  'allowMethods',
  'allowHeaders',
  'exposeHeaders',
  'credentials',
  'maxAge',
] as const
const DEFAULT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
const DEFAULT_HEADERS = ['content-type', 'authorization']
// scheme://host[:port] — what browsers send; no path, no trailing slash, no whitespace or commas.
const ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\s,]+$/

/**
 * Cross-Origin Resource Sharing. Answers preflights (`OPTIONS` with
 * `Access-Control-Request-Method`) itself with 204, and adds the CORS headers to actual responses
 * when the request's `Origin` is allowed. Origins are compared case-insensitively and the
 * request's own `Origin` is reflected; `Vary: Origin` is merged into the response's `Vary`.
 *
 * @param options.origin allowed origin(s); unset = no `Access-Control-Allow-Origin` at all
 * @param options.allowMethods default `['GET','POST','PUT','PATCH','DELETE','OPTIONS']`
 * @param options.allowHeaders default `['content-type','authorization']`
 * @param options.exposeHeaders default `[]`
 * @param options.credentials default `false`; throws with `origin: '*'`
 * @param options.maxAge seconds, default unset
 * @example
 * ```ts
 * app.use('/api/*', cors({ origin: ['https://app.example.com'], credentials: true, maxAge: 600 }))
 * ```
 */
export function cors(options?: CorsOptions): MiddlewareHandler {
  assertKnownKeys(NAME, options, KNOWN)
  const o = options ?? {}
  const credentials =
    o.credentials === undefined ? false : assertBoolean(NAME, 'credentials', o.credentials)
  const maxAge =
    o.maxAge === undefined ? undefined : assertNonNegativeInteger(NAME, 'maxAge', o.maxAge)
  const methods = tokens('allowMethods', o.allowMethods ?? DEFAULT_METHODS)
  const allowHeaders = tokens('allowHeaders', o.allowHeaders ?? DEFAULT_HEADERS)
  const exposeHeaders = tokens('exposeHeaders', o.exposeHeaders ?? [])

  const anyOrigin = o.origin === '*'
  if (anyOrigin && credentials) {
    throw optionError(NAME, 'credentials cannot be combined with origin "*"; list the origins')
  }
  const allowed = anyOrigin || o.origin === undefined ? null : origins(o.origin)
  // Only a reflected origin makes the response depend on the request's Origin.
  const varies = allowed !== null

  // Headers granted to an allowed origin, precomputed once.
  const grant: [string, string][] = []
  if (credentials) grant.push(['access-control-allow-credentials', 'true'])
  const expose: [string, string][] = exposeHeaders.length
    ? [['access-control-expose-headers', exposeHeaders.join(', ')]]
    : []
  const preflight: [string, string][] = []
  if (methods.length) preflight.push(['access-control-allow-methods', methods.join(', ')])
  if (allowHeaders.length) preflight.push(['access-control-allow-headers', allowHeaders.join(', ')])
  if (maxAge !== undefined) preflight.push(['access-control-max-age', String(maxAge)])

  function allowOrigin(origin: string | undefined): string | null {
    if (anyOrigin) return '*'
    if (!allowed || !origin) return null
    return allowed.has(origin.toLowerCase()) ? origin : null
  }

  /** The headers of an answer to a request that is not a preflight. */
  const answer = (c: Context, allow: string | null): void => {
    if (!allow && !varies) return
    editResponseHeaders(c, (headers) => {
      if (allow) {
        headers.set('access-control-allow-origin', allow)
        for (const [k, v] of grant) headers.set(k, v)
        for (const [k, v] of expose) headers.set(k, v)
      }
      if (varies) addVaryOrigin(headers)
    })
  }

  // Not async: the preflight answers at once, and the rest chains its headers on the chain's
  // promise, which saves an async frame per request.
  return function cors(c, next) {
    const allow = allowOrigin(c.req.header('origin'))
    decide(begin(c, NAME), allow ? 'allow' : 'skip')

    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined) {
      // Edit the headers earlier middleware already set (c.header() before next(), e.g.
      // securityHeaders or requestId) in place, as Hono's cors does: a preflight must not drop
      // them, and Hono copies c.res's headers over the returned response, so the CORS values
      // have to be written there to win.
      const headers = c.res.headers
      for (const [k, v] of preflight) headers.set(k, v)
      if (allow) {
        headers.set('access-control-allow-origin', allow)
        for (const [k, v] of grant) headers.set(k, v)
      }
      if (varies) addVaryOrigin(headers)
      // A 204 has no content: a length or type set earlier would describe a body that is not there.
      headers.delete('content-length')
      headers.delete('content-type')
      return Promise.resolve(new Response(null, { status: 204, headers }))
    }

    return next().then(() => answer(c, allow))
  }
}

/** Adds `Origin` to the response's own `Vary` once; `Vary: *` already covers it. */
function addVaryOrigin(headers: HeaderEdit): void {
  const vary = headers.get('vary')
  if (!vary) {
    headers.set('vary', 'Origin')
    return
  }
  for (const part of vary.split(',')) {
    const name = part.trim().toLowerCase()
    if (name === 'origin' || name === '*') return
  }
  headers.set('vary', `${vary}, Origin`)
}

function tokens(name: string, value: unknown): string[] {
  const list = assertStringArray(NAME, name, value)
  for (const item of list) {
    if (!TOKEN.test(item))
      throw optionError(NAME, `"${name}" entry ${JSON.stringify(item)} is not a valid token`)
  }
  return list
}

function origins(value: unknown): Set<string> {
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) {
    throw optionError(NAME, '"origin" must be a string or an array of strings')
  }
  for (const item of list as string[]) {
    if (item === '*') throw optionError(NAME, 'use origin: "*" on its own, not inside a list')
    if (!ORIGIN.test(item)) {
      throw optionError(
        NAME,
        `origin ${JSON.stringify(item)} is not an origin (scheme://host[:port], no path or trailing slash)`,
      )
    }
  }
  return new Set((list as string[]).map((v) => v.toLowerCase()))
}
