import {
  addPattern,
  applyMeta,
  type Convert,
  enumMemberValues,
  isRecord,
  literalValues,
  NOTHING,
  nullable,
  regexPattern,
  STRING_FORMATS,
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

type Def = Record<string, unknown> & { type: string }

/** The parts of a zod 4 schema the converter reads; zod itself is never imported. */
interface ZodV4Like {
  _zod: { def: Def; optin?: string; pattern?: unknown }
  meta?: () => unknown
}

/** Zod 4 schemas (classic and mini) keep their definition in `_zod.def`. */
export function isZodV4(schema: unknown): schema is ZodV4Like {
  if (!isRecord(schema) || !isRecord(schema._zod)) return false
  const def = schema._zod.def
  return isRecord(def) && typeof def.type === 'string'
}

/** A check's definition: checks are schemas-like objects with their own `_zod.def`. */
function checkDefs(def: Def): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = []
  // A format schema such as `z.email()` is itself the check.
  if (typeof def.check === 'string') list.push(def)
  if (Array.isArray(def.checks)) {
    for (const c of def.checks) {
      const cdef = isRecord(c) && isRecord(c._zod) ? c._zod.def : undefined
      if (isRecord(cdef)) list.push(cdef)
    }
  }
  return list
}

const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : (v as number))

function stringFormat(s: OpenAPISchema, c: Record<string, unknown>): void {
  const format = c.format as string
  const pattern = regexPattern(c.pattern)
  if (format === 'datetime' || format === 'time') {
    // zod's offset/local/precision options only show in its regex; `date-time` in JSON Schema
    // requires a zone, which a `local` datetime and every zod `time` lack.
    if (format === 'datetime' && c.local !== true) s.format = 'date-time'
    if (pattern !== undefined) addPattern(s, pattern)
    return
  }
  const known = STRING_FORMATS[format]
  if (known) s.format = known
  else if (format === 'base64') s.contentEncoding = 'base64'
  else if (pattern !== undefined) addPattern(s, pattern)
}

function applyChecks(s: OpenAPISchema, def: Def): void {
  for (const c of checkDefs(def)) {
    switch (c.check) {
      case 'min_length':
        setMin(s, s.type === 'array' ? 'minItems' : 'minLength', c.minimum as number)
        break
      case 'max_length':
        setMax(s, s.type === 'array' ? 'maxItems' : 'maxLength', c.maximum as number)
        break
      case 'length_equals': {
        const array = s.type === 'array'
        setMin(s, array ? 'minItems' : 'minLength', c.length as number)
        setMax(s, array ? 'maxItems' : 'maxLength', c.length as number)
        break
      }
      case 'min_size':
        setMin(s, 'minItems', c.minimum as number)
        break
      case 'max_size':
        setMax(s, 'maxItems', c.maximum as number)
        break
      case 'size_equals':
        setMin(s, 'minItems', c.size as number)
        setMax(s, 'maxItems', c.size as number)
        break
      case 'string_format':
        stringFormat(s, c)
        break
      case 'greater_than':
        if (s.type !== 'string') setLowerBound(s, num(c.value), c.inclusive === false)
        break
      case 'less_than':
        if (s.type !== 'string') setUpperBound(s, num(c.value), c.inclusive === false)
        break
      case 'multiple_of':
        s.multipleOf = num(c.value)
        break
      case 'number_format':
        numberFormat(s, c.format as string)
        break
    }
  }
}

function numberFormat(s: OpenAPISchema, format: string): void {
  // `safeint` (zod's `.int()`) only restates JavaScript's safe-integer range: documented as a plain
  // integer, since ±9007199254740991 would show up as the viewers' sample values.
  if (format === 'safeint') {
    s.type = 'integer'
  } else if (format === 'int32' || format === 'uint32') {
    s.type = 'integer'
    s.format = format === 'int32' ? 'int32' : s.format
    setLowerBound(s, format === 'int32' ? -2147483648 : 0, false)
    setUpperBound(s, format === 'int32' ? 2147483647 : 4294967295, false)
  } else if (format === 'float32') {
    s.format = 'float'
    setLowerBound(s, -3.4028234663852886e38, false)
    setUpperBound(s, 3.4028234663852886e38, false)
  } else if (format === 'float64') s.format = 'double'
}

function isOptional(schema: unknown): boolean {
  // `optional` or `defaulted`: the key may be missing from the input.
  return isZodV4(schema) && schema._zod.optin !== undefined
}

function objectSchema(def: Def, convert: Convert): OpenAPISchema {
  const shape = (isRecord(def.shape) ? def.shape : {}) as Record<string, unknown>
  const properties: Record<string, OpenAPISchema> = {}
  const required: string[] = []
  for (const [key, value] of Object.entries(shape)) {
    setOwn(properties, key, convert(value))
    if (!isOptional(value)) required.push(key)
  }
  const s: OpenAPISchema = { type: 'object', properties }
  if (required.length > 0) s.required = required
  const catchall = def.catchall
  if (isZodV4(catchall)) {
    const kind = catchall._zod.def.type
    if (kind === 'never') s.additionalProperties = false
    else if (kind !== 'unknown' && kind !== 'any') s.additionalProperties = convert(catchall)
  }
  return s
}

function recordSchema(def: Def, convert: Convert): OpenAPISchema {
  const value = convert(def.valueType)
  const key = isZodV4(def.keyType) ? def.keyType._zod.def : undefined
  // zod 4 requires every key of an enum-keyed record unless it is a partialRecord.
  if (key?.type === 'enum' && isRecord(key.entries) && def.partial !== true) {
    const keys = enumMemberValues(key.entries).map(String)
    const properties: Record<string, OpenAPISchema> = {}
    for (const k of keys) setOwn(properties, k, convert(def.valueType))
    return { type: 'object', properties, required: keys, additionalProperties: false }
  }
  const s: OpenAPISchema = { type: 'object', additionalProperties: value }
  const names = convert(def.keyType)
  if (names.type === 'string' && Object.keys(names).length > 1) s.propertyNames = names
  return s
}

const tuple = (def: Def, convert: Convert): OpenAPISchema =>
  tupleSchema((def.items as unknown[]) ?? [], def.rest, convert, isOptional)

function convertKind(schema: ZodV4Like, convert: Convert): OpenAPISchema {
  const def = schema._zod.def
  switch (def.type) {
    case 'string': {
      const s: OpenAPISchema = { type: 'string' }
      applyChecks(s, def)
      return s
    }
    case 'number': {
      const s: OpenAPISchema = { type: 'number' }
      applyChecks(s, def)
      return s
    }
    case 'bigint': {
      const s: OpenAPISchema = { type: 'integer', format: 'int64' }
      applyChecks(s, def)
      return s
    }
    case 'boolean':
      return { type: 'boolean' }
    case 'null':
      return { type: 'null' }
    case 'date':
      return { type: 'string', format: 'date-time' }
    case 'file':
      return { type: 'string', format: 'binary' }
    case 'literal': {
      const values = literalValues(def.values as unknown[])
      if (values.length === 0) return NOTHING()
      return { type: typeForValues(values), enum: values }
    }
    case 'enum': {
      const values = enumMemberValues(def.entries as Record<string, unknown>)
      return { type: typeForValues(values), enum: values }
    }
    case 'template_literal': {
      const pattern = regexPattern(schema._zod.pattern)
      return pattern === undefined ? { type: 'string' } : { type: 'string', pattern }
    }
    case 'object':
      return objectSchema(def, convert)
    case 'array': {
      const s: OpenAPISchema = { type: 'array', items: convert(def.element) }
      applyChecks(s, def)
      return s
    }
    case 'set': {
      const s: OpenAPISchema = { type: 'array', items: convert(def.valueType), uniqueItems: true }
      applyChecks(s, def)
      return s
    }
    case 'tuple':
      return tuple(def, convert)
    case 'record':
      return recordSchema(def, convert)
    case 'union':
      return union((def.options as unknown[]).map(convert), def.inclusive === false)
    case 'intersection':
      return { allOf: [convert(def.left), convert(def.right)] }
    case 'optional':
    case 'nonoptional':
    case 'catch':
    case 'readonly':
    case 'promise':
      return convert(def.innerType)
    case 'nullable':
      return nullable(convert(def.innerType))
    case 'default':
    case 'prefault': {
      const value = typeof def.defaultValue === 'function' ? def.defaultValue() : def.defaultValue
      return withDefault(convert(def.innerType), value)
    }
    case 'pipe': {
      // A pipe validates its input with `in`; a transform there accepts anything.
      const input = isZodV4(def.in) && def.in._zod.def.type === 'transform' ? def.out : def.in
      return convert(input)
    }
    case 'success':
      return { type: 'boolean' }
    case 'lazy':
      return convert((def.getter as () => unknown)())
    case 'never':
    case 'undefined':
    case 'void':
    case 'nan':
      return NOTHING()
    default:
      // any, unknown, custom, transform, symbol, map, function: no JSON Schema constraint says them.
      return {}
  }
}

function readMeta(schema: ZodV4Like): Record<string, unknown> | undefined {
  if (typeof schema.meta !== 'function') return undefined
  try {
    const meta = schema.meta()
    return isRecord(meta) ? meta : undefined
  } catch {
    return undefined
  }
}

/** Converts a zod 4 schema (`zod` 4, `zod/v4`, `zod/mini`). */
export function convertZodV4(schema: ZodV4Like, convert: Convert): OpenAPISchema {
  return applyMeta(convertKind(schema, convert), readMeta(schema))
}
