import { contentCodings, SEND_UNCOMPRESSED } from '@palisade/shared/content-coding'
import { escapeHtml } from '@palisade/shared/html'
import { readJsonText } from '@palisade/shared/json'
import type { Context, MiddlewareHandler } from 'hono'
import { isJsonContentType, readBodyText } from '../internal/http/json-body'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertStringArray,
} from '../internal/options'
import { begin, decide } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { rejectOrRecord, type XssSanitizeRejects } from './answers'
import { xssSanitizeDescription } from './description'

/**
 * Options of {@link xssSanitize}.
 *
 * @example
 * const options: XssSanitizeOptions = { fields: ['text', 'author'], sanitizeQuery: true }
 * app.post('/comments', xssSanitize(options), (c) => c.json(sanitizedBody(c)))
 */
export interface XssSanitizeOptions {
  /**
   * Only string values under these keys are sanitized, wherever the key appears (at any depth,
   * inside arrays too), including every string nested below such a key. Also applies to query
   * parameter names. Default: every string value.
   */
  fields?: readonly string[]
  /** Also sanitize query parameters, read with {@link sanitizedQuery}. @default false */
  sanitizeQuery?: boolean
  /** Replaces each string value. @default HTML entity encoding of `& < > " '` */
  sanitizer?: (value: string) => string
  /**
   * Report instead of refuse: a malformed JSON body passes unsanitized, and its decision is
   * `dry-run` (`malformed_body`). Default `false`.
   */
  dryRun?: boolean
}

/**
 * What {@link xssSanitize} stores in the context under `xssSanitized`.
 *
 * @example
 * app.post('/comments', xssSanitize(), (c) => {
 *   const { body, query }: XssSanitized = c.get('xssSanitized')
 *   return c.json({ body, query })
 * })
 */
export interface XssSanitized {
  /** The sanitized copy of the JSON body; `undefined` when the request had no JSON body. */
  body: unknown
  /** The sanitized query parameters; `undefined` unless `sanitizeQuery` is on. */
  query: Record<string, string> | undefined
}

/**
 * Sanitizes string values of a JSON request body (and, with `sanitizeQuery`, query parameters) for
 * handlers that put user input into HTML. By default `&`, `<`, `>`, `"` and `'` become HTML
 * entities in every string value and every object key at any depth (with `fields`: inside the
 * selected fields).
 *
 * The body bytes are left untouched (read once into Hono's body cache; `c.req.raw` becomes a
 * Request carrying the same bytes), and handlers read the result
 * with {@link sanitizedBody} (and {@link sanitizedQuery}). A JSON content type whose body does not
 * parse is rejected with `400 Malformed JSON` (`malformed_body`), one nested deeper than 1,000
 * levels with `400 JSON nested too deeply` (`body_too_deep`), one sent with a content coding
 * (`Content-Encoding: gzip`, which it cannot read) with `415` (`unsupported_media_type`, with
 * `Accept-Encoding: identity`), as request validation answers them. Keys such
 * as `__proto__` stay plain own data properties; no prototype is ever touched.
 *
 * @param options.fields default: all string values.
 * @param options.sanitizeQuery default `false`.
 * @param options.sanitizer default: HTML entity encoding.
 * @example
 * ```ts
 * app.post('/comments', xssSanitize({ fields: ['text', 'author'] }), (c) => {
 *   const comment = sanitizedBody<{ text: string; author: string }>(c)
 *   return c.html(`<p>${comment?.text}</p>`)
 * })
 * ```
 */
export function xssSanitize(options?: XssSanitizeOptions): MiddlewareHandler & XssSanitizeRejects {
  const FACTORY = 'xssSanitize'
  assertKnownKeys(FACTORY, options, ['fields', 'sanitizeQuery', 'sanitizer', 'dryRun'])
  const fields =
    options?.fields === undefined
      ? undefined
      : new Set(assertStringArray(FACTORY, 'fields', options.fields, { allowEmpty: false }))
  const sanitizeQuery = assertBoolean(FACTORY, 'sanitizeQuery', options?.sanitizeQuery ?? false)
  const dryRun = assertBoolean(FACTORY, 'dryRun', options?.dryRun ?? false)
  const sanitizer =
    options?.sanitizer === undefined
      ? escapeHtml
      : assertFunction<(value: string) => string>(FACTORY, 'sanitizer', options.sanitizer)

  const description = xssSanitizeDescription
  return described(description, async function xssSanitize(c, next) {
    const d = begin(c, FACTORY)
    let body: unknown
    if (isJsonContentType(c.req.header('content-type'))) {
      const coding = c.req.header('content-encoding')
      const codings = coding === undefined ? NONE : contentCodings(coding)
      // Compressed bytes it cannot read as JSON, nor sanitize: refused as request validation
      // refuses them, so the client can send the body again uncompressed.
      if (codings.length > 0) refuseEncoded(d, dryRun, codings)
      else {
        const text = await readBodyText(c)
        if (text === null)
          refuseBody(d, dryRun, 'malformed_body', 'The request body could not be read')
        // An empty body is no body (a GET that carries a JSON content type), not a malformed one.
        else if (text !== '') {
          // The JSON reader request validation uses too: one depth limit, one code per fault.
          const read = readJsonText(text)
          if (read.ok) body = sanitizeJson(read.value, sanitizer, fields)
          else
            refuseBody(
              d,
              dryRun,
              read.reason === 'too_deep' ? 'body_too_deep' : 'malformed_body',
              read.message,
            )
        }
      }
    }
    decide(d, 'allow')
    let query: Record<string, string> | undefined
    if (sanitizeQuery) {
      query = Object.create(null) as Record<string, string>
      for (const [key, value] of Object.entries(c.req.query())) {
        if (fields === undefined) query[sanitizer(key)] = sanitizer(value)
        else query[key] = fields.has(key) ? sanitizer(value) : value
      }
    }
    c.set('xssSanitized', { body, query })
    await next()
  })
}

/** No content coding (most requests): no array made for them. */
const NONE: readonly string[] = []

/** Refuses a JSON body sent with a content coding: 415, `Accept-Encoding: identity`. */
function refuseEncoded(
  d: Parameters<typeof rejectOrRecord>[0],
  dryRun: boolean,
  codings: readonly string[],
): void {
  const message = `Content-Encoding ${codings.join(', ')} is not accepted: send the body without a content coding`
  const errors = [{ in: 'body' as const, path: '', message }]
  rejectOrRecord(
    d,
    dryRun,
    415,
    'Unsupported Media Type',
    'unsupported_media_type',
    SEND_UNCOMPRESSED,
    errors,
  )
}

/**
 * Refuses an unreadable JSON body with the shape request validation gives the same fault: the
 * code, and one `errors` item for the body as a whole (`{ in: 'body', path: '', message }`).
 */
function refuseBody(
  d: Parameters<typeof rejectOrRecord>[0],
  dryRun: boolean,
  code: 'malformed_body' | 'body_too_deep',
  why: string,
): void {
  const errors = [{ in: 'body' as const, path: '', message: why }]
  if (code === 'body_too_deep')
    rejectOrRecord(d, dryRun, 400, 'JSON nested too deeply', 'body_too_deep', undefined, errors)
  else rejectOrRecord(d, dryRun, 400, 'Malformed JSON', 'malformed_body', undefined, errors)
}

/**
 * Sanitizes a freshly parsed JSON value in place. Nobody else holds a reference to it, so no copy
 * is needed, which also means no object is ever rebuilt key by key: a `__proto__` key stays the own
 * data property `JSON.parse` created. Iterative, so depth cannot overflow the stack; every node is
 * visited once, so the cost is linear in the body size.
 */
function sanitizeJson(
  root: unknown,
  sanitize: (value: string) => string,
  fields: ReadonlySet<string> | undefined,
): unknown {
  if (typeof root === 'string') return fields ? root : sanitize(root)
  if (root === null || typeof root !== 'object') return root
  const nodes: object[] = [root]
  const inField: boolean[] = [fields === undefined]
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown> | unknown[]
    const all = inField.pop() as boolean
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const value = node[i]
        if (typeof value === 'string') {
          if (all) node[i] = sanitize(value)
        } else if (value !== null && typeof value === 'object') {
          nodes.push(value)
          inField.push(all)
        }
      }
      continue
    }
    // Keys carry markup too (handlers render label maps): encoded wherever values are. Every
    // renamed key is removed before any is added back, so a new name never clobbers an old
    // one still to be visited (the default encoding is injective: `&` itself is encoded).
    const renamed: [string, string][] = []
    if (all) {
      for (const original of Object.keys(node)) {
        const key = sanitize(original)
        if (key !== original) renamed.push([original, key])
      }
      const values = renamed.map(([original]) => node[original])
      for (const [original] of renamed) delete node[original]
      renamed.forEach(([, key], i) => {
        setOwn(node, key, values[i])
      })
    }
    for (const key of Object.keys(node)) {
      const value = node[key]
      const selected = all || (fields as ReadonlySet<string>).has(key)
      if (typeof value === 'string') {
        if (selected) setOwn(node, key, sanitize(value))
      } else if (value !== null && typeof value === 'object') {
        nodes.push(value)
        inField.push(selected)
      }
    }
  }
  return root
}

function setOwn(node: Record<string, unknown>, key: string, value: unknown): void {
  // Assigning to an own `__proto__` data property is already safe by the letter of the spec;
  // defineProperty makes that independent of any engine or reader's doubt.
  if (key === '__proto__') {
    Object.defineProperty(node, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    })
  } else {
    node[key] = value
  }
}

function stored(c: Context, caller: string): XssSanitized {
  const data = c.get('xssSanitized')
  if (!data) throw new Error(`${caller}: xssSanitize() did not run for this request`)
  return data
}

/**
 * The sanitized JSON body stored by {@link xssSanitize}, typed as `T`; `undefined` when the request
 * had no JSON body. Throws if `xssSanitize()` did not run for the request (a wiring mistake).
 *
 * @example
 * ```ts
 * const { name } = sanitizedBody<{ name: string }>(c) ?? { name: '' }
 * ```
 */
export function sanitizedBody<T = unknown>(c: Context): T | undefined {
  return stored(c, 'sanitizedBody').body as T | undefined
}

/**
 * The sanitized query parameters (first value of each, like `c.req.query()`), when
 * `xssSanitize({ sanitizeQuery: true })` ran; `undefined` otherwise.
 *
 * @example
 * ```ts
 * app.get('/search', xssSanitize({ sanitizeQuery: true }), (c) =>
 *   c.html(`<h1>Results for ${sanitizedQuery(c)?.q ?? ''}</h1>`),
 * )
 * ```
 */
export function sanitizedQuery(c: Context): Record<string, string> | undefined {
  return stored(c, 'sanitizedQuery').query
}
