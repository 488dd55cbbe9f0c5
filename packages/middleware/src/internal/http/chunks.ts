/**
 * The chunks read from a stream, in order, as one array of `length` bytes (their total): the lone
 * chunk itself when there is one, a new array holding each in turn otherwise. bodyLimit's count,
 * idempotency's recording, a JWKS response and a decoded body (content-coding.ts) all read so.
 */
export function joinChunks<Chunk extends Uint8Array>(
  chunks: readonly Chunk[],
  length: number,
): Chunk | Uint8Array<ArrayBuffer> {
  if (chunks.length === 1 && (chunks[0] as Chunk).byteLength === length) return chunks[0] as Chunk
  const out = new Uint8Array(length)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}
