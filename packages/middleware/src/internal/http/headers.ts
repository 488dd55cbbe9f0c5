import type { Context } from 'hono'
import { editFetchHeaders } from './fetch-headers'
import { type HeaderEdit, recordHeaders } from './light-response'

export type { HeaderEdit }

/**
 * Applies header changes to the current response. On @hono/node-server they go into the
 * lightweight response's own header record (`recordHeaders`), which spares the undici `Headers`
 * round trip. Elsewhere they go into `c.res.headers`. A handler may return a Response whose
 * headers are immutable (`Response.redirect()`, a `fetch()` result); writing to it throws a
 * TypeError, so the response is copied once and the changes are applied to the copy.
 *
 * `Set-Cookie` cannot live in a header record (its values are never joined): use
 * `appendResponseCookie` (fetch-headers.ts).
 */
export function editResponseHeaders(c: Context, apply: (headers: HeaderEdit) => void): void {
  const record = recordHeaders(c)
  if (record !== undefined) apply(record)
  else editFetchHeaders(c, apply)
}

/**
 * Sets one response header: `editResponseHeaders` without allocating a closure per request
 * (only a response with immutable headers takes the copying path).
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const record = recordHeaders(c)
  if (record !== undefined) {
    record.set(name, value)
    return
  }
  try {
    c.res.headers.set(name, value)
  } catch (err) {
    if (!(err instanceof TypeError)) throw err
    editFetchHeaders(c, (headers) => headers.set(name, value))
  }
}
