import type { Context } from 'hono'
import { hasCachedBody, mayHaveBody } from './body'
import { lazyBodyRequest } from './lazy-request'
import { messageBodyNow, messageBodySoon } from './message-body'
import { socketMessage } from './node-server'

// `application/json`, `application/<anything>+json` (merge-patch, problem, vnd.api…), any params.
const JSON_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json\s*(?:;|$)/i

/** True for a JSON media type: `application/json` or a `+json` suffix type, parameters allowed. */
export function isJsonContentType(header: string | null | undefined): boolean {
  return header ? JSON_TYPE.test(header.trim()) : false
}

const decoder = new TextDecoder()

/**
 * Reads the body once, as bytes, into Hono's body cache, and puts a Request carrying the same
 * bytes in `c.req.raw`. Afterwards the handler's `c.req.json()`, `text()`, `formData()`,
 * `arrayBuffer()` or `blob()` are served from the cache (with the request's Content-Type), and
 * `c.req.raw` is a fresh, readable request. Bytes rather than text, so a binary or non-UTF-8
 * body reaches the handler unchanged. This replaces a `clone()`, whose stream tee cost about
 * 20 µs per request on Node 20 (the new Request costs about half of that). `null` when the body
 * was consumed outside Hono's cache.
 *
 * On @hono/node-server the new Request is built from the lightweight request's URL, method,
 * headers and abort signal: `new Request(raw, …)` would first make node-server build an undici
 * Request of the original, a second Request with its own AbortSignal (about an eighth of a JSON
 * POST through xssSanitize over HTTP).
 */
async function cacheBodyBytes(c: Context): Promise<ArrayBuffer | null> {
  const read = await readIntoCache(c)
  if (read === null) return null
  read.restore()
  return read.bytes
}

/**
 * Hono's body cache after a bytes reader: the read bytes under `arrayBuffer` (an own, enumerable
 * member, so they stay first and `blob()` / `formData()` derive from them), and `text` decoded
 * from them on first use (UTF-8, a leading BOM dropped, bad bytes as U+FFFD, as
 * `Response.text()`). Without it Hono derives the text from the cached bytes through a new
 * Response (about 30 µs on Node 20 for 1 KiB). A class rather than `Object.defineProperty` on the
 * plain cache object: the accessor lives once on the prototype, and nothing is defined per request.
 */
class BytesBodyCache {
  arrayBuffer: Promise<ArrayBuffer>
  readonly #bytes: ArrayBuffer
  #text: Promise<string> | undefined

  constructor(arrayBuffer: Promise<ArrayBuffer>, bytes: ArrayBuffer) {
    this.arrayBuffer = arrayBuffer
    this.#bytes = bytes
  }

  get text(): Promise<string> {
    if (this.#text === undefined) this.#text = Promise.resolve(decoder.decode(this.#bytes))
    return this.#text
  }

  set text(value: Promise<string>) {
    this.#text = value
  }
}

/**
 * Serves the handler's `c.req.text()` and `json()` from `bytes` (see {@link BytesBodyCache}),
 * when the cache holds nothing but the bytes just read.
 */
function cacheTextOf(c: Context, bytes: ArrayBuffer): void {
  const cache = c.req.bodyCache as Record<string, unknown>
  const read = cache.arrayBuffer as Promise<ArrayBuffer> | undefined
  if (read === undefined) return
  for (const key in cache) if (key !== 'arrayBuffer') return
  c.req.bodyCache = new BytesBodyCache(read, bytes) as unknown as typeof c.req.bodyCache
}

/**
 * What a body read leaves: the bytes, and `restore()` (see {@link readIntoCache}); `restore(text)`
 * with the bytes' text as `readBodyText` decoded them, which the rebuilt request may carry
 * instead of the bytes where that gives the same bytes (see {@link sameAsText}).
 */
interface Read {
  bytes: ArrayBuffer
  restore: (text?: string) => void
}

/**
 * The first half of {@link cacheBodyBytes}: reads the body into Hono's cache, and returns the
 * bytes with `restore()`, which puts a readable Request carrying them in `c.req.raw`. A caller
 * that may answer without running the handler (a replay) skips `restore()` and its cost.
 * `triedNow`: the caller already tried {@link readNow} (and waited for it where it could).
 */
async function readIntoCache(c: Context, triedNow = false): Promise<Read | null> {
  if (!triedNow) {
    const now = readNow(c) ?? (messageBodySoon(c) ? await readSoon(c) : undefined)
    if (now !== undefined) return now
  }
  const raw = c.req.raw
  const fromSocket = socketMessage(c) !== undefined
  // A body consumed outside Hono's cache (or a stream that fails) makes the read reject: `null`,
  // and the rejected read is taken back out of the cache, so a later reader meets the request as
  // it was.
  const cache = c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }
  let bytes: ArrayBuffer
  try {
    if (throughNodeServer(c) || !STREAM_READ_IS_FASTER) {
      // `raw.bodyUsed` is not asked first: on undici it walks into the stream's state.
      bytes = await c.req.arrayBuffer()
    } else {
      // In the cache before it settles, as Hono's own c.req.arrayBuffer() puts its read.
      const read = readBodyStream(raw)
      cache.arrayBuffer = read
      bytes = await read
    }
  } catch {
    delete cache.arrayBuffer
    return null
  }
  return restorable(c, raw, fromSocket, bytes)
}

/**
 * The body read synchronously off node:http's message (message-body.ts) into Hono's cache, as
 * {@link readIntoCache} leaves it; `undefined` where that read does not apply (then nothing was
 * read). No promise or async frame of its own: on a 1 KiB JSON POST over node-server each one
 * between a middleware and the bytes costs a few tenths of a µs.
 */
function readNow(c: Context): Read | undefined {
  const raw = c.req.raw
  const bytes = messageBodyNow(c)
  if (bytes === undefined) return undefined
  ;(c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }).arrayBuffer = Promise.resolve(bytes)
  return restorable(c, raw, true, bytes)
}

/**
 * {@link readNow} once node:http has parsed the rest of the chunk the head came in (it calls the
 * request handler while parsing the head; the body's bytes are in by the next microtask).
 */
async function readSoon(c: Context): Promise<Read | undefined> {
  await undefined
  return readNow(c)
}

/** `bytes` read from `raw`, with the `restore()` that puts a readable `raw` in `c.req.raw`. */
function restorable(c: Context, raw: Request, fromSocket: boolean, bytes: ArrayBuffer): Read {
  const restore = (text?: string) => {
    if (c.req.raw !== raw) return
    const build = () => {
      const body = text !== undefined && sameAsText(raw, bytes, text) ? text : bytes
      return (fromSocket && fromParts(raw, body)) || new Request(raw, { body })
    }
    c.req.raw = lazyBodyRequest(raw, build) ?? build()
  }
  return { bytes, restore }
}

/**
 * Whether a Request built with `text` as its body carries exactly `bytes` and the same headers,
 * so the rebuilt `c.req.raw` can take the string: undici's constructor copies an ArrayBuffer
 * (webidl's copy of a buffer source) but keeps a string as it is and encodes it when the body is
 * read, about 0.5 µs less per rebuild of a 1 KiB body on Node 24 (undici 7), where a Request is built for every
 * body read (lazy-request.ts). It must be `bytes` decoded without loss: no BOM (which decoding
 * drops) and no U+FFFD (which stands for bad bytes; a body that holds a real one keeps its
 * bytes, a cost only); UTF-8 that decodes without an error encodes back to the same bytes. And
 * the request must declare its Content-Type: a string body without one would add
 * `text/plain;charset=UTF-8` to the headers.
 */
function sameAsText(raw: Request, bytes: ArrayBuffer, text: string): boolean {
  if (text.includes('\ufffd') || !raw.headers.has('content-type')) return false
  if (bytes.byteLength < 3) return true
  const head = new Uint8Array(bytes, 0, 3)
  return !(head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
}

/**
 * Whether reading the body's stream here beats the runtime's own `arrayBuffer()`: on Node
 * (undici: two copies and its promise steps) it does, by 0.8–3.6 µs on 1 KiB (Node 24, Node 20);
 * Bun's and Deno's native `arrayBuffer()` is faster than any loop over the stream (1 KiB, 2026-12-07:
 * Bun 0.9–1.2 against 3.0–3.6 µs, Deno 4.0–4.2 against 6.1–6.3), so they and Workers keep it. Node
 * is told by the web-standard `navigator.userAgent` ("Node.js/…"; Node 20 has no `navigator`).
 * Both ways give the same bytes and the same cache entry; only the time differs.
 */
const STREAM_READ_IS_FASTER = (() => {
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent
  return agent === undefined || (typeof agent === 'string' && agent.startsWith('Node.js/'))
})()

/**
 * Whether the request came through @hono/node-server (its documented binding, `c.env.incoming`,
 * whatever the HTTP version): its `arrayBuffer()` reads the socket message directly, where reading
 * `c.req.raw.body` would first build a whole Request with a web stream over it (body.ts).
 */
function throughNodeServer(c: Context): boolean {
  return (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined
}

/**
 * The bytes of `request`'s body read off its stream, as the Fetch standard's `arrayBuffer()`
 * reads them: a used or locked body, a chunk that is not a Uint8Array or a failing stream
 * rejects; no body gives no bytes. Node's own `arrayBuffer()` (undici) reads the same stream but
 * copies the bytes twice (joined into a Buffer, then into a new ArrayBuffer) and goes through
 * more promises on the way: here one copy, into the exact-size buffer the cache holds (a chunk
 * may view a larger one). About 4 µs less on a 1 KiB JSON POST on Node 20 (bench/FINDINGS.md,
 * shield fifth pass).
 */
async function readBodyStream(request: Request): Promise<ArrayBuffer> {
  if (request.bodyUsed) throw new TypeError('body used')
  const body = request.body
  if (body === null) return new ArrayBuffer(0)
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let length = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (!(value instanceof Uint8Array)) throw new TypeError('not bytes')
    chunks.push(value)
    length += value.byteLength
  }
  const bytes = new Uint8Array(length)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes.buffer
}

/** `raw` with `body` instead of its own, from its parts; `undefined` where undici refuses them. */
function fromParts(raw: Request, body: ArrayBuffer | string): Request | undefined {
  try {
    const { url, method, headers, signal } = raw
    return new Request(url, { method, headers, body, signal })
  } catch {
    return undefined
  }
}

/**
 * Reads the request body as text without using it up: the handler can still call `c.req.json()`,
 * `c.req.text()` or read `c.req.raw` afterwards. A body Hono already cached is read from the cache;
 * otherwise the body is read once into that cache (see {@link cacheBodyBytes}). Returns `null`
 * when the body cannot be read (a stream error, or a body some earlier code consumed without
 * Hono's cache).
 */
export async function readBodyText(c: Context): Promise<string | null> {
  try {
    if (hasCachedBody(c)) return await c.req.text()
    if (!mayHaveBody(c)) return ''
    // The direct read here rather than in readIntoCache, and readIntoCache and restore() directly,
    // not through cacheBodyBytes: async frames fewer (each one costs a microtask and more).
    let read: Read | null | undefined = readNow(c)
    if (read === undefined && messageBodySoon(c)) {
      await undefined
      read = readNow(c)
    }
    read ??= await readIntoCache(c, true)
    if (read === null) return null
    // Response.text() decodes the same way: UTF-8, a leading BOM dropped, bad bytes as U+FFFD.
    const text = decoder.decode(read.bytes)
    read.restore(text)
    // Cached beside the bytes (which stay first, so blob() and formData() derive from them), so
    // the handler's c.req.json() and text() parse this string instead of decoding the bytes
    // again through a new Response.
    ;(c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text)
    return text
  } catch {
    return null
  }
}

/**
 * Reads the request body as the bytes received, without using it up, like
 * {@link readBodyText}: the handler can still call `c.req.json()`, `text()` or `arrayBuffer()`.
 * Signature checks (webhook) verify these bytes, never a re-serialised copy. Returns `null` when
 * the body cannot be read (a stream error, or consumed outside Hono's cache); an empty array when
 * there is no body.
 */
export async function readBodyBytes(c: Context): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    if (hasCachedBody(c)) return new Uint8Array(await c.req.arrayBuffer())
    if (!mayHaveBody(c)) return new Uint8Array(0)
    // readIntoCache and restore() directly, not through cacheBodyBytes: one async frame fewer.
    const read = await readIntoCache(c)
    if (read === null) return null
    read.restore()
    cacheTextOf(c, read.bytes)
    return new Uint8Array(read.bytes)
  } catch {
    return null
  }
}

/**
 * Reads the request body as bytes into Hono's cache, like {@link readBodyText}: the handler's
 * `c.req.json()`, `text()`… are served from the cache. Call `restore()` before the handler runs:
 * it makes `c.req.raw` readable too (a fresh Request with the same bytes) and adds the cache's
 * decode-once text entry; a middleware that answers without the handler skips both. An empty
 * array when the request provably has no body; `null` when it cannot be read (a stream error, or
 * a body consumed outside Hono's cache).
 */
export async function peekBodyBytes(
  c: Context,
): Promise<{ bytes: Uint8Array; restore: () => void } | null> {
  try {
    if (hasCachedBody(c)) {
      return { bytes: new Uint8Array(await c.req.arrayBuffer()), restore: () => {} }
    }
    if (!mayHaveBody(c)) return { bytes: new Uint8Array(0), restore: () => {} }
    const read = await readIntoCache(c)
    if (read === null) return null
    // The text entry only matters to a handler: a replay, which runs none, skips it with restore.
    const restore = () => {
      cacheTextOf(c, read.bytes)
      read.restore()
    }
    return { bytes: new Uint8Array(read.bytes), restore }
  } catch {
    return null
  }
}

/**
 * Parses a urlencoded or multipart body without using it up, like {@link readBodyText}. Returns
 * `null` when the body is missing, already consumed outside Hono's cache, or not a valid form.
 */
export async function readBodyForm(c: Context): Promise<FormData | null> {
  try {
    if (hasCachedBody(c)) return await c.req.formData()
    if (!mayHaveBody(c)) return null
    const bytes = await cacheBodyBytes(c)
    if (bytes === null) return null
    const type = c.req.header('content-type')
    return await new Response(bytes, type ? { headers: { 'Content-Type': type } } : {}).formData()
  } catch {
    return null
  }
}
