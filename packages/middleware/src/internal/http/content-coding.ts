// A request body's content codings (RFC 9110 §8.4: `Content-Encoding: gzip`) undone with the web's
// DecompressionStream, to a bounded length: what a middleware that reads a body for what it says
// (shield) needs when the application decodes compressed bodies itself. The runtime never decodes
// a request body, and neither does Hono.

import { joinChunks } from './chunks'

/** What {@link decodeContent} made of a body. */
export type DecodedContent =
  /** The decoded bytes, whole (`complete`) or their first `limit` bytes. */
  | { readonly bytes: Uint8Array<ArrayBuffer>; readonly complete: boolean }
  /**
   * A coding DecompressionStream does not undo here: `compress` or an unknown name anywhere,
   * `br` where the runtime has no `brotli` format (Node 20, Workers), `zstd` where it has no
   * `zstd` (all but Bun).
   */
  | { readonly unsupported: string }
  /** A coding it undoes, on bytes that are not in it. */
  | { readonly failed: string }

/**
 * DecompressionStream's formats: the standard's three, and `brotli` and `zstd`, which some
 * runtimes add (Node 22 and later, Bun and Deno decode `brotli`; Bun `zstd`).
 */
type Format = CompressionFormat | 'brotli' | 'zstd'

/**
 * The codings undone, by their names in `Content-Encoding` (`x-gzip` is gzip, RFC 9110 §8.4.1.3;
 * `br` is RFC 7932, `zstd` RFC 8878): those the runtime's DecompressionStream has ({@link decodes}).
 */
const FORMATS: Readonly<Record<string, Format>> = {
  gzip: 'gzip',
  'x-gzip': 'gzip',
  deflate: 'deflate',
  br: 'brotli',
  zstd: 'zstd',
}

/**
 * The codings {@link decodeContent} undoes on this runtime, by their `Content-Encoding` names
 * (`x-gzip` left out, as gzip's alias): for an `Accept-Encoding` answered with a 415.
 *
 * @example
 * decodedCodings() // ['gzip', 'deflate', 'br'] on Node 24
 */
export function decodedCodings(): string[] {
  return Object.entries(FORMATS)
    .filter(([coding, format]) => coding !== 'x-gzip' && supported(format))
    .map(([coding]) => coding)
}

/** Whether this runtime's DecompressionStream has `format`, asked once per format. */
const decodes = new Map<Format, boolean>()

function supported(format: Format): boolean {
  let known = decodes.get(format)
  if (known === undefined) {
    try {
      new DecompressionStream(format as CompressionFormat)
      known = true
    } catch {
      known = false
    }
    decodes.set(format, known)
  }
  return known
}

/** More codings than any client stacks: a longer list is refused, not undone one by one. */
const MAX_CODINGS = 4

/**
 * Compressed bytes given to the decoder at a time. Deflate expands a byte to about a thousand at
 * most, so one slice makes a megabyte at most however the runtime buffers its output: a body
 * built to expand (a "zip bomb") is cut at `limit` after about that much work, never held whole.
 * Brotli and zstd expand far more (a few bytes can stand for megabytes of zeros): there the cut
 * relies on the runtime handing its output over as it makes it, which each runtime that has
 * them does (content-coding.test.ts decodes such bodies of gigabytes).
 */
const SLICE = 1024

/**
 * Undoes `codings` (as `contentCodings` of @palisade/shared/content-coding lists them) on `bytes`, the last applied first,
 * keeping at most `limit` bytes of the result: a body that decodes longer is cut there
 * (`complete: false`), and so is one whose coding under another decodes far longer than the
 * body received (a compressed body built to expand, inside another). HTTP's `deflate` is the zlib format; a raw deflate stream, which some
 * clients send under that name, is undone too, as lenient servers do.
 */
export async function decodeContent(
  bytes: Uint8Array<ArrayBuffer>,
  codings: readonly string[],
  limit: number,
): Promise<DecodedContent> {
  if (codings.length > MAX_CODINGS) return { unsupported: codings.join(', ') }
  for (const coding of codings) {
    const format = FORMATS[coding]
    if (format === undefined || !supported(format)) return { unsupported: coding }
  }
  let current = bytes
  let complete = true
  // A coding under another is compressed data, about as long as the body received: it is kept
  // to four times that (or `limit`), so a stack decodes whole where its result fits the limit.
  const between = Math.max(limit, 4 * bytes.byteLength)
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i] as string
    const format = FORMATS[coding] as Format
    const keep = i === 0 ? limit : between
    let out = await inflate(current, format, keep, complete)
    if (out === undefined && format === 'deflate') {
      out = await inflate(current, 'deflate-raw', keep, complete)
    }
    if (out === undefined) return { failed: coding }
    current = out.bytes
    complete &&= out.complete
  }
  return { bytes: current, complete }
}

/**
 * `input` through a DecompressionStream of `format`: its first `limit` bytes, and whether that
 * was all; `undefined` where the input is not in that format (or ends inside it). An input that
 * is itself cut (`whole` false: an outer coding's output cut at the limit) ends inside its
 * stream: what it decoded to before that is kept, as cut.
 */
async function inflate(
  input: Uint8Array<ArrayBuffer>,
  format: Format,
  limit: number,
  whole: boolean,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; complete: boolean } | undefined> {
  const stream = new DecompressionStream(format as CompressionFormat)
  const writer = stream.writable.getWriter()
  const reader = stream.readable.getReader()
  // Fed in slices while the output is read: the reader stops the feeding by cancelling.
  const feeding = (async () => {
    for (let at = 0; at < input.length; at += SLICE) {
      await writer.write(input.subarray(at, at + SLICE))
    }
    await writer.close()
  })()
  // Its rejection is the reader's to report (an error, or the cancel below): never unhandled.
  feeding.catch(() => {})
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let length = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const room = limit - length
      if (value.byteLength > room) {
        if (room > 0) chunks.push(value.subarray(0, room))
        length = limit
        await reader.cancel().catch(() => {})
        return { bytes: joinChunks(chunks, length), complete: false }
      }
      chunks.push(value)
      length += value.byteLength
    }
    await feeding
  } catch {
    return whole ? undefined : { bytes: joinChunks(chunks, length), complete: false }
  }
  return { bytes: joinChunks(chunks, length), complete: true }
}
