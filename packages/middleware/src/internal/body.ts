import type { Context } from 'hono'

/** The parts of node:http's IncomingMessage these modules read (`c.env.incoming`). */
export interface NodeIncoming {
  httpVersionMajor?: unknown
  headers?: Record<string, unknown>
  rawBody?: unknown
}

/**
 * True unless the request provably has no body. On @hono/node-server, reading `c.req.raw.body`
 * builds a whole undici Request and an AbortController (about 10 µs on Node 20), so a GET should
 * not pay for it. The answer is "no body" only when all of these hold:
 *
 * - the request came over HTTP/1.x through @hono/node-server (`c.env.incoming`),
 * - `c.req.raw` is still the request built from that very message (no middleware replaced it),
 * - the message has neither `Content-Length` nor `Transfer-Encoding`: RFC 9112 §6.3 then fixes
 *   the body length at zero, and Node's parser reads none,
 * - nothing is in Hono's body cache.
 *
 * Anything else (HTTP/2, Bun, Deno, Workers, `app.request()`, a replaced request) is answered by
 * `c.req.raw.body !== null`, exactly as before.
 *
 * @example
 * ```ts
 * if (!mayHaveBody(c)) return next()
 * ```
 */
export function mayHaveBody(c: Context): boolean {
  if (framedWithoutBody(c)) return false
  return c.req.raw.body !== null || Object.keys(c.req.bodyCache).length > 0
}

function framedWithoutBody(c: Context): boolean {
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming
  if (incoming?.httpVersionMajor !== 1 || 'rawBody' in incoming) return false
  const headers = incoming.headers
  if (
    headers === undefined ||
    headers['content-length'] !== undefined ||
    headers['transfer-encoding'] !== undefined
  ) {
    return false
  }
  if (Object.keys(c.req.bodyCache).length > 0) return false
  return builtFrom(c.req.raw, incoming)
}

/**
 * @hono/node-server's lightweight request keeps its message under a private symbol. Finding the
 * message there, as an own property, proves `raw` was built from it; a Request some middleware
 * put in its place has no such property, and its body is then checked directly. The symbol found
 * last is tried first: listing an object's symbols costs an array per request.
 */
let messageKey: symbol | undefined

export function builtFrom(raw: Request, incoming: NodeIncoming): boolean {
  const r = raw as unknown as Record<symbol, unknown>
  if (messageKey !== undefined && r[messageKey] === incoming && Object.hasOwn(r, messageKey)) {
    return true
  }
  for (const key of Object.getOwnPropertySymbols(raw)) {
    if (r[key] === incoming) {
      messageKey = key
      return true
    }
  }
  return false
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
 * if (framedByRuntime(c)) return next() // the declared length is the real one
 * ```
 */
export function framedByRuntime(c: Context): boolean {
  const env = c.env as
    | { incoming?: NodeIncoming; requestIP?: unknown; remoteAddr?: unknown }
    | undefined
  if (env && typeof env === 'object') {
    if (env.incoming && typeof env.incoming === 'object') {
      return !('rawBody' in env.incoming) && builtFrom(c.req.raw, env.incoming)
    }
    if (typeof env.requestIP === 'function') return true
    if (env.remoteAddr && typeof env.remoteAddr === 'object') return true
  }
  const cf = (c.req.raw as { cf?: unknown }).cf
  return cf !== null && typeof cf === 'object'
}
