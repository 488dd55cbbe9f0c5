import type { Context } from 'hono'
import { type NodeIncoming, socketMessage } from './node-server'

/** The parts of node:http's IncomingMessage (a Readable) that a direct read needs. */
interface ReadableMessage extends NodeIncoming {
  complete?: unknown
  readableFlowing?: unknown
  readableDidRead?: unknown
  readableEncoding?: unknown
  readableAborted?: unknown
  readableLength?: unknown
  destroyed?: unknown
  errored?: unknown
  read?: unknown
  resume?: unknown
}

/**
 * The body of the node:http message behind `c.req.raw` (@hono/node-server, HTTP/1.x, the request
 * it built still in place), taken off the message's buffer in one synchronous `read()`, when Node's
 * parser has already received all of it and nothing has started reading it; `undefined` otherwise
 * (the caller reads through `c.req.arrayBuffer()` as before), and always when the borrowed
 * internals are switched off (`socketMessage`).
 *
 * Why: node-server's own `arrayBuffer()` reads the same buffered bytes through a promise, four
 * listeners, a resumed stream's `data` and `end` events on later ticks and an ArrayBuffer copy;
 * node-server 1.19 builds a whole undici Request with a web stream first. Read directly, shield's
 * 1 KiB JSON POST costs about 3 µs less per request on node-server 2.1 (Node 20, 22, 24) and
 * about 34 µs less on 1.19 (bench/FINDINGS.md, "Touching the request body"). A body that arrives with its head is buffered by the first
 * microtask after the handler starts, so the direct read serves the common small POST; a body
 * still arriving, or chunked and not yet complete, is left to node-server.
 *
 * Whole means: the message is `complete`, or its lone `Content-Length` equals what is buffered
 * (Node's parser frames the body by it and delivers no byte past it; over TCP the handler's first
 * microtask runs after the body's bytes and before the parser marks the message complete).
 *
 * What it leaves behind is what a read leaves: the message has been read (`readableDidRead`), so
 * node-server's `arrayBuffer()` on the original request rejects with "Body is unusable" as after
 * its own read, and the message ends as usual (`end` on a later tick; resumed when its end is not
 * parsed yet, so that `end` still comes and neither Node nor node-server drains it afterwards).
 *
 * The ArrayBuffer is exactly the body and the caller's own: Node's parser copies each body chunk
 * into a fresh ArrayBuffer of its size, which the read hands over (no copy) when it covers that
 * buffer whole; any other chunk (joined chunks from Node's pool, another runtime's views) is
 * copied.
 */
export function messageBodyNow(c: Context): ArrayBuffer | undefined {
  const message = socketMessage(c) as ReadableMessage | undefined
  if (message === undefined || !unread(message)) return undefined
  const length = message.readableLength as number
  const headers = message.headers as Record<string, unknown>
  const complete = message.complete === true
  // A Content-Length other than the plain digits of the buffered length (leading zeros too) is
  // left to node-server: no parsing of it here.
  const whole =
    headers['transfer-encoding'] === undefined
      ? headers['content-length'] === String(length)
      : complete
  if (!whole) return undefined
  // With no size, a paused Readable hands over all it holds (joined when there are several
  // chunks) and, its end already pushed, schedules its `end` event.
  const chunk = (message.read as () => unknown).call(message) ?? new Uint8Array(0)
  if (!complete) (message.resume as () => void).call(message)
  // Not otherwise with node:http's messages; node-server's read then says the body is used.
  if (!(chunk instanceof Uint8Array) || chunk.byteLength !== length) return undefined
  const buffer = chunk.buffer
  return chunk.byteOffset === 0 && buffer.byteLength === length && buffer instanceof ArrayBuffer
    ? buffer
    : new Uint8Array(chunk).buffer
}

/** Whether nothing has read, resumed, decoded or broken `message`. */
function unread(message: ReadableMessage): boolean {
  return (
    message.readableFlowing === null &&
    message.readableDidRead === false &&
    message.readableEncoding === null &&
    message.readableAborted === false &&
    message.destroyed === false &&
    !message.errored &&
    typeof message.readableLength === 'number'
  )
}

/**
 * Whether a direct read may succeed a microtask later: the message is still unread and not yet
 * complete. node:http calls the request handler while it parses the head, so a body that came
 * in the same chunk is buffered by the first microtask.
 */
export function messageBodySoon(c: Context): boolean {
  const message = socketMessage(c) as ReadableMessage | undefined
  return message !== undefined && message.complete === false && message.readableFlowing === null
}
