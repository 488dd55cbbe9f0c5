import type { Context } from 'hono'
import { editFetchHeaders } from './fetch-headers'
import { type HeaderEdit, type HeaderPairs, recordHeaders } from './light-response'

export type { HeaderEdit, HeaderPairs }

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
 * Fixed header pairs as `HeaderPairs`: names lower-cased and refused where a record cannot hold
 * them (`Set-Cookie`, whose values are never joined; `__proto__`). Called once, when a
 * middleware is built.
 */
export function headerPairs(pairs: Iterable<readonly [string, string]>): HeaderPairs {
  const out: [string, string][] = []
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase()
    if (lower === 'set-cookie' || lower === '__proto__') throw new TypeError(`header pair: ${name}`)
    out.push([lower, value])
  }
  return out
}

/**
 * Sets fixed pairs on the current response in one pass (`editResponseHeaders` without a closure
 * per request, and on the header record without re-checking each name). `keep`: a header the
 * response already carries keeps its value (securityHeaders leaves a handler's own policy alone).
 */
export function setResponseHeaderPairs(c: Context, pairs: HeaderPairs, keep: boolean): void {
  const record = recordHeaders(c)
  if (record !== undefined) {
    record.setPairs(pairs, keep)
    return
  }
  editFetchHeaders(c, (headers) => {
    for (const [name, value] of pairs) if (!(keep && headers.has(name))) headers.set(name, value)
  })
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
