import { readJsonText } from '@palisade/shared/json'
import type { Context } from 'hono'
import { mayHaveBody } from '../internal/http/body'
import { isJsonContentType, readBodyForm, readBodyText } from '../internal/http/json-body'
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
 * declared is inspected as text, and the decision says so. True when inspection found an attack.
 * Runs after `scanRequestParts`, which found the declared type (`scan.contentType`).
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
  if (declared === 'multipart') return scanMultipart(c, scan, fields)
  const text = await readBodyText(c)
  if (text === null) {
    scan.note('body unreadable: not inspected')
    return false
  }
  if (text === '') return false
  scan.bodyChars = text.length
  if (declared === 'json' || LOOKS_LIKE_JSON.test(text)) {
    const read = readJsonText(text)
    if (read.ok) {
      // The handler's c.req.json() copies this value instead of parsing the text again.
      serveParsedJson(c, read.value)
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
