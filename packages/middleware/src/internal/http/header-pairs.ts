import type { Context } from 'hono'
import { editFetchHeaders } from './fetch-headers'
import { type HeaderPairs, recordHeaders } from './light-response'

// Fixed header pairs a middleware sets on every response (securityHeaders), in one pass. A file
// of its own so that a middleware that sets single headers (requestId, logger) does not carry it.

export type { HeaderPairs }

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
