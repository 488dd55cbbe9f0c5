import type { Context } from 'hono'

/**
 * Applies header changes through `c.res.headers`, the standard way on every runtime. A handler may
 * return a Response whose headers are immutable (`Response.redirect()`, a `fetch()` result);
 * writing to it throws a TypeError, so the response is copied once and the changes are applied
 * to the copy. `editResponseHeaders` (headers.ts) adds node-server's faster way in front.
 */
export function editFetchHeaders(c: Context, apply: (headers: Headers) => void): void {
  try {
    apply(c.res.headers)
  } catch (err) {
    if (!(err instanceof TypeError)) throw err
    c.res = new Response(c.res.body, c.res)
    apply(c.res.headers)
  }
}

/**
 * Appends one `Set-Cookie` line to the current response. Always through `c.res.headers`: a header
 * record joins repeated values into one line, which would break cookies.
 */
export function appendResponseCookie(c: Context, cookie: string): void {
  editFetchHeaders(c, (headers) => headers.append('set-cookie', cookie))
}
