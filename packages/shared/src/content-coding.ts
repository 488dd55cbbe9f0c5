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

/**
 * The headers of a 415 for a body sent with a content coding by a reader that decodes none:
 * `Accept-Encoding: identity` (RFC 9110 §15.5.16, §12.5.3), so the client sends it again
 * uncompressed. Request validation, xssSanitize and ssrfGuard answer with it.
 */
export const SEND_UNCOMPRESSED: Readonly<Record<string, string>> = Object.freeze({
  'Accept-Encoding': 'identity',
})

/**
 * The JSON Schema of such an `Accept-Encoding`, as the documents describe it: content codings
 * (tokens, RFC 9110 §5.6.2) separated by `, `, bounded.
 */
export const ACCEPT_ENCODING_SCHEMA = Object.freeze({
  type: 'string',
  maxLength: 200,
  pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+(, [!#$%&'*+.^_`|~0-9A-Za-z-]+)*$",
} as const)
