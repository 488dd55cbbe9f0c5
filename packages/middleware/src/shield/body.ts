import { contentCodings } from '@palisade/shared/content-coding'
import { readJsonText } from '@palisade/shared/json'
import type { Context } from 'hono'
import { mayHaveBody } from '../internal/http/body'
import { decodeContent } from '../internal/http/content-coding'
import {
  isJsonContentType,
  readBodyBytes,
  readBodyForm,
  readBodyText,
} from '../internal/http/json-body'
import { serveParsedJson } from '../internal/http/parsed-json'
import { scanPairs, skipped } from './inputs'
import { NONE, type PointerTrie } from './pointers'
import { type Scan, safeName } from './scan'
import { scanJson } from './walk-json'
import { scanXml } from './walk-xml'

/** The body's declared kind, from its media type (parameters and case ignored). */
type Declared = 'json' | 'form' | 'multipart' | 'xml' | 'text' | 'other' | 'none'

function declaredKind(header: string | undefined): Declared {
  if (header === undefined || header.trim() === '') return 'none'
  if (isJsonContentType(header)) return 'json'
  const media = (header.split(';')[0] ?? '').trim().toLowerCase()
  if (media === 'application/x-www-form-urlencoded') return 'form'
  if (media === 'multipart/form-data') return 'multipart'
  if (media === 'application/xml' || media === 'text/xml' || media.endsWith('+xml')) return 'xml'
  if (media.startsWith('text/')) return 'text'
  return 'other'
}

/** A first character of a JSON object or array body, after white space. */
const LOOKS_LIKE_JSON = /^\s*[[{]/

/**
 * Reads the body through the one body reader (it stays readable by the handler) and inspects it
 * by its declared type: JSON walked value by value (keys as names), forms field by field,
 * multipart's text fields and file names, XML's text, attributes and declarations, anything else
 * as text. Whatever the declared type, a body that parses as JSON is also walked as JSON (a
 * handler may call `c.req.json()` whatever the client declared). A body that does not parse as
 * declared is inspected as text, and the decision says so. A body sent compressed
 * (`Content-Encoding: gzip` or `deflate`) is inspected decoded ({@link scanEncoded}). True when
 * inspection found an attack. Runs after `scanRequestParts`, which found the declared type and
 * coding (`scan.contentType`, `scan.contentEncoding`).
 */
export async function scanBody(
  c: Context,
  scan: Scan,
  fieldsOf: (c: Context) => PointerTrie | undefined,
): Promise<boolean> {
  if (!mayHaveBody(c)) return false
  // The route's field hints are looked up only for a request that has a body.
  const fields = fieldsOf(c)
  const declared = declaredKind(scan.contentType)
  if (scan.contentEncoding !== undefined) {
    const codings = contentCodings(scan.contentEncoding)
    if (codings.length > 0) return scanEncoded(c, scan, fields, declared, codings)
  }
  if (declared === 'multipart') return scanMultipart(c, scan, fields)
  const text = await readBodyText(c)
  if (text === null) {
    scan.note('body unreadable: not inspected')
    return false
  }
  if (text === '') return false
  return scanText(c, scan, fields, declared, text, true)
}

/**
 * Inspects a body's text by its declared type (see {@link scanBody}). `serves`: the text is the
 * one the handler's `c.req.json()` parses, so a JSON value parsed here is handed to it.
 */
function scanText(
  c: Context,
  scan: Scan,
  fields: PointerTrie | undefined,
  declared: Declared,
  text: string,
  serves: boolean,
): boolean {
  scan.bodyChars = text.length
  if (declared === 'json' || LOOKS_LIKE_JSON.test(text)) {
    const read = readJsonText(text)
    if (read.ok) {
      // The handler's c.req.json() copies this value instead of parsing the text again.
      if (serves) serveParsedJson(c, read.value)
      if (declared !== 'json') scan.note(`body declared ${declared}: parsed as JSON`)
      return scanJson(read.value, scan, fields ? [fields] : NONE)
    }
    if (declared === 'json') {
      const why = read.reason === 'too_deep' ? 'nested too deeply' : 'not valid JSON'
      scan.note(`body ${why}: inspected as text`)
    }
  }
  if (declared === 'form') {
    return scanPairs(new URLSearchParams(text), scan, 'body', 'body', fields)
  }
  if (declared === 'xml') return scanXml(text, scan)
  if (declared === 'other' && text.slice(0, 1024).includes('\ufffd')) {
    scan.note('binary body: not inspected')
    return false
  }
  return scan.body(text, 'body', () => 'body')
}

/**
 * A body sent compressed. Neither the runtime nor Hono decodes a request body, so a handler that
 * accepts compressed bodies decodes them itself, and an attack inside would pass a shield that
 * read the compressed bytes. gzip and deflate are decoded (DecompressionStream) up to
 * `maxInspectBytes` of output, so a body built to expand costs no more than the cap, and inspected
 * as the declared type; the handler still gets the bytes as sent. br and zstd are decoded where
 * the runtime's DecompressionStream has them (brotli: Node 22 and later, Bun, Deno; zstd: Bun).
 * A coding the runtime does not decode is not inspected; bytes that are not in their declared
 * coding are inspected as sent (the handler could not decode them either). The decision says which.
 */
async function scanEncoded(
  c: Context,
  scan: Scan,
  fields: PointerTrie | undefined,
  declared: Declared,
  codings: readonly string[],
): Promise<boolean> {
  const bytes = await readBodyBytes(c)
  if (bytes === null) {
    scan.note('body unreadable: not inspected')
    return false
  }
  if (bytes.byteLength === 0) return false
  const decoded = await decodeContent(bytes, codings, scan.maxInspect)
  if ('unsupported' in decoded) {
    scan.note(`body encoded ${decoded.unsupported}: not inspected`)
    scan.uninspected = 'coding'
    return false
  }
  if ('failed' in decoded) {
    scan.note(`body not valid ${decoded.failed}: inspected as sent`)
    const sent = await readBodyText(c)
    if (sent === null || sent === '') return false
    return scanText(c, scan, fields, declared === 'multipart' ? 'other' : declared, sent, false)
  }
  const coding = codings.join(', ')
  if (!decoded.complete) scan.uninspected = 'over-cap'
  scan.note(
    decoded.complete
      ? `body decoded from ${coding}`
      : `body decoded from ${coding}: its first ${scan.maxInspect} bytes inspected`,
  )
  if (declared === 'multipart') {
    const type = scan.contentType as string
    const form = await new Response(decoded.bytes, { headers: { 'Content-Type': type } })
      .formData()
      .catch(() => null)
    if (form !== null) return scanForm(form, scan, fields)
    scan.note('body not valid multipart: inspected as text')
    declared = 'text'
  }
  return scanText(c, scan, fields, declared, DECODER.decode(decoded.bytes), false)
}

/** Decodes as the body reader does: UTF-8, a leading BOM dropped, bad bytes as U+FFFD. */
const DECODER = new TextDecoder()

/** A multipart body: each text field (name and value) and each file's name; file contents are not read. */
async function scanMultipart(
  c: Context,
  scan: Scan,
  fields: PointerTrie | undefined,
): Promise<boolean> {
  const form = await readBodyForm(c)
  if (form === null) {
    // Not a valid multipart body (a lying boundary): read as text, as a lenient parser might.
    const text = await readBodyText(c)
    if (text === null || text === '') return false
    scan.note('body not valid multipart: inspected as text')
    scan.bodyChars = text.length
    return scan.body(text, 'body', () => 'body')
  }
  return scanForm(form, scan, fields)
}

/** Each text field of a multipart form (name and value) and each file's name. */
function scanForm(form: FormData, scan: Scan, fields: PointerTrie | undefined): boolean {
  for (const [name, value] of form) {
    if (scan.body(name, 'name', () => 'body-name')) return true
    if (typeof value === 'string') {
      scan.bodyChars += value.length
      if (skipped(fields, name)) continue
      if (scan.body(value, 'body', () => `body:/${safeName(name)}`, name)) return true
    } else if (scan.body(value.name, 'name', () => `body-filename:/${safeName(name)}`)) {
      return true
    }
  }
  return false
}
