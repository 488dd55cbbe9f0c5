import {
  addPattern,
  applyMeta,
  type Convert,
  enumMemberValues,
  escapeRegex,
  isRecord,
  literalValues,
  NOTHING,
  nullable,
  regexPattern,
  setLowerBound,
  setMax,
  setMin,
  setOwn,
  setUpperBound,
  tupleSchema,
  typeForValues,
  union,
  withDefault,
} from './common'
import type { OpenAPISchema } from './types'

/** The parts of a zod 3 schema the converter reads; zod itself is never imported. */
interface ZodV3Like {
  _def: Record<string, unknown> & { typeName: string; description?: string }
  isOptional?: () => boolean
}

interface V3Check {
  kind: string
  value?: unknown
  inclusive?: boolean
  regex?: RegExp
  version?: string
  precision?: number | null
  offset?: boolean
  local?: boolean
}

/** zod 3's time-of-day regex (3.25): seconds optional unless a non-zero `precision` requires them. */
function timePattern(precision: number | null | undefined): string {
  let seconds = '[0-5]\\d'
  if (precision) seconds += `\\.\\d{${precision}}`
  else if (precision == null) seconds += '(?:\\.\\d+)?'
  return `(?:[01]\\d|2[0-3]):[0-5]\\d(?::${seconds})${precision ? '' : '?'}`
}

/** zod 3's date regex: real calendar dates, leap years included. */
const DATE_PATTERN =
  '(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))'

/** zod 3's datetime regex for the check's `precision`, `offset` and `local` options. */
function dateTimePattern(c: V3Check): string {
  const zones = [c.local ? 'Z?' : 'Z']
  if (c.offset) zones.push('[+-]\\d{2}:?\\d{2}')
  return `^${DATE_PATTERN}T${timePattern(c.precision)}(?:${zones.join('|')})$`
}

/** Zod 3 schemas carry their kind in `_def.typeName` (`ZodString`, `ZodObject`, …). */
export function isZodV3(schema: unknown): schema is ZodV3Like {
  if (!isRecord(schema) || !isRecord(schema._def)) return false
  const name = schema._def.typeName
  return typeof name === 'string' && name.startsWith('Zod')
}

function checks(def: Record<string, unknown>): V3Check[] {
  return Array.isArray(def.checks) ? (def.checks as V3Check[]) : []
}

function stringSchema(def: Record<string, unknown>): OpenAPISchema {
  const s: OpenAPISchema = { type: 'string' }
  for (const c of checks(def)) {
    const value = c.value
    switch (c.kind) {
      case 'min':
        setMin(s, 'minLength', value as number)
        break
      case 'max':
        setMax(s, 'maxLength', value as number)
        break
      case 'length':
        setMin(s, 'minLength', value as number)
        setMax(s, 'maxLength', value as number)
        break
      case 'email':
      case 'uuid':
      case 'date':
      case 'duration':
        s.format = c.kind
        break
      case 'time':
        // zod 3 times have no zone, which JSON Schema's `time` format requires: say it as a pattern.
        addPattern(s, `^${timePattern(c.precision)}$`)
        break
      case 'url':
        s.format = 'uri'
        break
      case 'datetime':
        // The options (zone, offset, precision) only show in the pattern. A local datetime has no
        // zone, so it is not a JSON Schema `date-time`.
        if (c.local !== true) s.format = 'date-time'
        addPattern(s, dateTimePattern(c))
        break
      case 'ip':
        if (c.version === 'v4' || c.version === 'v6') s.format = `ip${c.version}`
        break
      case 'base64':
        s.contentEncoding = 'base64'
        break
      case 'regex': {
        const p = regexPattern(c.regex)
        if (p !== undefined) addPattern(s, p)
        break
      }
      case 'startsWith':
        addPattern(s, `^${escapeRegex(String(value))}`)
        break
      case 'endsWith':
        addPattern(s, `${escapeRegex(String(value))}$`)
        break
      case 'includes':
        addPattern(s, escapeRegex(String(value)))
        break
    }
  }
  return s
}

function numberSchema(def: Record<string, unknown>): OpenAPISchema {
  const s: OpenAPISchema = { type: 'number' }
  for (const c of checks(def)) {
    const value = c.value as number
    if (c.kind === 'int') s.type = 'integer'
    else if (c.kind === 'min') setLowerBound(s, value, c.inclusive === false)
    else if (c.kind === 'max') setUpperBound(s, value, c.inclusive === false)
    else if (c.kind === 'multipleOf') s.multipleOf = value
  }
  return s
}

function isOptional(schema: unknown): boolean {
  if (!isZodV3(schema)) return false
  try {
    // zod's own answer: does the schema accept `undefined`? (optional, default, any, unknown, …)
    return typeof schema.isOptional === 'function' && schema.isOptional()
  } catch {
    return false
  }
}

function objectSchema(def: Record<string, unknown>, convert: Convert): OpenAPISchema {
  const shape = (typeof def.shape === 'function' ? def.shape() : def.shape) as Record<
    string,
    unknown
  >
  const properties: Record<string, OpenAPISchema> = {}
  const required: string[] = []
  for (const [key, value] of Object.entries(shape ?? {})) {
    setOwn(properties, key, convert(value))
    if (!isOptional(value)) required.push(key)
  }
  const s: OpenAPISchema = { type: 'object', properties }
  if (required.length > 0) s.required = required
  const catchall = def.catchall
  if (isZodV3(catchall) && catchall._def.typeName !== 'ZodNever') {
    s.additionalProperties = convert(catchall)
  } else if (def.unknownKeys === 'strict') s.additionalProperties = false
  return s
}

const tuple = (def: Record<string, unknown>, convert: Convert): OpenAPISchema =>
  tupleSchema((def.items as unknown[]) ?? [], def.rest, convert, isOptional)

function convertKind(schema: ZodV3Like, convert: Convert): OpenAPISchema {
  const def = schema._def
  switch (def.typeName) {
    case 'ZodString':
      return stringSchema(def)
    case 'ZodNumber':
      return numberSchema(def)
    case 'ZodBigInt':
      return { type: 'integer', format: 'int64' }
    case 'ZodBoolean':
      return { type: 'boolean' }
    case 'ZodNull':
      return { type: 'null' }
    case 'ZodDate':
      return { type: 'string', format: 'date-time' }
    case 'ZodLiteral': {
      const [value] = literalValues([def.value])
      if (value === undefined) return NOTHING()
      return { type: typeForValues([value]), const: value } as OpenAPISchema
    }
    case 'ZodEnum': {
      const values = def.values as unknown[]
      return { type: 'string', enum: [...values] }
    }
    case 'ZodNativeEnum': {
      const values = enumMemberValues(def.values as Record<string, unknown>)
      return { type: typeForValues(values), enum: values }
    }
    case 'ZodObject':
      return objectSchema(def, convert)
    case 'ZodArray': {
      const s: OpenAPISchema = { type: 'array', items: convert(def.type) }
      const exact = def.exactLength as { value: number } | null
      const min = def.minLength as { value: number } | null
      const max = def.maxLength as { value: number } | null
      if (min) setMin(s, 'minItems', min.value)
      if (max) setMax(s, 'maxItems', max.value)
      if (exact) {
        setMin(s, 'minItems', exact.value)
        setMax(s, 'maxItems', exact.value)
      }
      return s
    }
    case 'ZodSet':
      return { type: 'array', items: convert(def.valueType), uniqueItems: true }
    case 'ZodTuple':
      return tuple(def, convert)
    case 'ZodRecord': {
      const s: OpenAPISchema = { type: 'object', additionalProperties: convert(def.valueType) }
      const key = convert(def.keyType)
      if (key.type === 'string' && Object.keys(key).length > 1) s.propertyNames = key
      return s
    }
    case 'ZodUnion':
      return union((def.options as unknown[]).map(convert), false)
    case 'ZodDiscriminatedUnion': {
      const options =
        def.options instanceof Map ? [...def.options.values()] : (def.options as unknown[])
      return union(options.map(convert), true)
    }
    case 'ZodIntersection':
      return { allOf: [convert(def.left), convert(def.right)] }
    case 'ZodOptional':
    case 'ZodCatch':
    case 'ZodReadonly':
    case 'ZodPromise':
      return convert(def.innerType ?? def.type)
    case 'ZodNullable':
      return nullable(convert(def.innerType))
    case 'ZodDefault': {
      const value = typeof def.defaultValue === 'function' ? def.defaultValue() : def.defaultValue
      return withDefault(convert(def.innerType), value)
    }
    case 'ZodEffects':
      // refine, transform, preprocess: the documented shape is what the inner schema accepts.
      return convert(def.schema)
    case 'ZodPipeline':
      return convert(def.in)
    case 'ZodBranded':
      return convert(def.type)
    case 'ZodLazy':
      return convert((def.getter as () => unknown)())
    case 'ZodNever':
    case 'ZodUndefined':
    case 'ZodVoid':
    case 'ZodNaN':
      return NOTHING()
    default:
      // ZodAny, ZodUnknown, ZodFunction, ZodSymbol, ZodMap: no JSON Schema constraint says them.
      return {}
  }
}

/** Converts a zod 3 schema (the `zod@3` package or `zod/v3` of zod 4). */
export function convertZodV3(schema: ZodV3Like, convert: Convert): OpenAPISchema {
  const s = convertKind(schema, convert)
  const description = schema._def.description
  return applyMeta(s, typeof description === 'string' ? { description } : undefined)
}
