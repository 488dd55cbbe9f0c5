// The bridge from the document's JSON Schema (the subset this package's converters emit) to
// fast-check arbitraries. fast-check generates and shrinks; this file only maps keywords to its
// combinators.
import type * as FastCheck from 'fast-check'
import type { OpenAPISchema } from '../schema/types'
import { CannotGenerate, filterOrGiveUp, MAX_ITEMS, MAX_LENGTH, segment } from './limits'

type FC = typeof FastCheck
type Arbitrary<T> = FastCheck.Arbitrary<T>

/** Resolves `#/components/schemas/<name>` references against the document. */
export type Resolve = (schema: OpenAPISchema) => OpenAPISchema

const MAX_DEPTH = 6
/** Items of an array without `maxItems`, beyond its `minItems`. */
const EXTRA_ITEMS = 4

/** Where a value goes and how it is written: headers carry printable ASCII only. */
export interface Place {
  /** JSON pointer into the request: `/body/email`, `/query/limit`, `/path/id`, `/header/x-id`. */
  pointer: string
  ascii?: boolean
}

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

/** A pattern's largest fixed repetition count (`{8}`, `{8,}`, `{8,12}` give 8): what it must build. */
function largestRepeat(pattern: string): number {
  let largest = 0
  for (const m of pattern.matchAll(/(?<!\\)\{(\d+)(?:,\d*)?\}/g)) {
    largest = Math.max(largest, Number(m[1]))
  }
  return largest
}

const PRINTABLE_ASCII = (fc: FC) =>
  fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code))

function stringArbitrary(fc: FC, s: OpenAPISchema, place: Place): Arbitrary<string> {
  const { pointer } = place
  const minLength = typeof s.minLength === 'number' ? Math.max(0, Math.ceil(s.minLength)) : 0
  const declaredMax = typeof s.maxLength === 'number' ? Math.floor(s.maxLength) : undefined
  if (declaredMax !== undefined && declaredMax < minLength)
    throw new CannotGenerate(pointer, `minLength ${minLength} is above maxLength ${declaredMax}`)
  if (minLength > MAX_LENGTH)
    throw new CannotGenerate(
      pointer,
      `minLength ${minLength} is above the fuzzer's limit of ${MAX_LENGTH} characters`,
    )
  // What a valid value may be: the declared bounds, clamped to what the fuzzer builds.
  const maxLength = Math.min(declaredMax ?? MAX_LENGTH, MAX_LENGTH)
  const bounds = `${minLength} to ${declaredMax ?? 'any number of'} characters`
  const within = (v: string) => {
    const length = [...v].length
    return length >= minLength && length <= maxLength
  }
  const lengthFilter = (arb: Arbitrary<string>, what: string) =>
    filterOrGiveUp(fc, arb, within, pointer, `${what} with ${bounds}`)
  switch (s.format) {
    case 'email':
      // Small addresses too: most of fast-check's default ones are longer than a short maxLength.
      return lengthFilter(
        fc.oneof(fc.emailAddress(), fc.emailAddress({ size: 'xsmall' })),
        'email address',
      )
    case 'uri':
    case 'url':
      return lengthFilter(
        fc.oneof(fc.webUrl({ withQueryParameters: true }), fc.webUrl({ size: 'xsmall' })),
        'URL',
      )
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
  if (re) {
    const repeat = largestRepeat(re.source)
    if (repeat > MAX_LENGTH)
      throw new CannotGenerate(
        pointer,
        `pattern ${s.pattern} repeats {${repeat}} times, above the fuzzer's limit of ${MAX_LENGTH} characters`,
      )
    return lengthFilter(fc.stringMatching(re), `string matching ${s.pattern}`)
  }
  const any = fc.string({
    minLength,
    maxLength: Math.min(maxLength, minLength + 24),
    unit: place.ascii ? PRINTABLE_ASCII(fc) : 'grapheme',
  })
  return withBounds(
    fc,
    any,
    declaredMax !== undefined && declaredMax <= MAX_LENGTH ? ['a'.repeat(declaredMax)] : [],
  )
}

function numberArbitrary(
  fc: FC,
  s: OpenAPISchema,
  integer: boolean,
  pointer: string,
): Arbitrary<number> {
  let min = typeof s.minimum === 'number' ? s.minimum : undefined
  let max = typeof s.maximum === 'number' ? s.maximum : undefined
  const exclusiveMin = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined
  const exclusiveMax = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : undefined
  if (integer) {
    if (exclusiveMin !== undefined) min = Math.max(min ?? -Infinity, Math.floor(exclusiveMin) + 1)
    if (exclusiveMax !== undefined) max = Math.min(max ?? Infinity, Math.ceil(exclusiveMax) - 1)
    const lo = Math.max(Math.ceil(min ?? Number.MIN_SAFE_INTEGER), Number.MIN_SAFE_INTEGER)
    const hi = Math.min(Math.floor(max ?? Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER)
    if (lo > hi) throw new CannotGenerate(pointer, `no safe integer from ${lo} to ${hi}`)
    return withBounds(fc, fc.integer({ min: lo, max: hi }), [lo, hi])
  }
  const lo = min ?? exclusiveMin ?? -1e12
  const hi = max ?? exclusiveMax ?? 1e12
  const minExcluded = min === undefined && exclusiveMin !== undefined
  const maxExcluded = max === undefined && exclusiveMax !== undefined
  if (lo > hi || (lo === hi && (minExcluded || maxExcluded)))
    throw new CannotGenerate(pointer, `no number from ${lo} to ${hi}`)
  const bounds = [min, max].filter((v): v is number => v !== undefined)
  const double = fc.double({
    min: lo,
    max: hi,
    minExcluded,
    maxExcluded,
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
 * objects, arrays, unions); anything else is generated as any JSON value. Sizes are clamped to
 * `MAX_LENGTH` and `MAX_ITEMS`; a schema nothing can be generated for throws `CannotGenerate`
 * (when built, or when drawn for a filter that never passes) naming `place.pointer`.
 */
export function schemaArbitrary(
  fc: FC,
  schema: OpenAPISchema,
  resolve: Resolve,
  place: Place,
  depth = 0,
): Arbitrary<unknown> {
  const s = flatten(schema, resolve)
  if (depth > MAX_DEPTH) return fc.constant(null)
  if (s.const !== undefined) return fc.constant(s.const)
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...s.enum)
  const options = s.anyOf ?? s.oneOf
  if (Array.isArray(options) && options.length > 0) {
    return fc.oneof(...options.map((o) => schemaArbitrary(fc, o, resolve, place, depth + 1)))
  }
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : []
  if (types.length > 1) {
    return fc.oneof(
      ...types.map((type) => schemaArbitrary(fc, { ...s, type }, resolve, place, depth + 1)),
    )
  }
  switch (types[0]) {
    case 'string':
      return stringArbitrary(fc, s, place)
    case 'integer':
      return numberArbitrary(fc, s, true, place.pointer)
    case 'number':
      return numberArbitrary(fc, s, false, place.pointer)
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return arrayArbitrary(fc, s, resolve, place, depth)
    case 'object':
      return objectArbitrary(fc, s, resolve, place, depth)
  }
  if (s.properties) return objectArbitrary(fc, s, resolve, place, depth)
  return fc.jsonValue({ maxDepth: 2 })
}

function arrayArbitrary(
  fc: FC,
  s: OpenAPISchema,
  resolve: Resolve,
  place: Place,
  depth: number,
): Arbitrary<unknown[]> {
  const { pointer } = place
  const minLength = typeof s.minItems === 'number' ? Math.max(0, Math.ceil(s.minItems)) : 0
  const declaredMax = typeof s.maxItems === 'number' ? Math.floor(s.maxItems) : undefined
  if (declaredMax !== undefined && declaredMax < minLength)
    throw new CannotGenerate(pointer, `minItems ${minLength} is above maxItems ${declaredMax}`)
  if (minLength > MAX_ITEMS)
    throw new CannotGenerate(
      pointer,
      `minItems ${minLength} is above the fuzzer's limit of ${MAX_ITEMS} items`,
    )
  const maxLength = Math.min(declaredMax ?? minLength + EXTRA_ITEMS, minLength + EXTRA_ITEMS)
  const items = s.items && !Array.isArray(s.items) ? s.items : {}
  const item = { ...place, pointer: `${pointer}/0` }
  return fc.array(schemaArbitrary(fc, items, resolve, item, depth + 1), { minLength, maxLength })
}

function objectArbitrary(
  fc: FC,
  s: OpenAPISchema,
  resolve: Resolve,
  place: Place,
  depth: number,
): Arbitrary<Record<string, unknown>> {
  const properties = s.properties ?? {}
  const model: Record<string, Arbitrary<unknown>> = {}
  for (const [name, prop] of Object.entries(properties)) {
    const at = { ...place, pointer: `${place.pointer}/${segment(name)}` }
    model[name] = schemaArbitrary(fc, prop, resolve, at, depth + 1)
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
    // Lengths past the fuzzer's limit are left out: the request would only measure memory.
    const lengths: number[] = []
    if (typeof s.minLength === 'number') lengths.push(s.minLength, s.minLength - 1)
    if (typeof s.maxLength === 'number') lengths.push(s.maxLength, s.maxLength + 1)
    for (const length of lengths) {
      if (Number.isInteger(length) && length >= 0 && length <= MAX_LENGTH + 1)
        values.push('a'.repeat(length))
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
    const tooMany = typeof s.maxItems === 'number' ? s.maxItems + 1 : Number.NaN
    if (Number.isInteger(tooMany) && tooMany <= MAX_ITEMS + 1)
      values.push(Array(tooMany).fill(null))
  }
  return values
}
