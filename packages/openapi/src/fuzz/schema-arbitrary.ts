// The bridge from the document's JSON Schema (the subset this package's converters emit) to
// fast-check arbitraries. fast-check generates and shrinks; this file only maps keywords to its
// combinators.
import type * as FastCheck from 'fast-check'
import type { OpenAPISchema } from '../schema/types'

type FC = typeof FastCheck
type Arbitrary<T> = FastCheck.Arbitrary<T>

/** Resolves `#/components/schemas/<name>` references against the document. */
export type Resolve = (schema: OpenAPISchema) => OpenAPISchema

const MAX_DEPTH = 6
const MAX_ITEMS = 4

/** The schema with `$ref`s resolved and `allOf` object parts merged, one level deep. */
export function flatten(schema: OpenAPISchema, resolve: Resolve): OpenAPISchema {
  const s = resolve(schema)
  if (!s.allOf) return s
  const merged: OpenAPISchema = { ...s, allOf: undefined }
  delete merged.allOf
  for (const part of s.allOf.map((p) => flatten(p, resolve))) {
    if (part.properties) merged.properties = { ...merged.properties, ...part.properties }
    if (part.required) merged.required = [...(merged.required ?? []), ...part.required]
    if (part.type && !merged.type) merged.type = part.type
  }
  return merged
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u')
  } catch {
    return undefined
  }
}

function stringArbitrary(fc: FC, s: OpenAPISchema): Arbitrary<string> {
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : Math.max(minLength, 24)
  const within = (v: string) => [...v].length >= minLength && [...v].length <= maxLength
  switch (s.format) {
    case 'email':
      return fc.emailAddress().filter(within)
    case 'uri':
    case 'url':
      return fc.webUrl({ withQueryParameters: true }).filter(within)
    case 'uuid':
      return fc.uuid()
    case 'date-time':
      return fc
        .date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true })
        .map((d) => d.toISOString())
    case 'date':
      return fc
        .date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10))
    case 'ipv4':
      return fc.ipV4()
    case 'ipv6':
      return fc.ipV6()
  }
  const re = typeof s.pattern === 'string' ? safeRegExp(s.pattern) : undefined
  if (re) return fc.stringMatching(re).filter(within)
  const any = fc.string({
    minLength,
    maxLength: Math.min(maxLength, minLength + 24),
    unit: 'grapheme',
  })
  return withBounds(fc, any, typeof s.maxLength === 'number' ? ['a'.repeat(s.maxLength)] : [])
}

function numberArbitrary(fc: FC, s: OpenAPISchema, integer: boolean): Arbitrary<number> {
  let min = typeof s.minimum === 'number' ? s.minimum : undefined
  let max = typeof s.maximum === 'number' ? s.maximum : undefined
  const exclusiveMin = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined
  const exclusiveMax = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : undefined
  if (integer) {
    if (exclusiveMin !== undefined) min = Math.max(min ?? -Infinity, Math.floor(exclusiveMin) + 1)
    if (exclusiveMax !== undefined) max = Math.min(max ?? Infinity, Math.ceil(exclusiveMax) - 1)
    const lo = Math.max(Math.ceil(min ?? Number.MIN_SAFE_INTEGER), Number.MIN_SAFE_INTEGER)
    const hi = Math.min(Math.floor(max ?? Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER)
    return withBounds(fc, fc.integer({ min: lo, max: hi }), [lo, hi])
  }
  const bounds = [min, max].filter((v): v is number => v !== undefined)
  const double = fc.double({
    min: min ?? exclusiveMin ?? -1e12,
    max: max ?? exclusiveMax ?? 1e12,
    minExcluded: min === undefined && exclusiveMin !== undefined,
    maxExcluded: max === undefined && exclusiveMax !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  })
  return withBounds(fc, double, bounds)
}

/** `arb`, with the valid extremes drawn often: off-by-one faults live there. */
function withBounds<T>(fc: FC, arb: Arbitrary<T>, bounds: T[]): Arbitrary<T> {
  if (bounds.length === 0) return arb
  return fc.oneof(
    { arbitrary: arb, weight: 3 },
    { arbitrary: fc.constantFrom(...bounds), weight: 1 },
  )
}

/**
 * An arbitrary of values `schema` accepts. Keywords it does not know are ignored, so the values
 * are valid for the subset the package emits (types, bounds, lengths, patterns, formats, enums,
 * objects, arrays, unions); anything else is generated as any JSON value.
 */
export function schemaArbitrary(
  fc: FC,
  schema: OpenAPISchema,
  resolve: Resolve,
  depth = 0,
): Arbitrary<unknown> {
  const s = flatten(schema, resolve)
  if (depth > MAX_DEPTH) return fc.constant(null)
  if (s.const !== undefined) return fc.constant(s.const)
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...s.enum)
  const options = s.anyOf ?? s.oneOf
  if (Array.isArray(options) && options.length > 0) {
    return fc.oneof(...options.map((o) => schemaArbitrary(fc, o, resolve, depth + 1)))
  }
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : []
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => schemaArbitrary(fc, { ...s, type }, resolve, depth + 1)))
  }
  switch (types[0]) {
    case 'string':
      return stringArbitrary(fc, s)
    case 'integer':
      return numberArbitrary(fc, s, true)
    case 'number':
      return numberArbitrary(fc, s, false)
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array': {
      const items = s.items && !Array.isArray(s.items) ? s.items : {}
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0
      const maxLength = Math.max(
        minLength,
        Math.min(typeof s.maxItems === 'number' ? s.maxItems : MAX_ITEMS, minLength + MAX_ITEMS),
      )
      return fc.array(schemaArbitrary(fc, items, resolve, depth + 1), { minLength, maxLength })
    }
    case 'object':
      return objectArbitrary(fc, s, resolve, depth)
  }
  if (s.properties) return objectArbitrary(fc, s, resolve, depth)
  return fc.jsonValue({ maxDepth: 2 })
}

function objectArbitrary(
  fc: FC,
  s: OpenAPISchema,
  resolve: Resolve,
  depth: number,
): Arbitrary<Record<string, unknown>> {
  const properties = s.properties ?? {}
  const model: Record<string, Arbitrary<unknown>> = {}
  for (const [name, prop] of Object.entries(properties)) {
    model[name] = schemaArbitrary(fc, prop, resolve, depth + 1)
  }
  const required = (s.required ?? []).filter((name) => name in model)
  return fc.record(model, { requiredKeys: required }) as Arbitrary<Record<string, unknown>>
}

/** A value of a JSON type that `schema` does not allow (for "wrong type" near misses). */
export function wrongTypeArbitrary(fc: FC, schema: OpenAPISchema, resolve: Resolve) {
  const s = flatten(schema, resolve)
  const allowed = new Set(Array.isArray(s.type) ? s.type : s.type ? [s.type] : [])
  if (allowed.has('integer')) allowed.add('number')
  const candidates: Arbitrary<unknown>[] = []
  if (!allowed.has('string')) candidates.push(fc.constantFrom('', 'x', '1', 'true'))
  if (!allowed.has('number')) candidates.push(fc.constantFrom(0, -1, 1.5, 1e308))
  if (!allowed.has('boolean')) candidates.push(fc.boolean())
  if (!allowed.has('null')) candidates.push(fc.constant(null))
  if (!allowed.has('array')) candidates.push(fc.constant([]))
  if (!allowed.has('object')) candidates.push(fc.constant({}))
  return candidates.length > 0 ? fc.oneof(...candidates) : fc.constant(undefined)
}

/**
 * Values just outside (or on) the schema's bounds: lengths and ranges off by one, a fraction for
 * an integer, the extremes of the type. The list is empty when the schema has no bounds.
 */
export function boundaryValues(schema: OpenAPISchema, resolve: Resolve): unknown[] {
  const s = flatten(schema, resolve)
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : []
  const values: unknown[] = []
  if (types.includes('string')) {
    if (typeof s.minLength === 'number') {
      values.push('a'.repeat(s.minLength))
      if (s.minLength > 0) values.push('a'.repeat(s.minLength - 1))
    }
    if (typeof s.maxLength === 'number') {
      values.push('a'.repeat(s.maxLength), 'a'.repeat(s.maxLength + 1))
    }
    values.push('', ' ', '\u0000', '\ud83d\ude00'.repeat(3), '<script>', 'é'.normalize('NFD'))
  }
  if (types.includes('integer') || types.includes('number')) {
    for (const bound of [s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum]) {
      if (typeof bound === 'number') values.push(bound, bound - 1, bound + 1)
    }
    values.push(0, -1, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER - 2, 1e308)
    if (types.includes('integer')) values.push(0.5)
  }
  if (types.includes('array')) {
    if (typeof s.minItems === 'number' && s.minItems > 0) values.push([])
    if (typeof s.maxItems === 'number') values.push(Array(s.maxItems + 1).fill(null))
  }
  return values
}
