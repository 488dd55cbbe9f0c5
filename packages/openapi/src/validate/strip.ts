// Removing what a response schema does not declare, read from its JSON Schema, so the rule is the
// same for every schema library (zod strips, arktype keeps, raw JSON Schema has no parser at all).
// What is stripped is what `JSON.stringify` would send: `toJSON()` applied, the own enumerable
// properties of any object read (class instances, documents with getters, Dates), so the
// stripped value is what gets serialised and validated, never the object the handler built.
// The parts: the schema flattened into what applies (schema-flatten.ts), what it declares of an
// object's keys (object-view.ts), a value as JSON.stringify sees it (json-value.ts), and here
// the stripping itself, one node per place in the schema.
import type { OpenAPISchema } from '../schema/types'
import {
  applyToJSON,
  copyArray,
  isPlainObject,
  jsonObject,
  jsonValue,
  setOwn,
  unboxed,
} from './json-value'
import { type ObjectView, objectView } from './object-view'
import { admits, Choice, type Entry, expand, FlatSchemas, unresolvedOf } from './schema-flatten'

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

/**
 * A plain copy of `value`'s own enumerable properties that come before `key` (all kept as they
 * are): where a stripped copy starts once something differs. Built key by key rather than spread
 * and then deleted from, which leaves V8 a slower object (dictionary properties) whenever the
 * removed key is not the last one.
 */
function keptBefore(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k in value) {
    if (k === key) break
    if (Object.hasOwn(value, k)) setOwn(out, k, value[k])
  }
  return out
}

const NO_SCHEMAS: readonly OpenAPISchema[] = []

/** The schemas of `view`'s `patternProperties` whose pattern matches `key`. */
const matchingPatterns = (view: ObjectView, key: string) =>
  view.patterns.filter((p) => p.re.test(key)).map((p) => p.schema)

/** One reference token of a JSON pointer (RFC 6901). */
const pointerPart = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1')

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
  const flat = new FlatSchemas(root)
  const top = StripNode.of(flat, [root])
  return (value, removed) => top.strip(value, '', '', removed)
}

/**
 * The stripping rule for values that must match `entries` (parts and alternatives alike),
 * worked out once: the object view, and a child node per declared key and array position, each
 * made on first use and kept. A node whose entries hold a `Choice` strips each object by the
 * node of the alternatives the object selects.
 */
class StripNode {
  /** The schemas of the root, flattened (shared by every node of one stripper). */
  private readonly flat: FlatSchemas
  private readonly entries: Entry[]
  private readonly choices: boolean
  private view: ObjectView | null | undefined
  private readonly children = new Map<string, StripNode>()
  private extraChild: StripNode | undefined
  private arrays: OpenAPISchema[] | undefined
  private readonly items = new Map<number, StripNode | null>()
  /** Per selection of alternatives (see `expand`), the node of what is selected. */
  private readonly selected = new Map<string, StripNode>()
  /** A `$ref` among the entries that does not resolve: no object or array can be checked. */
  private readonly unresolved: string | undefined

  constructor(flat: FlatSchemas, entries: Entry[]) {
    this.flat = flat
    this.entries = entries
    this.choices = entries.some((e) => e instanceof Choice)
    for (const e of entries) {
      if (e instanceof Choice) continue
      this.unresolved ??= unresolvedOf(e)
    }
  }

  /** The node of values that must match every one of `schemas`. */
  static of(flat: FlatSchemas, schemas: OpenAPISchema[]): StripNode {
    return new StripNode(
      flat,
      schemas.length === 1
        ? flat.flatten(schemas[0] as OpenAPISchema)
        : schemas.flatMap((s) => flat.flatten(s)),
    )
  }

  /** The node without choices for `pick`. */
  private narrowed(pick: (c: Choice) => number[] | undefined): StripNode {
    const { schemas, key } = expand(this.entries, pick)
    let node = this.selected.get(key)
    // Stryker disable next-line ConditionalExpression: a cache; the same answers without it
    if (node === undefined) {
      node = new StripNode(this.flat, schemas)
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
    // Stryker disable next-line ConditionalExpression: a cache; the same answers without it
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
      // Stryker disable next-line ConditionalExpression: a cache; the same answers without it
      if (child === undefined) {
        const subs = view.keys.get(key)
        const matched = view.patterns.length === 0 ? NO_SCHEMAS : matchingPatterns(view, key)
        if (subs !== undefined || matched.length > 0) {
          child = StripNode.of(this.flat, [...(subs ?? []), ...matched])
          // Only declared names are kept: a record's arbitrary keys would grow the cache.
          // Stryker disable next-line ConditionalExpression,EqualityOperator: which keys are cached
          if (subs !== undefined) this.children.set(key, child)
        } else if (!view.open) {
          // The copy holds what is kept: the keys before this one, as they were, and those after.
          out ??= keptBefore(value, key)
          removed?.push(`${at}/${pointerPart(key)}`)
          continue
        } else if (view.extra.length > 0) {
          this.extraChild ??= StripNode.of(this.flat, view.extra)
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
      if (out === undefined && after !== before) out = keptBefore(value, key)
      if (out !== undefined) setOwn(out, key, after)
    }
    return out ?? value
  }

  private item(i: number): StripNode | null {
    this.arrays ??= (this.entries as OpenAPISchema[]).filter((s) => admits(s, 'array'))
    const slot = this.arrays.every(
      (s) => !Array.isArray(s.prefixItems) || i >= s.prefixItems.length,
    )
      ? -1
      : i
    let node = this.items.get(slot)
    // Stryker disable next-line ConditionalExpression: a cache; the same answers without it
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
      node = subs.length === 0 ? null : StripNode.of(this.flat, subs)
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
