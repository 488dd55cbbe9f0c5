import type { Context } from 'hono'
import { requestHeaderEntries } from '../internal/http/header-entries'
import { markOf, type PointerTrie, step } from './pointers'
import { type Scan, safeName } from './scan'

/**
 * Request headers shield does not read: they carry credentials or signatures (random by design,
 * and never worth copying into a log's location), or are read elsewhere (`Cookie`, parsed as
 * cookies; `Content-Length`, a number the runtime checks). Lower case.
 */
export const UNREAD_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'content-length',
  'x-api-key',
  'api-key',
  'apikey',
  'x-auth-token',
  'x-access-token',
  'x-amz-security-token',
  'x-csrf-token',
  'x-xsrf-token',
  'csrf-token',
  'dpop',
  'signature',
  'signature-input',
  'content-digest',
  'repr-digest',
  'digest',
  'x-signature',
  'x-hub-signature',
  'x-hub-signature-256',
  'stripe-signature',
  'webhook-signature',
  'svix-signature',
])

/** The path as the client sent it (percent-encoding kept: the engine decodes as an attacker encodes). */
export function rawPath(url: string): { path: string; query: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start === -1) return { path: '/', query: '' }
  const q = url.indexOf('?', start)
  const hash = url.indexOf('#', start)
  const end = q === -1 ? (hash === -1 ? url.length : hash) : q
  const query = q === -1 ? '' : url.slice(q + 1, hash > q ? hash : url.length)
  return { path: url.slice(start, end), query }
}

/**
 * Checks the path, every query parameter (names and values, each value of a repeated name, and
 * the repeated values joined by commas, as some frameworks join them), the headers outside
 * {@link UNREAD_HEADERS}, then the cookies. True when one fired (`scan.hit`). Sets
 * `scan.contentType` and `scan.contentEncoding` on the way, for {@link scanBody}.
 */
export function scanRequestParts(c: Context, scan: Scan): boolean {
  const { path, query } = rawPath(c.req.url)
  if (scan.check(path, 'path', 'path')) return true
  if (query !== '' && scanPairs(new URLSearchParams(query), scan, 'query', 'query')) return true
  // The headers are listed once: the Cookie and Content-Type values are taken on the way, not
  // asked for again (each `Headers.get` validates and lower-cases its argument and looks it up).
  // Iteration gives each name once, lower case, with the value `get` gives (its copies
  // combined), but for `Set-Cookie`, each copy on its own. On @hono/node-server the same pairs
  // come from the socket message, so its request need not build a `Headers` for this walk.
  let cookie: string | undefined
  for (const [name, value] of requestHeaderEntries(c)) {
    if (name === 'content-type') scan.contentType = value
    else if (name === 'content-encoding') scan.contentEncoding = value
    if (UNREAD_HEADERS.has(name)) {
      if (name === 'cookie') cookie = value
      continue
    }
    const found = scan.verdict(value, name === 'user-agent' ? 'user-agent' : 'header')
    if (found !== undefined) return scan.fired(found, `header:${name}`)
  }
  return cookie !== undefined && scanCookies(cookie, scan)
}

/**
 * Checks name/value pairs (a query string, a urlencoded body): each name as a name, each value
 * as `kind`, and the values of a repeated name joined by `,` (what a handler reading it as one
 * value may see). `area` starts each location (`query:q`, `body:/q`).
 */
export function scanPairs(
  pairs: Iterable<[string, string]>,
  scan: Scan,
  kind: 'query' | 'body',
  area: 'query' | 'body',
  fields?: PointerTrie,
): boolean {
  const seen = new Map<string, string[]>()
  let repeated = false
  const sep = area === 'body' ? '/' : ':'
  for (const [name, value] of pairs) {
    const where = () => `${area}${sep}${safeName(name)}`
    if (kind === 'body') {
      if (scan.body(name, 'name', () => `${area}-name`)) return true
      if (skipped(fields, name)) continue
      if (scan.body(value, kind, where, name)) return true
    } else {
      if (scan.check(name, 'name', `${area}-name`)) return true
      if (scan.check(value, kind, where, name)) return true
    }
    const values = seen.get(name)
    if (values === undefined) seen.set(name, [value])
    else {
      values.push(value)
      repeated = true
    }
  }
  if (!repeated) return false
  for (const [name, values] of seen) {
    if (values.length < 2) continue
    const joined = values.join(',')
    const where = () => `${area}${sep}${safeName(name)}`
    if (
      kind === 'body' ? scan.body(joined, kind, where, name) : scan.check(joined, kind, where, name)
    ) {
      return true
    }
  }
  return false
}

/** Whether the pointers mark the form field `name` (`/name`) as not free text. */
export function skipped(fields: PointerTrie | undefined, name: string): boolean {
  return fields !== undefined && markOf(step([fields], name)) === 'skip'
}

/** Checks each `name=value` of a Cookie header (every copy of a repeated name). */
function scanCookies(header: string, scan: Scan): boolean {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    const name = (eq === -1 ? part : part.slice(0, eq)).trim()
    const value = eq === -1 ? '' : part.slice(eq + 1).trim()
    if (scan.check(name, 'name', 'cookie-name')) return true
    const found = scan.verdict(value, 'cookie', name)
    if (found !== undefined) return scan.fired(found, `cookie:${safeName(name)}`)
  }
  return false
}
