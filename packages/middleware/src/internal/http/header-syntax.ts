/** An RFC 9110 token: header names and method names (the grammar both packages share). */
export { TOKEN } from '@palisade/shared/token'

/** A header value without control characters (no CR/LF/NUL), so it cannot split a header. */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
