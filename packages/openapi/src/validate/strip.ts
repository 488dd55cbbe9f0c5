// Removing what a response schema does not declare, read from its JSON Schema, so the rule is the
// same for every schema library (zod strips, arktype keeps, raw JSON Schema has no parser at all).
// What is stripped is what `JSON.stringify` would send: `toJSON()` applied, the own enumerable
// properties of any object read (class instances, documents with getters, Dates), so the
// stripped value is what gets serialised and validated, never the object the handler built.
import { isRecord } from '../schema/common'
import type { OpenAPISchema } from '../schema/types'

/**
 * How a list of schemas that all apply treats the keys of one object value:
 * - `closed`: only `keys` (and names matching `patterns`) are declared;
 * - `open`: any key is allowed (`additionalProperties` absent on a schema that names no
 *   properties, `true`, or a schema), so nothing is removed.
 */
interface ObjectView {
  open: boolean
  keys: Map<string, OpenAPISchema[]>
  patterns: { re: RegExp; schema: OpenAPISchema }[]
  extra: OpenAPISchema[]
}

/** An undeclared property found in a body: its JSON pointer. */
export type Removed = string[]

/**
 * Thrown by a stripper when a value reaches a `$ref` that does not resolve: what the schema
 * declares there is unknown, so the body can be neither stripped (it could leak) nor emptied.
 * The response check answers it with 500 `response_invalid`.
 */
export class UnresolvedSchemaError extends Error {
  constructor(
    /** The JSON pointer of the value (empty when the stripper was not asked for pointers). */
    readonly pointer: string,
    readonly ref: string,
  ) {
    super(`Schema not found: $ref ${ref}`)
    this.name = 'UnresolvedSchemaError'
  }
}

/** Marks where an unresolvable `$ref` stood in a flattened schema list. */
const UNRESOLVED = Symbol('unresolved $ref')
type UnresolvedMark = OpenAPISchema & { [UNRESOLVED]: string }
const unresolvedOf = (s: OpenAPISchema): string | undefined =>
  (s as Partial<UnresolvedMark>)[UNRESOLVED]

/**
 * An `anyOf`/`oneOf` whose alternatives a property tells apart (a `discriminator`, or a property
 * every object alternative declares with `const`/`enum`): an object value is stripped by the
 * alternatives its value of `property` selects, not by all of them.
 */
class Choice {
  constructor(
    readonly property: string,
    /** Per alternative, its flattened schemas. */
    readonly alternatives: Entry[][],
    /** The alternatives each discriminator value selects (with those that name no value). */
    readonly byValue: Map<unknown, number[]>,
  ) {}

  /** The alternatives `value` selects by its own property (undefined when it selects none). */
  select(value: Record<string, unknown>): number[] | undefined {
    const tag = Object.hasOwn(value, this.property) ? value[this.property] : undefined
    return this.byValue.get(tag)
  }
}

type Entry = OpenAPISchema | Choice

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

const pointerPart = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1')

/** Sets an own property, `__proto__` included (an assignment would set the prototype). */
const setOwn = (o: Record<string, unknown>, key: string, value: unknown) => {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
  else o[key] = value
}

/** The result of `v.toJSON(key)` when `v` has one (as `JSON.stringify` calls it), else `v`. */
function applyToJSON(v: object | bigint, key: string | number): unknown {
  const toJSON = (v as { toJSON?: unknown }).toJSON
  return typeof toJSON === 'function' ? toJSON.call(v, String(key)) : v
}

/** The primitive inside a `Number`/`String`/`Boolean` object (sent as that primitive), or `v`. */
const unboxed = (v: object): unknown =>
  v instanceof Number || v instanceof String || v instanceof Boolean ? v.valueOf() : v

/** The elements of an array as a fresh plain array (holes become `undefined`, sent as null). */
const copyArray = (a: readonly unknown[]) => {
  const out: unknown[] = new Array(a.length)
  for (let i = 0; i < a.length; i++) out[i] = a[i]
  return out
}

/**
 * `value` as `JSON.stringify` would see it, with nothing removed: the same value when it is
 * plain objects, arrays and primitives all the way down; otherwise a copy in which every
 * `toJSON()` is applied and every other object (class instances, Dates, Maps…) is a plain object
 * of its own enumerable properties. What `'report'` validates, and what the open parts of a
 * schema (`{}`, records) hold once stripped.
 *
 * @example
 * jsonValue({ at: new Date(0) }) // { at: '1970-01-01T00:00:00.000Z' }
 */
export function jsonValue(value: unknown, key: string | number = ''): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'bigint')) return value
  const v = applyToJSON(value, key)
  if (v === null || typeof v !== 'object') return v
  return jsonObject(v)
}

function jsonObject(v: object): unknown {
  if (Array.isArray(v)) {
    let out: unknown[] | undefined
    for (let i = 0; i < v.length; i++) {
      const before = v[i]
      if (before === null || (typeof before !== 'object' && typeof before !== 'bigint')) continue
      const after = jsonValue(before, i)
      if (after !== before) {
        out ??= copyArray(v)
        out[i] = after
      }
    }
    return out ?? v
  }
  const record = v as Record<string, unknown>
  const copy = !isPlainObject(v)
  if (copy) {
    const primitive = unboxed(v)
    if (primitive !== v) return primitive
  }
  let out: Record<string, unknown> | undefined = copy ? {} : undefined
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue
    const before = record[key]
    const after =
      before === null || (typeof before !== 'object' && typeof before !== 'bigint')
        ? before
        : jsonValue(before, key)
    if (copy) setOwn(out as Record<string, unknown>, key, after)
    else if (after !== before) {
      out ??= { ...record }
      setOwn(out, key, after)
    }
  }
  return out ?? v
}

/**
 * A function that removes, from a value about to be sent as JSON, every object property the
 * schema does not declare, and gives back what is to be serialised. It works on what
 * `JSON.stringify` would send: `toJSON(key)` is applied and any object (a class instance, an ORM
 * entity, a document with getters, a Date) is read by its own enumerable properties, into a plain
 * copy, so serialising the result sends what was stripped, and only that.
 *
 * Conservative where the schema is ambiguous: through an `anyOf`/`oneOf` whose alternatives no
 * property tells apart (and across `allOf` parts) a property is kept when any alternative
 * declares it; an `anyOf`/`oneOf` with a `discriminator`, or whose object alternatives all
 * declare one property with `const`/`enum` values, strips by the alternatives the value's
 * property selects (by all of them when it selects none). An object schema that declares no
 * properties, `additionalProperties: true` or a schema for them, and `{}` keep everything. An
 * object or array that reaches a `$ref` that does not resolve throws `UnresolvedSchemaError`.
 *
 * The value is never mutated: plain objects are copied only where something is removed, so a
 * plain body with nothing undeclared is returned as the same object. Each removed property's
 * JSON pointer is pushed to `removed` when given.
 *
 * @example
 * const strip = stripperFor({ type: 'object', properties: { id: { type: 'string' } } })
 * strip({ id: '1', passwordHash: 'x' }) // { id: '1' }
 */
export function stripperFor(root: OpenAPISchema): (value: unknown, removed?: Removed) => unknown {
  const flatCache = new WeakMap<object, Entry[]>()

  const resolve = (ref: string): OpenAPISchema | undefined => {
    if (ref === '#') return root
    if (!ref.startsWith('#/')) return undefined
    let node: unknown = root
    for (const raw of ref.slice(2).split('/')) {
      let key: string
      try {
        key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
      } catch {
        return undefined
      }
      if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined
      node = node[key]
    }
    return isRecord(node) ? (node as OpenAPISchema) : undefined
  }

  /** Values `schema` allows for one property (`const`, `enum`), or undefined when unrestricted. */
  const constValues = (schema: OpenAPISchema): unknown[] | undefined => {
    const values: unknown[] = []
    let restricted = false
    for (const s of expand(flatten(schema), () => undefined).schemas) {
      if (s.const !== undefined) values.push(s.const)
      else if (Array.isArray(s.enum)) values.push(...s.enum)
      else continue
      restricted = true
    }
    return restricted ? values : undefined
  }

  /** The `anyOf`/`oneOf` as a `Choice` when a property tells its object alternatives apart. */
  const choiceOf = (schema: OpenAPISchema, parts: OpenAPISchema[], seen: Set<object>) => {
    const alternatives = parts.map((part) => flatten(part, seen))
    // Object alternatives only: the others (`null`, strings…) never hold an object's keys.
    const objects = alternatives.flatMap((alt, i) =>
      alt.some((e) => e instanceof Choice || admits(e, 'object')) ? [i] : [],
    )
    if (objects.length < 2) return undefined
    const propsOf = (i: number) => {
      const out = new Map<string, OpenAPISchema>()
      for (const e of alternatives[i] as Entry[]) {
        if (e instanceof Choice || !isRecord(e.properties)) continue
        for (const [k, sub] of Object.entries(e.properties as Record<string, OpenAPISchema>))
          if (!out.has(k)) out.set(k, sub)
      }
      return out
    }
    const discriminator = isRecord(schema.discriminator) ? schema.discriminator : undefined
    const props = objects.map(propsOf)
    let property =
      typeof discriminator?.propertyName === 'string' ? discriminator.propertyName : undefined
    if (property === undefined) {
      for (const name of (props[0] as Map<string, OpenAPISchema>).keys()) {
        if (
          props.every((p) => {
            const sub = p.get(name)
            return sub !== undefined && constValues(sub) !== undefined
          })
        ) {
          property = name
          break
        }
      }
    }
    if (property === undefined) return undefined
    const byValue = new Map<unknown, number[]>()
    const always: number[] = []
    const add = (value: unknown, i: number) => {
      const list = byValue.get(value)
      if (list === undefined) byValue.set(value, [i])
      else if (!list.includes(i)) list.push(i)
    }
    objects.forEach((i, n) => {
      const sub = (props[n] as Map<string, OpenAPISchema>).get(property)
      const values = sub === undefined ? undefined : constValues(sub)
      const part = parts[i] as OpenAPISchema
      // OpenAPI's mapping (value to `$ref`), and its implicit one (the component's name).
      const mapping = isRecord(discriminator?.mapping) ? discriminator.mapping : {}
      const refValues =
        typeof part.$ref === 'string'
          ? [
              ...Object.entries(mapping).flatMap(([k, ref]) => (ref === part.$ref ? [k] : [])),
              ...(discriminator ? [part.$ref.slice(part.$ref.lastIndexOf('/') + 1)] : []),
            ]
          : []
      if (values === undefined && refValues.length === 0) always.push(i)
      for (const value of [...(values ?? []), ...refValues]) add(value, i)
    })
    for (const list of byValue.values()) list.push(...always.filter((i) => !list.includes(i)))
    return new Choice(property, alternatives, byValue)
  }

  /**
   * The schema with `$ref` and `allOf` expanded into the schemas that apply, and `anyOf`/`oneOf`
   * into all their alternatives, or into a `Choice` when a property tells them apart.
   */
  const flatten = (schema: OpenAPISchema, seen: Set<object> = new Set()): Entry[] => {
    const cached = flatCache.get(schema)
    if (cached) return cached
    if (seen.has(schema)) return []
    seen.add(schema)
    const out: Entry[] = []
    if (typeof schema.$ref === 'string') {
      const target = resolve(schema.$ref)
      out.push(...(target ? flatten(target, seen) : [{ [UNRESOLVED]: schema.$ref } as Entry]))
    }
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf) out.push(...flatten(part, seen))
    for (const key of ['anyOf', 'oneOf'] as const) {
      const parts = schema[key]
      if (!Array.isArray(parts)) continue
      const choice = choiceOf(schema, parts, seen)
      if (choice) out.push(choice)
      else for (const part of parts) out.push(...flatten(part, seen))
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

  /**
   * The schemas of `entries` with each choice replaced by the alternatives `pick` names (all of
   * them when it names none), and a key naming the picks (indices only, so a cache by key stays
   * as small as the schema).
   */
  function expand(
    entries: Entry[],
    pick: (c: Choice) => number[] | undefined,
  ): { schemas: OpenAPISchema[]; key: string } {
    const schemas: OpenAPISchema[] = []
    let key = ''
    const seen = new Set<Choice>()
    const visit = (list: Entry[]) => {
      for (const e of list) {
        if (!(e instanceof Choice)) {
          schemas.push(e)
          continue
        }
        if (seen.has(e)) continue
        seen.add(e)
        const picked = pick(e)
        key += picked === undefined ? '*|' : `${picked.join(',')}|`
        if (picked === undefined) for (const alt of e.alternatives) visit(alt)
        else for (const i of picked) visit(e.alternatives[i] as Entry[])
      }
    }
    visit(entries)
    return { schemas, key }
  }

  const objectView = (schemas: OpenAPISchema[]): ObjectView | undefined => {
    let relevant = false
    const view: ObjectView = { open: false, keys: new Map(), patterns: [], extra: [] }
    for (const s of schemas) {
      // (A node with an unresolved `$ref` throws before it needs a view.)
      if (unresolvedOf(s) !== undefined || !admits(s, 'object')) continue
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
   * The stripping rule for values that must match `entries` (parts and alternatives alike),
   * worked out once: the object view, and a child node per declared key and array position, each
   * made on first use and kept. A node whose entries hold a `Choice` strips each object by the
   * node of the alternatives the object selects.
   */
  class Node {
    private readonly entries: Entry[]
    private readonly choices: boolean
    private view: ObjectView | null | undefined
    private readonly children = new Map<string, Node>()
    private extraChild: Node | undefined
    private arrays: OpenAPISchema[] | undefined
    private readonly items = new Map<number, Node | null>()
    /** Per selection of alternatives (see `expand`), the node of what is selected. */
    private readonly selected = new Map<string, Node>()
    /** A `$ref` among the entries that does not resolve: no object or array can be checked. */
    private readonly unresolved: string | undefined

    constructor(entries: Entry[]) {
      this.entries = entries
      this.choices = entries.some((e) => e instanceof Choice)
      for (const e of entries) {
        if (e instanceof Choice) continue
        this.unresolved ??= unresolvedOf(e)
      }
    }

    static of(schemas: OpenAPISchema[]): Node {
      return new Node(
        schemas.length === 1
          ? flatten(schemas[0] as OpenAPISchema)
          : schemas.flatMap((s) => flatten(s)),
      )
    }

    /** The node without choices for `pick`. */
    private narrowed(pick: (c: Choice) => number[] | undefined): Node {
      const { schemas, key } = expand(this.entries, pick)
      let node = this.selected.get(key)
      if (node === undefined) {
        node = new Node(schemas)
        this.selected.set(key, node)
      }
      return node
    }

    /** `value`, held under `key`, stripped and ready to serialise. */
    strip(value: unknown, key: string | number, at: string, removed: Removed | undefined): unknown {
      if (value === null || (typeof value !== 'object' && typeof value !== 'bigint')) return value
      const v = applyToJSON(value, key)
      if (v === null || typeof v !== 'object') return v
      return this.stripSerialisable(v, at, removed)
    }

    /** An object or array `toJSON` has already been applied to, stripped. */
    private stripSerialisable(v: object, at: string, removed: Removed | undefined): unknown {
      if (this.choices) {
        const node = Array.isArray(v)
          ? this.narrowed(() => undefined)
          : this.narrowed((c) => c.select(v as Record<string, unknown>))
        return node.stripSerialisable(v, at, removed)
      }
      if (this.unresolved !== undefined) throw new UnresolvedSchemaError(at, this.unresolved)
      return Array.isArray(v)
        ? this.stripArray(v, at, removed)
        : this.stripObject(v as Record<string, unknown>, at, removed)
    }

    private stripObject(
      value: Record<string, unknown>,
      at: string,
      removed: Removed | undefined,
    ): unknown {
      if (this.view === undefined) this.view = objectView(this.entries as OpenAPISchema[]) ?? null
      const view = this.view
      if (view === null) return jsonObject(value)
      // Anything but a plain object is sent as a plain copy of what was read here.
      const copy = !isPlainObject(value)
      if (copy) {
        const primitive = unboxed(value)
        if (primitive !== value) return primitive
      }
      let out: Record<string, unknown> | undefined = copy ? {} : undefined
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue
        let child = this.children.get(key)
        if (child === undefined) {
          const subs = view.keys.get(key)
          const matched = view.patterns.filter((p) => p.re.test(key)).map((p) => p.schema)
          if (subs !== undefined || matched.length > 0) {
            child = Node.of([...(subs ?? []), ...matched])
            // Only declared names are kept: a record's arbitrary keys would grow the cache.
            if (subs !== undefined) this.children.set(key, child)
          } else if (!view.open) {
            if (!copy) {
              out ??= { ...value }
              delete out[key]
            }
            removed?.push(`${at}/${pointerPart(key)}`)
            continue
          } else if (view.extra.length > 0) {
            this.extraChild ??= Node.of(view.extra)
            child = this.extraChild
          }
        }
        const before = value[key]
        let after = before
        if (before !== null && (typeof before === 'object' || typeof before === 'bigint')) {
          after =
            child === undefined
              ? jsonValue(before, key)
              : child.strip(before, key, removed ? `${at}/${pointerPart(key)}` : '', removed)
        }
        if (copy) setOwn(out as Record<string, unknown>, key, after)
        else if (after !== before) {
          out ??= { ...value }
          setOwn(out, key, after)
        }
      }
      return out ?? value
    }

    private item(i: number): Node | null {
      this.arrays ??= (this.entries as OpenAPISchema[]).filter((s) => admits(s, 'array'))
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
        node = subs.length === 0 ? null : Node.of(subs)
        this.items.set(slot, node)
      }
      return node
    }

    private stripArray(value: unknown[], at: string, removed: Removed | undefined): unknown {
      let out: unknown[] | undefined
      for (let i = 0; i < value.length; i++) {
        const before = value[i]
        if (before === null || (typeof before !== 'object' && typeof before !== 'bigint')) continue
        const node = this.item(i)
        const after =
          node === null
            ? jsonValue(before, i)
            : node.strip(before, i, removed ? `${at}/${i}` : '', removed)
        if (after !== before) {
          out ??= copyArray(value)
          out[i] = after
        }
      }
      return out ?? value
    }
  }

  const top = Node.of([root])
  return (value, removed) => top.strip(value, '', '', removed)
}

function admits(schema: OpenAPISchema, type: 'object' | 'array') {
  if (unresolvedOf(schema) !== undefined) return true
  const t = schema.type
  if (t === undefined) return true
  return Array.isArray(t) ? t.includes(type) : t === type
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
