import type { Context } from 'hono'
import { type NodeIncoming, requestBuiltFrom, socketMessage } from './node-server'

/**
 * True unless the request provably has no body. On @hono/node-server, reading `c.req.raw.body`
 * builds a whole undici Request with a web stream over the socket (about 10 µs on Node 20, and a
 * slower read of the body afterwards), so the answer comes from the message's framing where it
 * can. That holds when all of these do:
 *
 * - the request came over HTTP/1.x through @hono/node-server (`c.env.incoming`),
 * - `c.req.raw` is still the request built from that very message (no middleware replaced it).
 *
 * Then the answer is the framing's (RFC 9112 §6.3): no `Content-Length` nor `Transfer-Encoding`
 * is no body (unless Hono already cached one); a POST, PUT… with `Transfer-Encoding` has one;
 * with a lone numeric `Content-Length`, it has one unless the length is 0.
 *
 * Anything else (a GET or HEAD that declares a body, HTTP/2, Bun, Deno, Workers,
 * `app.request()`, a replaced request) is answered by `c.req.raw.body !== null`, exactly as
 * before.
 *
 * @example
 * ```ts
 * if (!mayHaveBody(c)) return passOn(next)
 * ```
 */
export function mayHaveBody(c: Context): boolean {
  const framed = framedBody(c)
  if (framed !== undefined) return framed
  // The cache first: a request served lazily (node-server.ts) builds its body when `.body` is read.
  return hasCachedBody(c) || c.req.raw.body !== null
}

/**
 * Whether Hono's body cache holds a body already (a middleware or the handler read it through
 * `c.req`). A `for…in` rather than `Object.keys(…).length`: no array per request.
 */
export function hasCachedBody(c: Context): boolean {
  for (const _ in c.req.bodyCache) return true
  return false
}

/** A `Content-Length` value the parser frames a body by: digits only, one value. */
export const CONTENT_LENGTH = /^[0-9]+$/

/** What the socket message's framing says of the body (see `mayHaveBody`), or `undefined`. */
function framedBody(c: Context): boolean | undefined {
  const message = socketMessage(c)
  if (message === undefined) return undefined
  const headers = message.headers as Record<string, unknown>
  const length = headers['content-length']
  const chunked = headers['transfer-encoding'] !== undefined
  if (length === undefined && !chunked) {
    return hasCachedBody(c) ? undefined : false
  }
  // node-server gives a GET or HEAD no body whatever it declares: asked of the Request, as
  // before. Node's parser refuses a Content-Length that is not a lone number.
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD') return undefined
  if (chunked) return true
  return typeof length === 'string' && CONTENT_LENGTH.test(length) ? length !== '0' : undefined
}

/**
 * True when a server runtime built `c.req.raw` from a real connection, so its body is exactly as
 * long as a lone numeric `Content-Length` says (the runtime's HTTP parser frames the body by it):
 * @hono/node-server (the request still built from its message), Bun (`env.requestIP`), Deno
 * (`env.remoteAddr`) and Cloudflare (the `cf` object). Anything else, `app.request()` and
 * `app.fetch(new Request(…))` above all, can carry any Content-Length next to any body.
 *
 * @example
 * ```ts
 * if (framedByRuntime(c)) return passOn(next) // the declared length is the real one
 * ```
 */
export function framedByRuntime(c: Context): boolean {
  const env = c.env as
    | { incoming?: NodeIncoming; requestIP?: unknown; remoteAddr?: unknown }
    | undefined
  if (env && typeof env === 'object') {
    if (env.incoming && typeof env.incoming === 'object') {
      return requestBuiltFrom(c, env.incoming)
    }
    if (typeof env.requestIP === 'function') return true
    if (env.remoteAddr && typeof env.remoteAddr === 'object') return true
  }
  const cf = (c.req.raw as { cf?: unknown }).cf
  return cf !== null && typeof cf === 'object'
}
