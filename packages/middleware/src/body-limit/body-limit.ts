import type { Context, MiddlewareHandler, Next } from 'hono'
import { CONTENT_LENGTH, framedByRuntime, mayHaveBody } from '../internal/http/body'
import { joinChunks } from '../internal/http/chunks'
import { socketFramedLength, unreadBodyHeaders } from '../internal/http/socket-body'
import { assertBoolean, assertKnownKeys, assertNonNegativeInteger } from '../internal/options'
import { begin, decide, type Pending } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { passOn } from '../internal/pass-on'
import { type BodyLimitRejects, reject, rejectOrRecord } from './answers'
import { bodyLimitDescription } from './description'

/**
 * Options of {@link bodyLimit}.
 *
 * @example
 * const options: BodyLimitOptions = { max: 64 * 1024 }
 * app.use('/api/*', bodyLimit(options))
 */
export interface BodyLimitOptions {
  /** Largest accepted body in bytes. Default `1_000_000`. */
  max?: number
  /**
   * Report instead of refuse: a request that would be rejected passes, and its decision is
   * `dry-run` with the code it would have got. An oversized body is then handed on as a stream,
   * never buffered whole. Default `false`.
   */
  dryRun?: boolean
}

const NAME = 'bodyLimit'
const KNOWN = ['max', 'dryRun'] as const
const MISMATCH = 'Content-Length does not match the body'

/**
 * Rejects request bodies larger than `max` bytes with 413 `Content Too Large` (RFC 9110's name
 * for 413, the title problem details give it), before the handler runs. A `Content-Length` over `max` is rejected without reading the body. A single well-formed
 * `Content-Length` within `max` is trusted only where a server runtime framed the body by it
 * (@hono/node-server, Bun, Deno, Cloudflare). Every other body (chunked, `Transfer-Encoding` next
 * to `Content-Length`, duplicate, negative or non-numeric `Content-Length`, and any request built
 * in-process, e.g. `app.request()`) is counted as it arrives: reading stops at `max + 1` bytes
 * (413), a declared length that differs from the real one is `400 Content-Length does not match
 * the body`, and a body within the limit is handed on buffered, fully readable.
 *
 * @param options.max default `1_000_000` bytes
 * @example
 * ```ts
 * app.use('/api/*', bodyLimit({ max: 64 * 1024 }))
 * ```
 */
export function bodyLimit(options?: BodyLimitOptions): MiddlewareHandler & BodyLimitRejects {
  assertKnownKeys(NAME, options, KNOWN)
  const max = assertNonNegativeInteger(NAME, 'max', options?.max ?? 1_000_000)
  const dryRun = assertBoolean(NAME, 'dryRun', options?.dryRun ?? false)

  const description = bodyLimitDescription(max)
  // Not async: the common request (a GET, or a body the runtime framed) is decided at once and
  // gets next()'s promise back with one `then` (passOn: the chain must see `undefined`). An async
  // function cost every request a promise of its own and two more microtask turns
  // (bench/FINDINGS.md, issue 42). A refusal
  // stays a rejected promise, as from an async function; only a body that must be counted goes
  // through `counted` below.
  return described(description, function bodyLimit(c, next) {
    const d = begin(c, NAME)
    try {
      // On @hono/node-server, Node's parser frames the body by exactly this length: it is judged
      // before the body stream exists. A refusal then leaves node-server to drain the unread body
      // and keep the connection (socketFramedLength), and a pass never builds the undici Request.
      const framed = socketFramedLength(c)
      if (framed !== undefined) {
        if (framed > max) rejectOrRecord(d, dryRun, 413, 'Content Too Large', 'body_too_large')
        else decide(d, 'allow')
        return passOn(next) // dry run: the body passes untouched
      }
      if (!mayHaveBody(c) || !c.req.raw.body) {
        decide(d, 'skip')
        return passOn(next)
      }
    } catch (error) {
      return Promise.reject(error)
    }
    return counted(c, next, d)
  })

  /** A body no runtime framed for us: its declared length checked, or its bytes counted. */
  async function counted(c: Context, next: Next, d: Pending | undefined): Promise<void> {
    const raw = c.req.raw
    const body = raw.body as ReadableStream<Uint8Array>

    const declared = raw.headers.get('content-length')
    // A server runtime frames the body by a lone numeric Content-Length, so there it is exact.
    // With Transfer-Encoding, or a value such as "10, 5000" (duplicates) or "-1", it is not; nor
    // on a Request built in-process (app.request, a platform adapter), which may carry any body.
    let expected: number | undefined
    if (
      declared !== null &&
      !raw.headers.has('transfer-encoding') &&
      CONTENT_LENGTH.test(declared)
    ) {
      expected = Number(declared)
      if (expected > max) {
        // The body stream exists and is left unread (see unreadBodyHeaders).
        rejectOrRecord(d, dryRun, 413, 'Content Too Large', 'body_too_large', unreadBodyHeaders(c))
        await next() // dry run: the body passes untouched
        return
      }
      if (framedByRuntime(c)) {
        decide(d, 'allow')
        await next()
        return
      }
    }

    if (raw.bodyUsed || body.locked) {
      // An earlier middleware already read the body through Hono: measure what Hono cached (the
      // stream is gone, getReader() would throw). Read outside Hono's cache, nothing is left to limit.
      let size: number
      try {
        size = (await c.req.arrayBuffer()).byteLength
      } catch {
        decide(d, 'skip')
        await next()
        return
      }
      if (size > max) rejectOrRecord(d, dryRun, 413, 'Content Too Large', 'body_too_large')
      if (expected !== undefined && size !== expected)
        rejectOrRecord(d, dryRun, 400, MISMATCH, 'content_length_mismatch')
      decide(d, 'allow')
      await next()
      return
    }

    const reader = body.getReader()
    const chunks: Uint8Array[] = []
    let size = 0
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>
      try {
        result = await reader.read()
      } catch {
        reject(400, 'Bad Request', 'body_unreadable')
      }
      if (result.done) break
      size += result.value.byteLength
      chunks.push(result.value)
      if (size > max) {
        // Stop reading: the rest of an oversized body is never pulled into memory.
        if (!dryRun) reader.cancel().catch(() => {})
        rejectOrRecord(d, dryRun, 413, 'Content Too Large', 'body_too_large', unreadBodyHeaders(c))
        // Dry run: what was read, then the rest as it arrives, never buffered whole.
        c.req.raw = new Request(raw, {
          body: rejoin(chunks, reader),
          duplex: 'half',
        } as RequestInit)
        await next()
        return
      }
    }
    // The declared length lied (only possible in-process): the body is not what it claims to be.
    if (expected !== undefined && size !== expected)
      rejectOrRecord(d, dryRun, 400, MISMATCH, 'content_length_mismatch')
    decide(d, 'allow')
    // Downstream code now sees the body's real, single length instead of the untrusted framing.
    const headers = new Headers(raw.headers)
    headers.delete('transfer-encoding')
    headers.set('content-length', String(size))
    c.req.raw = new Request(raw, { body: joinChunks(chunks, size) as BufferSource, headers })
    await next()
  }
}

/** A stream of the chunks already read followed by the rest of `reader`. */
function rejoin(
  chunks: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i < chunks.length) return controller.enqueue(chunks[i++] as Uint8Array)
      const { done, value } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}
