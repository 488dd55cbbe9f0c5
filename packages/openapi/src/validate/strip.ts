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

  /**
   * The stripping rule for values that must match `schemas` (alternatives and parts alike),
   * worked out once: the object view, and a child node per declared key and array position,
   * each made on first use and kept.
   */
  class Node {
    private readonly flat: OpenAPISchema[]
    private view: ObjectView | null | undefined
    private readonly children = new Map<string, Node>()
    private extraChild: Node | undefined
    private arrays: OpenAPISchema[] | undefined
    private readonly items = new Map<number, Node | null>()

    constructor(schemas: OpenAPISchema[]) {
      this.flat =
        schemas.length === 1
          ? flatten(schemas[0] as OpenAPISchema)
          : schemas.flatMap((s) => flatten(s))
    }

    strip(value: unknown, at: string, removed: Removed | undefined): unknown {
      if (Array.isArray(value)) return this.stripArray(value, at, removed)
      if (!isPlainObject(value)) return value
      if (this.view === undefined) this.view = objectView(this.flat) ?? null
      const view = this.view
      if (view === null) return value
      let out: Record<string, unknown> | undefined
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue
        let child = this.children.get(key)
        if (child === undefined) {
          const subs = view.keys.get(key)
          const matched = view.patterns.filter((p) => p.re.test(key)).map((p) => p.schema)
          if (subs !== undefined || matched.length > 0) {
            child = new Node([...(subs ?? []), ...matched])
            // Only declared names are kept: a record's arbitrary keys would grow the cache.
            if (subs !== undefined) this.children.set(key, child)
          } else if (!view.open) {
            out ??= { ...value }
            delete out[key]
            removed?.push(`${at}/${pointerPart(key)}`)
            continue
          } else {
            if (view.extra.length === 0) continue
            this.extraChild ??= new Node(view.extra)
            child = this.extraChild
          }
        }
        const before = value[key]
        if (before === null || typeof before !== 'object') continue
        const after = child.strip(before, removed ? `${at}/${pointerPart(key)}` : '', removed)
        if (after !== before) {
          out ??= { ...value }
          out[key] = after
        }
      }
      return out ?? value
    }

    private item(i: number): Node | null {
      this.arrays ??= this.flat.filter((s) => admits(s, 'array'))
      const slot = this.arrays.every(
        (s) => !Array.isArray(s.prefixItems) || i >= s.prefixItems.length,
      )
        ? -1
        : i
      let node = this.items.get(slot)
      if (node === undefined) {
        const subs: OpenAPISchema[] = []
        for (const s of this.arrays) {
          const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : []
          const item = i < prefix.length ? prefix[i] : s.items
          // An array schema without `items` allows anything at this position.
          if (item === undefined || typeof item === 'boolean') {
            subs.length = 0
            break
          }
          subs.push(item)
        }
        node = subs.length === 0 ? null : new Node(subs)
        this.items.set(slot, node)
      }
      return node
    }

    private stripArray(value: unknown[], at: string, removed: Removed | undefined): unknown {
      let out: unknown[] | undefined
      for (let i = 0; i < value.length; i++) {
        const before = value[i]
        if (before === null || typeof before !== 'object') continue
        const node = this.item(i)
        if (node === null) continue
        const after = node.strip(before, removed ? `${at}/${i}` : '', removed)
        if (after !== before) {
          out ??= [...value]
          out[i] = after
        }
      }
      return out ?? value
    }
  }

  const top = new Node([root])
  return (value, removed) => top.strip(value, '', removed)
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
