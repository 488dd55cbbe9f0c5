import type { Context } from 'hono'

/**
 * Applies header changes to the current response. A handler may return a Response whose headers
 * are immutable (`Response.redirect()`, a `fetch()` result); writing to it throws a TypeError, so
 * the response is copied once and the changes are applied to the copy.
 */
export function editResponseHeaders(c: Context, apply: (headers: Headers) => void): void {
  try {
    apply(c.res.headers)
  } catch (err) {
    if (!(err instanceof TypeError)) throw err
    c.res = new Response(c.res.body, c.res)
    apply(c.res.headers)
  }
}

/**
 * Sets one response header: `editResponseHeaders` without allocating a closure per request
 * (only a response with immutable headers takes the copying path).
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value)
  } catch (err) {
    if (!(err instanceof TypeError)) throw err
    editResponseHeaders(c, (headers) => headers.set(name, value))
  }
}

/** An RFC 9110 token: header names and method names (the grammar both packages share). */
export { TOKEN } from '@palisade/shared/token'

/** A header value without control characters (no CR/LF/NUL), so it cannot split a header. */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
