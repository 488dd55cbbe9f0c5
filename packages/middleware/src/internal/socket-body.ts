import type { Context } from 'hono'
import { builtFrom, type NodeIncoming } from './body'

// What bodyLimit reads off @hono/node-server's socket message to refuse without breaking the
// connection. Apart from body.ts so that the middleware that only ask whether a body is there
// (csrf, xssSanitize, ssrfGuard) do not carry it.

/** A `Content-Length` value the parser frames a body by: digits only, one value. */
export const CONTENT_LENGTH = /^[0-9]+$/

/**
 * The body length Node's HTTP/1.x parser frames this request by, read off the message
 * @hono/node-server built the request from, without touching `c.req.raw.body`: a lone numeric
 * `Content-Length` and no `Transfer-Encoding` (Node refuses conflicting duplicates of either before
 * any handler runs). `undefined` anywhere else: another runtime, HTTP/2, `app.request()`, a
 * replaced request, a GET or HEAD (node-server gives them no body).
 *
 * Why not ask the body: once `c.req.raw.body` is read, node-server hands the socket's stream to a
 * web stream, and a refusal that leaves the rest unread no longer drains it, so the client's next
 * request on the kept-alive connection is reset. Refused from the headers, the unread body is
 * drained by node-server and the connection lives on.
 *
 * @example
 * ```ts
 * const declared = socketFramedLength(c)
 * if (declared !== undefined && declared > max) refuse()
 * ```
 */
export function socketFramedLength(c: Context): number | undefined {
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming
  if (incoming?.httpVersionMajor !== 1 || 'rawBody' in incoming) return undefined
  const headers = incoming.headers
  if (headers === undefined || headers['transfer-encoding'] !== undefined) return undefined
  const declared = headers['content-length']
  if (typeof declared !== 'string' || !CONTENT_LENGTH.test(declared)) return undefined
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD') return undefined
  return builtFrom(c.req.raw, incoming) ? Number(declared) : undefined
}

/**
 * Headers for a refusal that leaves part of a streamed body unread: `Connection: close` on
 * @hono/node-server over HTTP/1.x (the request still built from its message), so Node closes the
 * connection after the answer instead of parsing the rest of the body as the next request, which
 * resets the client's next request on that connection (RFC 9112 §9.6: a server that does not read
 * the whole body closes). Elsewhere nothing: other runtimes manage their own connections.
 */
export function unreadBodyHeaders(c: Context): Record<string, string> | undefined {
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming
  if (incoming?.httpVersionMajor !== 1 || 'rawBody' in incoming) return undefined
  return builtFrom(c.req.raw, incoming) ? { Connection: 'close' } : undefined
}
