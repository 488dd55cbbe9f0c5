// A request body compressed as a client sends it with `Content-Encoding`, by the platform's
// CompressionStream: for the tests of what each body reader does with one.

/** `text` through a CompressionStream of `format`. */
export async function compressed(
  text: string,
  format: CompressionFormat = 'gzip',
): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream(format))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** A POST of `text` gzipped, declared `type` with `Content-Encoding: gzip`. */
export async function gzippedPost(text: string, type = 'application/json'): Promise<RequestInit> {
  return {
    method: 'POST',
    body: await compressed(text),
    headers: { 'content-type': type, 'content-encoding': 'gzip' },
  }
}
