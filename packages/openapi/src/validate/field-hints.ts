import type { FieldHints } from '@palisade/shared/field-hints'
import { isRecord } from '../schema/common'
import { type SchemaConverter, toOpenAPISchema } from '../schema/convert'
import { unescapeToken } from '../schema/json-pointer'
import type { OpenAPISchema } from '../schema/types'
import { type JSONSchemaValidator, type RequestSchemas, resolveValidator } from './validator'

/** String formats whose values validation pins down: nothing free-form gets past it. */
const PINNED_FORMATS = new Set(['uuid', 'date', 'date-time', 'email'])
/** JSON types that hold no text. */
const TEXTLESS = new Set(['number', 'integer', 'boolean', 'null'])
/** Deepest schema nesting read (recursive schemas stop here: below, fields count as free text). */
const MAX_DEPTH = 32

/** What a body schema says of its fields: the pointers that hold no free text, and whether any does. */
export interface BodyFields {
  readonly skip: string[]
  /** Some field (or the body itself) can hold free text. */
  readonly freeText: boolean
}

const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** `$ref: '#/$defs/Name'` (or `#/components/schemas/Name`) resolved within `root`. */
function resolve(node: OpenAPISchema, root: OpenAPISchema): OpenAPISchema | undefined {
  const ref = (node as { $ref?: unknown }).$ref
  if (typeof ref !== 'string') return node
  const match = /^#\/(?:\$defs|definitions|components\/schemas)\/(.+)$/.exec(ref)
  const defs =
    (root as Record<string, unknown>).$defs ?? (root as Record<string, unknown>).definitions
  const name = match?.[1] === undefined ? undefined : unescapeToken(match[1])
  const target = name !== undefined && isRecord(defs) ? defs[name] : undefined
  return isRecord(target) ? (target as OpenAPISchema) : undefined
}

/** Whether `s` can only hold a value validation pins down (no free text). */
function pinned(s: OpenAPISchema): boolean {
  if ((s as Record<string, unknown>)['x-palisade-shield'] === false) return true
  if (s.const !== undefined || Array.isArray(s.enum)) return true
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type]
  if (types.length > 0 && types.every((t) => TEXTLESS.has(t))) return true
  if (types.length > 0 && types.every((t) => t === 'string' || t === 'null')) {
    return typeof s.format === 'string' && PINNED_FORMATS.has(s.format)
  }
  const choices = (s.anyOf ?? s.oneOf) as OpenAPISchema[] | undefined
  return (
    Array.isArray(choices) && choices.length > 0 && choices.every((c) => isRecord(c) && pinned(c))
  )
}

/**
 * Walks a body's JSON Schema: each field it pins down (number, integer, boolean, enum, const,
 * string of format uuid, date, date-time or email, or `x-palisade-shield: false`) becomes a
 * pointer to skip; objects and arrays are walked (`*` for array items and additional properties).
 * A union of objects, a `$ref` that does not resolve, or anything else is free text.
 */
export function bodyFields(schema: OpenAPISchema): BodyFields {
  const skip: string[] = []
  let freeText = false
  const walk = (raw: OpenAPISchema, pointer: string, depth: number) => {
    const s = resolve(raw, schema)
    if (s === undefined || depth > MAX_DEPTH) {
      freeText = true
      return
    }
    if (pinned(s)) {
      skip.push(pointer)
      return
    }
    const all = Array.isArray(s.allOf) ? (s.allOf as OpenAPISchema[]) : []
    const properties = { ...s.properties }
    for (const part of all) Object.assign(properties, resolve(part, schema)?.properties)
    const keys = Object.keys(properties)
    const walked = keys.length > 0 || s.items !== undefined || isRecord(s.additionalProperties)
    for (const key of keys)
      walk(properties[key] as OpenAPISchema, `${pointer}/${escapeKey(key)}`, depth + 1)
    if (isRecord(s.additionalProperties)) walk(s.additionalProperties, `${pointer}/*`, depth + 1)
    if (isRecord(s.items)) walk(s.items, `${pointer}/*`, depth + 1)
    if (!walked) freeText = true
  }
  walk(schema, '', 0)
  return { skip, freeText }
}

/**
 * What a route whose request validator will check its body (`request.body` or `request.form`,
 * with a validator of its own or `jsonSchemaValidator`) says of its fields, or `undefined`: a body
 * nobody validates has no field shield may trust to be pinned down.
 */
export function routeBodyFields(
  request: RequestSchemas | undefined,
  options: {
    jsonSchemaValidator?: JSONSchemaValidator | undefined
    converters?: Readonly<Record<string, SchemaConverter>> | undefined
  },
): BodyFields | undefined {
  const schema = request?.body ?? request?.form
  if (schema === undefined || !resolveValidator(schema, options.jsonSchemaValidator))
    return undefined
  try {
    const converters = options.converters
    return bodyFields(toOpenAPISchema(schema, converters ? { converters } : {}))
  } catch {
    return undefined
  }
}

/** The hints to put on the route's validator: the pointers to skip, when there are any. */
export function hintsOf(fields: BodyFields | undefined): FieldHints | undefined {
  return fields !== undefined && fields.skip.length > 0 ? { skip: fields.skip } : undefined
}
