// A request body's content codings as `Content-Encoding` lists them (RFC 9110 §8.4): what shield
// decodes (@palisade/middleware's internal/http/content-coding.ts) and what request validation
// refuses (@palisade/openapi's validate/read.ts), read the same way by both.

/**
 * The codings of a `Content-Encoding` value, in the order they were applied (lower case, without
 * `identity`); an empty list when there is nothing to undo.
 *
 * @example
 * contentCodings('gzip') // ['gzip']
 * contentCodings('identity') // []
 */
export function contentCodings(header: string): string[] {
  const codings: string[] = []
  for (const part of header.split(',')) {
    const coding = part.trim().toLowerCase()
    if (coding !== '' && coding !== 'identity') codings.push(coding)
  }
  return codings
}
