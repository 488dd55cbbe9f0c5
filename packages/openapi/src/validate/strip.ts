// Removing what a response schema does not declare, read from its JSON Schema, so the rule is the
// same for every schema library (zod strips, arktype keeps, raw JSON Schema has no parser at all).
import { isRecord } from '../schema/common'
import type { OpenAPISchema } from '../schema/types'

/**
 * How a list of alternative schemas treats the keys of one object value:
 * - `closed`: only `keys` (and names matching `patterns`) are declared;
 * - `open`: any key is allowed (`additionalProperties` absent on a schema that names no
 *   properties, `true`, or a schema), so nothing is removed.
 * `sub` holds, per declared key, the schemas its value must be stripped by.
 */
interface ObjectView {
  open: boolean
  keys: Map<string, OpenAPISchema[]>
  patterns: { re: RegExp; schema: OpenAPISchema }[]
  extra: OpenAPISchema[]
}

/** An undeclared property found in a body: its JSON pointer. */
export type Removed = string[]

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v)
  return (proto === Object.prototype || proto === null) && !('toJSON' in v)
}

const pointerPart = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * A function that removes, from a value about to be sent as JSON, every object property the
 * schema does not declare. Conservative where the schema is ambiguous: through `anyOf`/`oneOf`
 * (and across `allOf` parts) a property is kept when any alternative declares it; an object
 * schema that declares no properties, `additionalProperties: true` or a schema for them, an
 * unresolvable `$ref` and `{}` keep everything. Values that are not plain objects or arrays
 * (class instances, objects with `toJSON`) are kept as they are.
 *
 * The value is never mutated: objects are copied only where something is removed, so a body
 * with nothing undeclared is returned as the same object. Each removed property's JSON pointer
 * is pushed to `removed` when given.
 *
 * @example
 * const strip = stripperFor({ type: 'object', properties: { id: { type: 'string' } } })
 * strip({ id: '1', passwordHash: 'x' }) // { id: '1' }
 */
export function stripperFor(root: OpenAPISchema): (value: unknown, removed?: Removed) => unknown {
  const flatCache = new WeakMap<object, OpenAPISchema[]>()

  const resolve = (ref: string): OpenAPISchema | undefined => {
    if (ref === '#') return root
    if (!ref.startsWith('#/')) return undefined
    let node: unknown = root
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
      if (!isRecord(node)) return undefined
      node = node[key]
    }
    return isRecord(node) ? (node as OpenAPISchema) : undefined
  }

  /** The schema with `$ref`, `allOf`, `anyOf` and `oneOf` expanded into the schemas that apply. */
  const flatten = (schema: OpenAPISchema, seen: Set<object> = new Set()): OpenAPISchema[] => {
    const cached = flatCache.get(schema)
    if (cached) return cached
    if (seen.has(schema)) return []
    seen.add(schema)
    const out: OpenAPISchema[] = []
    if (typeof schema.$ref === 'string') {
      const target = resolve(schema.$ref)
      // Unresolvable: nothing is known, so nothing may be removed.
      out.push(...(target ? flatten(target, seen) : [{}]))
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const parts = schema[key]
      if (Array.isArray(parts)) for (const part of parts) out.push(...flatten(part, seen))
    }
    const composite =
      schema.$ref !== undefined ||
      schema.allOf !== undefined ||
      schema.anyOf !== undefined ||
      schema.oneOf !== undefined
    // The composite's own keywords still apply (`{ allOf: [...], properties: {...} }`).
    const { $ref, allOf, anyOf, oneOf, ...own } = schema
    if (!composite || Object.keys(own).some((k) => KEYWORDS.has(k)))
      out.push(composite ? own : schema)
    flatCache.set(schema, out)
    return out
  }

  const admits = (schema: OpenAPISchema, type: 'object' | 'array') => {
    const t = schema.type
    if (t === undefined) return true
    return Array.isArray(t) ? t.includes(type) : t === type
  }

  const objectView = (schemas: OpenAPISchema[]): ObjectView | undefined => {
    let relevant = false
    const view: ObjectView = { open: false, keys: new Map(), patterns: [], extra: [] }
    for (const s of schemas) {
      if (!admits(s, 'object')) continue
      relevant = true
      const props = isRecord(s.properties) ? (s.properties as Record<string, OpenAPISchema>) : {}
      for (const [key, sub] of Object.entries(props)) {
        const list = view.keys.get(key)
        if (list) list.push(sub)
        else view.keys.set(key, [sub])
      }
      const patterns = s.patternProperties
      if (isRecord(patterns)) {
        for (const [source, sub] of Object.entries(patterns)) {
          try {
            view.patterns.push({ re: new RegExp(source, 'u'), schema: sub as OpenAPISchema })
          } catch {
            view.open = true
          }
        }
      }
      const additional = s.additionalProperties
      const declares = isRecord(s.properties) || isRecord(patterns) || additional === false
      if (isRecord(additional)) {
        view.open = true
        view.extra.push(additional as OpenAPISchema)
      } else if (additional === true || !declares) view.open = true
    }
    return relevant ? view : undefined
  }

  const stripAll = (value: unknown, schemas: OpenAPISchema[], at: string, removed?: Removed) => {
    if (schemas.length === 0) return value
    const flat =
      schemas.length === 1
        ? flatten(schemas[0] as OpenAPISchema)
        : schemas.flatMap((s) => flatten(s))
    if (Array.isArray(value)) return stripArray(value, flat, at, removed)
    if (!isPlainObject(value)) return value
    const view = objectView(flat)
    if (!view) return value
    let out: Record<string, unknown> | undefined
    for (const key of Object.keys(value)) {
      const subs: OpenAPISchema[] = [...(view.keys.get(key) ?? [])]
      for (const p of view.patterns) if (p.re.test(key)) subs.push(p.schema)
      const declared = subs.length > 0
      if (!declared && !view.open) {
        out ??= { ...value }
        delete out[key]
        removed?.push(`${at}/${pointerPart(key)}`)
        continue
      }
      if (!declared) subs.push(...view.extra)
      const before = value[key]
      const after = stripAll(before, subs, `${at}/${pointerPart(key)}`, removed)
      if (after !== before) {
        out ??= { ...value }
        out[key] = after
      }
    }
    return out ?? value
  }

  const stripArray = (value: unknown[], flat: OpenAPISchema[], at: string, removed?: Removed) => {
    const arrays = flat.filter((s) => admits(s, 'array'))
    if (arrays.length === 0) return value
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const subs: OpenAPISchema[] = []
      for (const s of arrays) {
        const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : []
        const item = i < prefix.length ? prefix[i] : s.items
        // An array schema without `items` allows anything at this index.
        if (item === undefined || typeof item === 'boolean') return out ?? value
        subs.push(item)
      }
      const before = value[i]
      const after = stripAll(before, subs, `${at}/${i}`, removed)
      if (after !== before) {
        out ??= [...value]
        out[i] = after
      }
    }
    return out ?? value
  }

  return (value, removed) => stripAll(value, [root], '', removed)
}

/** Keywords that say something about a value besides composition (annotations excluded). */
const KEYWORDS = new Set([
  'type',
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'prefixItems',
  'required',
  'enum',
  'const',
])
