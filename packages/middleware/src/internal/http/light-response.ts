import type { Context } from 'hono'
import { lightResponseParts } from './node-server'

/**
 * The header methods the middleware use to edit a finished response. `Headers` has them all; so
 * does the plain-record view below.
 */
export interface HeaderEdit {
  get(name: string): string | null
  has(name: string): boolean
  set(name: string, value: string): void
  append(name: string, value: string): void
  delete(name: string): void
}

/** The view `recordHeaders` hands out: `HeaderEdit`, plus fixed pairs in one pass. */
export interface RecordEdit extends HeaderEdit {
  setPairs(pairs: HeaderPairs, keep: boolean): void
  /** `set` of a name already lower-case and checked where it was fixed (a `HeaderPairs` name). */
  setKnown(name: string, value: string): void
}

/**
 * Header name → value, lower-case names. A plain object, so V8 keeps it in its fast shape: reads
 * check for a string, so inherited members (`constructor`, `toString`) never count as headers.
 */
type HeaderRecord = Record<string, string>

/** @hono/node-server's default for a body without a declared type (its `defaultContentType`). */
const DEFAULT_CONTENT_TYPE = 'text/plain; charset=UTF-8'

/**
 * On a response built here: the view over the record it was built with, the copy only this module
 * holds. While the response's cache still holds that very record, edits go into it in place
 * through that view.
 */
const OWN = Symbol('palisade.headerRecord')

/**
 * The fast way to edit a finished response's headers on @hono/node-server, or `undefined`
 * anywhere else (then the caller edits `c.res.headers`, the standard way).
 *
 * **Why.** node-server (with its default `overrideGlobalObjects`) makes `Response` a lightweight
 * class: `c.json()` answers with an object that keeps status, body string and a plain header
 * record, and the server writes that record straight to the socket. Reading `c.res.headers` turns
 * the record into an undici `Headers`, and the server then copies the `Headers` back into a record
 * (sorted, validated, twice). For the eleven headers securityHeaders, cors and rateLimit set, that
 * round trip cost about a third of bare Hono's whole request over HTTP (bench/FINDINGS.md).
 *
 * **How, with the public constructor only.** The record is copied (lower-case names), the edits
 * go into the copy, and `c.res` becomes `new Response(body, { status, headers: copy })`: the same
 * class, built the documented way, so every later reader (`c.res.headers`, `c.res.text()`,
 * Hono's `c.header()`, the server's writer) sees the edited headers. The caller's own object is
 * never written to: `c.body(x, 200, CONSTANT)` hands node-server a module constant. Later edits
 * to a response built here go into its copy in place, while the response still holds it.
 *
 * **What is read privately, and how it is guarded.** The status, body and header record are read
 * from the instance's cache entry (a symbol-keyed `[status, body, headers]`, read by
 * `lightResponseParts` in node-server.ts, the one module that reads node-server's internals). The
 * class is checked once, through its
 * public API, before it is trusted: a probe built with a known record must show that record
 * under one own symbol, and an edit made to the record after construction must be seen through
 * `.headers`, both before and after the body is materialised. Any other shape (a newer
 * node-server, a subclass, a streamed or Blob body, a record with array values, a response whose
 * `.headers` were already read) takes the standard way, and so does every response when the
 * borrowed internals are switched off (node-server.ts, `__PALISADE_NO_INTERNALS__`).
 *
 * One difference, not on the wire: a rebuilt response's `statusText` is `''`. node-server never
 * writes a custom status text on this path (it calls `writeHead(status, headers)`), so only a
 * later middleware reading `c.res.statusText` could tell.
 */
export function recordHeaders(c: Context): RecordEdit | undefined {
  // A materialised response has dropped its cache entry: then `.headers` is the real one.
  const parts = lightResponseParts(c.res)
  if (parts === undefined) return undefined
  const { status, body, headers } = parts
  const own = (c.res as unknown as Record<symbol, unknown>)[OWN] as RecordView | undefined
  if (own !== undefined && own.record === headers) return own
  if (typeof status !== 'number') return undefined
  if (!(body === null || typeof body === 'string' || body instanceof Uint8Array)) return undefined
  const record = copyRecord(headers, body !== null)
  if (record === undefined) return undefined
  const Light = c.res.constructor as typeof Response
  const rebuilt = new Light(body as BodyInit | null, { status, headers: record })
  const view = new RecordView(record)
  ;(rebuilt as unknown as Record<symbol, unknown>)[OWN] = view
  // Unset first: assigning over a set `c.res` makes Hono copy every header across.
  c.res = undefined
  c.res = rebuilt
  return view
}

/**
 * The header record of a lightweight response, copied with lower-case names; `undefined` when it
 * is not a plain record of strings. Names that differ only in case are joined the way `Headers`
 * joins them (`a, b`). A response with a body and no type gets node-server's default type, as it
 * would on the standard way (the server adds it when it writes a `Headers`).
 */
function copyRecord(headers: unknown, hasBody: boolean): HeaderRecord | undefined {
  const record: HeaderRecord = {}
  if (headers !== undefined && headers !== null) {
    if (typeof headers !== 'object') return undefined
    const proto = Object.getPrototypeOf(headers)
    if (proto !== Object.prototype && proto !== null) return undefined
    for (const name of Object.keys(headers)) {
      const value = (headers as Record<string, unknown>)[name]
      if (typeof value !== 'string') return undefined
      const lower = name.toLowerCase()
      if (Object.hasOwn(record, lower)) {
        if (lower === 'set-cookie') return undefined
        record[lower] = `${record[lower]}, ${value}`
      } else if (lower === '__proto__') return undefined
      else record[lower] = value
    }
  }
  if (hasBody && !Object.hasOwn(record, 'content-type'))
    record['content-type'] = DEFAULT_CONTENT_TYPE
  return record
}

/**
 * `Headers`' semantics over a lower-case record, for the middleware's own edits: names are
 * case-insensitive and `append` joins with `, `. Values are not re-checked here: the middleware
 * check theirs when they are built (`HEADER_VALUE`), a request's own values come through Node's
 * parser, and Node's `writeHead` refuses a name or value that could split a header
 * (`ERR_INVALID_CHAR`), as on node-server's own plain path. `Set-Cookie` is the one field a
 * joined value would break: it is refused here, and cookies go through `c.res.headers`
 * (`appendResponseCookie`).
 */
class RecordView implements RecordEdit {
  readonly #record: HeaderRecord
  constructor(record: HeaderRecord) {
    this.#record = record
  }
  /** The record edited (compared with the response's cache entry before the view is reused). */
  get record(): HeaderRecord {
    return this.#record
  }
  get(name: string): string | null {
    const value = this.#record[name.toLowerCase()]
    return typeof value === 'string' ? value : null
  }
  has(name: string): boolean {
    return typeof this.#record[name.toLowerCase()] === 'string'
  }
  set(name: string, value: string): void {
    this.#record[fieldName(name)] = String(value)
  }
  append(name: string, value: string): void {
    const lower = fieldName(name)
    const prior = this.#record[lower]
    this.#record[lower] = typeof prior === 'string' ? `${prior}, ${value}` : String(value)
  }
  delete(name: string): void {
    const lower = name.toLowerCase()
    if (Object.hasOwn(this.#record, lower)) delete this.#record[lower]
  }
  /** `set` without its lower-casing and checks: `name` is a lower-case constant checked once. */
  setKnown(name: string, value: string): void {
    this.#record[name] = value
  }
  /**
   * Sets fixed pairs in one pass, each name used as the key as it is: the caller's names are
   * lower-case constants checked once where they were built (`HeaderPairs`), so the per-call
   * lower-casing and checks of `set` are skipped. `keep`: a name the response already has stays.
   */
  setPairs(pairs: HeaderPairs, keep: boolean): void {
    const record = this.#record
    for (const [name, value] of pairs) {
      if (keep && typeof record[name] === 'string') continue
      record[name] = value
    }
  }
}

/**
 * Header pairs fixed when a middleware is built: lower-case names (never `set-cookie` or
 * `__proto__`, see `headerPairs`) and values already checked.
 */
export type HeaderPairs = ReadonlyArray<readonly [name: string, value: string]>

/** A name as a record key; `Set-Cookie` (see above) and `__proto__` have no place in a record. */
function fieldName(name: string): string {
  const lower = name.toLowerCase()
  if (lower === 'set-cookie' || lower === '__proto__') throw new TypeError(`header record: ${name}`)
  return lower
}
