import type { OpenAPISchema, OpenAPISchemaType } from './types'

/** Converts one nested schema; the converters pass it down so recursion is tracked in one place. */
export type Convert = (schema: unknown) => OpenAPISchema

/** A schema no JSON value satisfies (zod `never`, `undefined`, `nan`). */
export const NOTHING = (): OpenAPISchema => ({ not: {} })

/** Assigns an own property even for keys like `__proto__`, which plain assignment would not. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** True for values JSON can carry unchanged, so they may appear in `default`, `const` or `enum`. */
export function isJSONValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(isJSONValue)
  if (isRecord(value) && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).every(isJSONValue)
  }
  return false
}

export function jsonTypeOf(value: unknown): OpenAPISchemaType | undefined {
  if (value === null) return 'null'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  if (typeof value === 'bigint') return 'integer'
  return undefined
}

/** `type` for a set of literal values: one name, or a list when the values mix types. */
export function typeForValues(values: unknown[]): OpenAPISchemaType | OpenAPISchemaType[] {
  const types: OpenAPISchemaType[] = []
  for (const v of values) {
    let t = jsonTypeOf(v) ?? 'string'
    // 1 and 1.5 in one enum: `number` covers both, `integer` would reject 1.5.
    if (t === 'integer' && values.some((o) => typeof o === 'number' && !Number.isInteger(o))) {
      t = 'number'
    }
    if (!types.includes(t)) types.push(t)
  }
  return types.length === 1 ? (types[0] as OpenAPISchemaType) : types
}

/** JSON form of a literal; bigint becomes a number, values JSON cannot carry are dropped. */
export function literalValues(values: unknown[]): unknown[] {
  const out: unknown[] = []
  for (const v of values) {
    if (typeof v === 'bigint') out.push(Number(v))
    else if (isJSONValue(v)) out.push(v)
  }
  return out
}

export function setLowerBound(s: OpenAPISchema, value: number, exclusive: boolean): void {
  const current = s.exclusiveMinimum ?? s.minimum
  if (current !== undefined && (current > value || (current === value && !exclusive))) return
  delete s.minimum
  delete s.exclusiveMinimum
  if (exclusive) s.exclusiveMinimum = value
  else s.minimum = value
}

export function setUpperBound(s: OpenAPISchema, value: number, exclusive: boolean): void {
  const current = s.exclusiveMaximum ?? s.maximum
  if (current !== undefined && (current < value || (current === value && !exclusive))) return
  delete s.maximum
  delete s.exclusiveMaximum
  if (exclusive) s.exclusiveMaximum = value
  else s.maximum = value
}

export function setMin(s: OpenAPISchema, key: 'minLength' | 'minItems', value: number): void {
  s[key] = Math.max(s[key] ?? 0, value)
}

export function setMax(s: OpenAPISchema, key: 'maxLength' | 'maxItems', value: number): void {
  const current = s[key]
  s[key] = current === undefined ? value : Math.min(current, value)
}

/** Adds a pattern; a second one goes to `allOf` because a schema holds one `pattern`. */
export function addPattern(s: OpenAPISchema, pattern: string): void {
  if (s.pattern === undefined) s.pattern = pattern
  else if (s.pattern !== pattern) s.allOf = [...(s.allOf ?? []), { pattern }]
}

/**
 * The source of a RegExp usable as a JSON Schema pattern, or undefined. Flags such as `i` or `m`
 * change what a pattern matches and JSON Schema has no way to say them, so such a pattern is
 * left out rather than documented wrongly.
 */
export function regexPattern(re: unknown): string | undefined {
  if (!(re instanceof RegExp)) return undefined
  return /^[guyd]*$/.test(re.flags) ? re.source : undefined
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}

export const STRING_FORMATS: Readonly<Record<string, string>> = {
  email: 'email',
  url: 'uri',
  uuid: 'uuid',
  datetime: 'date-time',
  date: 'date',
  time: 'time',
  duration: 'duration',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
}

/** JSON types a schema can accept, or undefined when it cannot be told cheaply. */
function acceptedTypes(s: OpenAPISchema): Set<string> | undefined {
  if (s.const !== undefined) return new Set([numberish(jsonTypeOf(s.const) ?? 'string')])
  if (Array.isArray(s.enum)) return new Set(s.enum.map((v) => numberish(jsonTypeOf(v) ?? 'string')))
  if (typeof s.type === 'string') return new Set([numberish(s.type)])
  if (Array.isArray(s.type)) return new Set(s.type.map(numberish))
  const branches = s.anyOf ?? s.oneOf
  if (branches) {
    const all = new Set<string>()
    for (const b of branches) {
      const t = acceptedTypes(b)
      if (!t) return undefined
      for (const x of t) all.add(x)
    }
    return all
  }
  return undefined
}

const numberish = (t: string) => (t === 'integer' ? 'number' : t)

function constValues(s: OpenAPISchema | undefined): unknown[] | undefined {
  if (!s) return undefined
  if (s.const !== undefined) return [s.const]
  if (Array.isArray(s.enum)) return s.enum
  return undefined
}

function disjointValues(a: unknown[], b: unknown[]): boolean {
  const keys = new Set(a.map((v) => JSON.stringify(v)))
  return b.every((v) => !keys.has(JSON.stringify(v)))
}

/** True when no JSON value can satisfy both schemas, judged by type, constants or a discriminator. */
export function disjoint(a: OpenAPISchema, b: OpenAPISchema): boolean {
  const ta = acceptedTypes(a)
  const tb = acceptedTypes(b)
  if (ta && tb && [...ta].every((t) => !tb.has(t))) return true
  const va = constValues(a)
  const vb = constValues(b)
  if (va && vb) return disjointValues(va, vb)
  if (a.properties && b.properties) {
    for (const key of Object.keys(a.properties)) {
      if (!a.required?.includes(key) || !b.required?.includes(key)) continue
      const ka = constValues(a.properties[key])
      const kb = constValues(b.properties[key])
      if (ka && kb && disjointValues(ka, kb)) return true
    }
  }
  return false
}

/**
 * A union: `oneOf` when the options are provably exclusive (or zod itself demands exactly one
 * match), `anyOf` otherwise. `oneOf` over overlapping options would reject values zod accepts,
 * such as `"a@b.co"` against `z.union([z.string(), z.string().email()])`.
 */
export function union(options: OpenAPISchema[], exclusive: boolean): OpenAPISchema {
  if (options.length === 1) return options[0] as OpenAPISchema
  if (exclusive) return { oneOf: options }
  for (let i = 0; i < options.length; i++) {
    for (let j = i + 1; j < options.length; j++) {
      if (!disjoint(options[i] as OpenAPISchema, options[j] as OpenAPISchema))
        return { anyOf: options }
    }
  }
  return { oneOf: options }
}

export function nullable(inner: OpenAPISchema): OpenAPISchema {
  return { anyOf: [inner, { type: 'null' }] }
}

/**
 * Keys of a TypeScript enum object that are real members: numeric enums also map each value back
 * to its name (`{ A: 0, '0': 'A' }`), and those reverse entries are not members.
 */
export function enumMemberValues(entries: Record<string, unknown>): unknown[] {
  return Object.keys(entries)
    .filter((k) => typeof entries[entries[k] as string] !== 'number')
    .map((k) => entries[k])
}

/** Metadata from zod's `.describe()` / `.meta()` copied onto the converted schema. */
export function applyMeta(
  s: OpenAPISchema,
  meta: Record<string, unknown> | undefined,
): OpenAPISchema {
  if (!meta) return s
  if (typeof meta.description === 'string') s.description = meta.description
  if (typeof meta.title === 'string') s.title = meta.title
  if (meta.deprecated === true) s.deprecated = true
  // shield() reads it from the document's schema: `false` marks a field that is not free text.
  if (typeof meta['x-palisade-shield'] === 'boolean') {
    ;(s as Record<string, unknown>)['x-palisade-shield'] = meta['x-palisade-shield']
  }
  if (Array.isArray(meta.examples) && meta.examples.every(isJSONValue))
    s.examples = [...meta.examples]
  else if (isRecord(meta.examples)) {
    const values = Object.values(meta.examples).map((e) =>
      isRecord(e) && 'value' in e ? e.value : e,
    )
    if (values.every(isJSONValue)) s.examples = values
  } else if (meta.example !== undefined && isJSONValue(meta.example)) s.examples = [meta.example]
  return s
}

export function withDefault(s: OpenAPISchema, value: unknown): OpenAPISchema {
  if (isJSONValue(value)) s.default = value
  return s
}

/**
 * A zod tuple as JSON Schema 2020-12: `prefixItems`, `minItems` up to the last required item, and
 * either `items` for a rest element or `maxItems` to close it. Shared by the v3 and v4 converters,
 * which differ only in how they read a definition and tell an optional item.
 */
export function tupleSchema(
  items: unknown[],
  rest: unknown,
  convert: Convert,
  isOptional: (schema: unknown) => boolean,
): OpenAPISchema {
  const s: OpenAPISchema = { type: 'array', prefixItems: items.map(convert) }
  let min = items.length
  while (min > 0 && isOptional(items[min - 1])) min--
  if (min > 0) s.minItems = min
  if (rest) s.items = convert(rest)
  else s.maxItems = items.length
  return s
}

/** `user_id`, `user-id`, `userId` → `UserId`: the one PascalCase rule for generated names. */
export function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((part) => (part[0] as string).toUpperCase() + part.slice(1))
    .join('')
}
