import type { Context } from 'hono'
import { CONTENT_LENGTH } from './body'
import { overNodeHttp1, socketMessage } from './node-server'

// What bodyLimit reads off @hono/node-server's socket message to refuse without breaking the
// connection. Apart from body.ts so that the middleware that only ask whether a body is there
// (csrf, xssSanitize, ssrfGuard) do not carry it.

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
 * if (declared !== undefined && declared > max) rejectOrRecord()
 * ```
 */
export function socketFramedLength(c: Context): number | undefined {
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD') return undefined
  const headers = socketMessage(c)?.headers
  if (headers === undefined || headers['transfer-encoding'] !== undefined) return undefined
  const declared = headers['content-length']
  return typeof declared === 'string' && CONTENT_LENGTH.test(declared)
    ? Number(declared)
    : undefined
}

/**
 * Headers for a refusal that leaves part of a streamed body unread: `Connection: close` on
 * @hono/node-server over HTTP/1.x (read from its documented binding, so also with the borrowed
 * internals switched off, and also for a request a middleware replaced), so Node closes the
 * connection after the answer instead of parsing the rest of the body as the next request, which
 * resets the client's next request on that connection (RFC 9112 §9.6: a server that does not read
 * the whole body closes). Elsewhere nothing: other runtimes manage their own connections.
 */
export function unreadBodyHeaders(c: Context): Record<string, string> | undefined {
  return overNodeHttp1(c) ? { Connection: 'close' } : undefined
}
