import type { Context } from 'hono'
import { CONTENT_LENGTH } from './body'
import { type NodeIncoming, socketMessage } from './node-server'

/** The parts of node:http's IncomingMessage (a Readable) that a direct read needs. */
interface ReadableMessage extends NodeIncoming {
  complete?: unknown
  readableFlowing?: unknown
  readableDidRead?: unknown
  readableEncoding?: unknown
  readableObjectMode?: unknown
  readableAborted?: unknown
  readableLength?: unknown
  destroyed?: unknown
  errored?: unknown
  read?: unknown
}

/**
 * The body of the node:http message behind `c.req.raw` (@hono/node-server, HTTP/1.x, the request
 * it built still in place), taken off the message's buffer in one synchronous `read()`, when Node's
 * parser has already received all of it and nothing has started reading it; `undefined` otherwise
 * (the caller reads through `c.req.arrayBuffer()` as before), and always when the borrowed
 * internals are switched off (`socketMessage`).
 *
 * Why: node-server's own `arrayBuffer()` reads the same buffered bytes through a promise, four
 * listeners, a resumed stream's `data` and `end` events on later ticks and an ArrayBuffer copy,
 * about 2 µs per 1 KiB request on Node 22 (bench/FINDINGS.md, "Touching the request body"); on
 * node-server 1.19 it builds a whole undici Request with a web stream first. A body small enough
 * to arrive with its head is complete by the first microtask after the handler starts, so the
 * direct read serves the common JSON POST; a body still arriving is left to node-server.
 *
 * What it leaves behind is what a read leaves: the message has been read (`readableDidRead`) and
 * ends as usual (its `end` event follows on the next tick), so node-server's `arrayBuffer()` on the
 * original request rejects with "Body is unusable" as after its own read, and node-server neither
 * drains nor destroys the connection afterwards. The returned bytes are exactly the body: a lone
 * `Content-Length` must match what was buffered (Node's parser frames the body by it), and a
 * chunked body is whole once the message is `complete`.
 */
export function messageBodyNow(c: Context): Uint8Array | undefined {
  const message = socketMessage(c) as ReadableMessage | undefined
  if (message === undefined || !readableWhole(message)) return undefined
  const length = message.readableLength as number
  const headers = message.headers as Record<string, unknown>
  const declared = headers['content-length']
  if (headers['transfer-encoding'] === undefined) {
    if (typeof declared !== 'string' || !CONTENT_LENGTH.test(declared)) return undefined
    if (Number(declared) !== length) return undefined
  }
  // With no size, a paused Readable hands over all it holds (joined when there are several
  // chunks) and, its end already pushed, schedules its `end` event.
  const chunk = (message.read as (size?: number) => unknown).call(message)
  if (chunk === null && length === 0) return new Uint8Array(0)
  if (!(chunk instanceof Uint8Array) || chunk.byteLength !== length) {
    // Not reachable with node:http's messages (checked above); refused rather than guessed at.
    throw new TypeError('the message body could not be read whole')
  }
  return chunk
}

/** Whether `message` holds its whole body and nothing else has read, resumed or decoded it. */
function readableWhole(message: ReadableMessage): boolean {
  return (
    message.complete === true &&
    message.readableFlowing === null &&
    message.readableDidRead === false &&
    message.readableEncoding === null &&
    message.readableObjectMode === false &&
    message.readableAborted === false &&
    message.destroyed === false &&
    message.errored == null &&
    typeof message.readableLength === 'number' &&
    typeof message.read === 'function'
  )
}

/**
 * Whether a direct read may succeed after the parser finishes the current chunk: the message is
 * still unread and incomplete. node:http calls the request handler while it parses the head, so
 * a body that came in the same chunk is buffered by the first microtask.
 */
export function messageBodySoon(c: Context): boolean {
  const message = socketMessage(c) as ReadableMessage | undefined
  return message !== undefined && message.complete === false && message.readableFlowing === null
}
