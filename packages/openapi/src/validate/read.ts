// Reading the parts of a request a route validates: the body by its media type, the query with
// repeated keys as lists, the headers under the names the schema spells.
import { contentCodings, SEND_UNCOMPRESSED } from '@palisade/shared/content-coding'
import { readJsonText } from '@palisade/shared/json'
import type { Context } from 'hono'
import { isRecord } from '../schema/common'
import { toOpenAPISchema } from '../schema/convert'
import type { OpenAPISchema } from '../schema/types'
import type { ValidationCode } from './problem'

const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json$/
const FORM_MEDIA = new Set(['multipart/form-data', 'application/x-www-form-urlencoded'])

/** Property names an object schema declares as arrays: their values are always lists. */
export function arrayKeys(schema: unknown): Set<string> {
  const keys = new Set<string>()
  const visit = (s: OpenAPISchema) => {
    for (const part of s.allOf ?? []) visit(part)
    if (!isRecord(s.properties)) return
    for (const [key, prop] of Object.entries(s.properties)) {
      const types = [prop.type, ...(prop.anyOf ?? []).map((o) => o.type)].flat()
      if (types.includes('array')) keys.add(key)
    }
  }
  try {
    visit(toOpenAPISchema(schema))
  } catch {
    // not convertible: registration reports it when the document is built
  }
  return keys
}

function listify(values: Record<string, unknown>, arrays: Set<string>): Record<string, unknown> {
  for (const key of arrays) {
    const v = values[key]
    if (v !== undefined && !Array.isArray(v)) values[key] = [v]
  }
  return values
}

/**
 * A body that could not be read as the route expects (wrong or missing media type, empty,
 * unparsable): the request fails before any schema runs.
 */
export class UnreadableBody {
  constructor(
    readonly code: ValidationCode,
    readonly message: string,
    /** Headers of the answer: `Accept-Encoding` on the 415 for a content coding. */
    readonly headers?: Record<string, string>,
  ) {}
}

/**
 * A body sent with a content coding (`Content-Encoding: gzip`): neither the runtime nor Hono
 * decodes a request body, so its compressed bytes would be read as JSON or a form and refused as
 * malformed. It is refused as what it is, 415 with `Accept-Encoding: identity` (RFC 9110
 * §15.5.16, §12.5.3): the client can send it again uncompressed. An application that takes
 * compressed bodies decodes them before validation and drops the header.
 */
function encodedBody(c: Context): UnreadableBody | undefined {
  const header = c.req.header('content-encoding')
  if (header === undefined) return undefined
  const codings = contentCodings(header)
  if (codings.length === 0) return undefined
  return new UnreadableBody(
    'unsupported_media_type',
    `Content-Encoding ${codings.join(', ')} is not accepted: send the body without a content coding`,
    { ...SEND_UNCOMPRESSED },
  )
}

const mediaType = (c: Context): string => {
  const header = c.req.header('content-type')
  return header === undefined ? '' : (header.split(';')[0] as string).trim().toLowerCase()
}

export async function readJSON(c: Context): Promise<unknown> {
  const encoded = encodedBody(c)
  if (encoded !== undefined) return encoded
  const media = mediaType(c)
  if (media !== '' && !JSON_MEDIA.test(media))
    return new UnreadableBody('unsupported_media_type', `Expected application/json, got ${media}`)
  let text: string
  try {
    text = await c.req.text()
  } catch {
    return new UnreadableBody('malformed_body', 'The request body could not be read')
  }
  if (text.trim() === '') return new UnreadableBody('malformed_body', 'The request body is empty')
  if (media === '')
    return new UnreadableBody(
      'unsupported_media_type',
      'Expected application/json, got no Content-Type',
    )
  // The reader xssSanitize uses too: a body nested too deep is refused before any schema walks
  // it (a recursive schema would overflow the stack), and named for what it is.
  const read = readJsonText(text)
  if (read.ok) return read.value
  return new UnreadableBody(
    read.reason === 'too_deep' ? 'body_too_deep' : 'malformed_body',
    read.message,
  )
}

export async function readForm(c: Context, arrays: Set<string>): Promise<unknown> {
  const encoded = encodedBody(c)
  if (encoded !== undefined) return encoded
  const media = mediaType(c)
  if (media !== '' && !FORM_MEDIA.has(media))
    return new UnreadableBody(
      'unsupported_media_type',
      `Expected multipart/form-data or application/x-www-form-urlencoded, got ${media}`,
    )
  if (media === '') {
    const text = await c.req.text().catch(() => '')
    if (text !== '')
      return new UnreadableBody(
        'unsupported_media_type',
        'Expected multipart/form-data or application/x-www-form-urlencoded, got no Content-Type',
      )
    return {}
  }
  try {
    const form = await c.req.parseBody({ all: true })
    return listify({ ...form }, arrays)
  } catch {
    return new UnreadableBody('malformed_body', 'The request body is not a valid form')
  }
}

export function readQuery(c: Context, arrays: Set<string>): Record<string, unknown> {
  // No prototype: `?__proto__=a&__proto__=b` is a key like any other, never the object's prototype.
  const out: Record<string, unknown> = Object.create(null)
  for (const [key, values] of Object.entries(c.req.queries())) {
    out[key] = arrays.has(key) || values.length > 1 ? values : values[0]
  }
  return out
}

export function headerReader(schema: unknown): (c: Context) => Record<string, unknown> {
  // Hono gives lower-case names; a schema may spell them `X-Api-Key`.
  let declared: string[] = []
  try {
    const s = toOpenAPISchema(schema)
    declared = isRecord(s.properties) ? Object.keys(s.properties) : []
  } catch {
    declared = []
  }
  const renamed = declared.filter((name) => name !== name.toLowerCase())
  return (c) => {
    const all: Record<string, unknown> = c.req.header()
    for (const name of renamed) {
      const lower = name.toLowerCase()
      if (lower in all) {
        all[name] = all[lower]
        delete all[lower]
      }
    }
    return all
  }
}
