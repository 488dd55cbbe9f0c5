// A response schema flattened into the schemas that apply to a value: `$ref` resolved, `allOf`
// expanded, and `anyOf`/`oneOf` expanded into all their alternatives, or kept as a `Choice` when
// a property tells them apart. What the stripper reads to know what a value may hold.
import { isRecord } from '../schema/common'
import { resolveLocalRef } from '../schema/json-pointer'
import type { OpenAPISchema } from '../schema/types'

/** Marks where an unresolvable `$ref` stood in a flattened schema list. */
const UNRESOLVED = Symbol('unresolved $ref')
type UnresolvedMark = OpenAPISchema & { [UNRESOLVED]: string }

/** The `$ref` a flattened schema stands for when it did not resolve, else undefined. */
export const unresolvedOf = (s: OpenAPISchema): string | undefined =>
  (s as Partial<UnresolvedMark>)[UNRESOLVED]

/**
 * An `anyOf`/`oneOf` whose alternatives a property tells apart (a `discriminator`, or a property
 * every object alternative declares with `const`/`enum`): an object value is stripped by the
 * alternatives its value of `property` selects, not by all of them.
 */
export class Choice {
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

/** One flattened schema, or a choice between alternatives. */
export type Entry = OpenAPISchema | Choice

/** Whether `schema` allows values of `type` (an unresolved `$ref` might). */
export function admits(schema: OpenAPISchema, type: 'object' | 'array'): boolean {
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

/** The schemas of one root (a response schema and its `$defs`), flattened once and kept. */
export class FlatSchemas {
  private readonly cache = new WeakMap<object, Entry[]>()

  constructor(readonly root: OpenAPISchema) {}

  /**
   * The schema with `$ref` and `allOf` expanded into the schemas that apply, and `anyOf`/`oneOf`
   * into all their alternatives, or into a `Choice` when a property tells them apart.
   */
  flatten(schema: OpenAPISchema, seen: Set<object> = new Set()): Entry[] {
    const cached = this.cache.get(schema)
    if (cached) return cached
    if (seen.has(schema)) return []
    seen.add(schema)
    const out: Entry[] = []
    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref)
      out.push(...(target ? this.flatten(target, seen) : [{ [UNRESOLVED]: schema.$ref } as Entry]))
    }
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf) out.push(...this.flatten(part, seen))
    for (const key of ['anyOf', 'oneOf'] as const) {
      const parts = schema[key]
      if (!Array.isArray(parts)) continue
      const choice = this.choiceOf(schema, parts, seen)
      if (choice) out.push(choice)
      else for (const part of parts) out.push(...this.flatten(part, seen))
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
    this.cache.set(schema, out)
    return out
  }

  /** The schema a local `$ref` (`#`, `#/$defs/…`) points to, or undefined. */
  private resolve(ref: string): OpenAPISchema | undefined {
    const node = resolveLocalRef(this.root, ref)
    return isRecord(node) ? (node as OpenAPISchema) : undefined
  }

  /** The `anyOf`/`oneOf` as a `Choice` when a property tells its object alternatives apart. */
  private choiceOf(
    schema: OpenAPISchema,
    parts: OpenAPISchema[],
    seen: Set<object>,
  ): Choice | undefined {
    const alternatives = parts.map((part) => this.flatten(part, seen))
    // Object alternatives only: the others (`null`, strings…) never hold an object's keys.
    const objects = alternatives.flatMap((alt, i) =>
      alt.some((e) => e instanceof Choice || admits(e, 'object')) ? [i] : [],
    )
    if (objects.length < 2) return undefined
    const discriminator = isRecord(schema.discriminator) ? schema.discriminator : undefined
    const props = objects.map((i) => propertiesOf(alternatives[i] as Entry[]))
    const property =
      typeof discriminator?.propertyName === 'string'
        ? discriminator.propertyName
        : this.taggingProperty(props)
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
      const values = sub === undefined ? undefined : this.constValues(sub)
      const refValues = discriminatorValues(parts[i] as OpenAPISchema, discriminator)
      if (values === undefined && refValues.length === 0) always.push(i)
      for (const value of [...(values ?? []), ...refValues]) add(value, i)
    })
    for (const list of byValue.values()) list.push(...always.filter((i) => !list.includes(i)))
    return new Choice(property, alternatives, byValue)
  }

  /**
   * Without a `discriminator`: the first property of the first object alternative that every
   * object alternative declares with `const`/`enum` values, or undefined.
   */
  private taggingProperty(props: Map<string, OpenAPISchema>[]): string | undefined {
    for (const name of (props[0] as Map<string, OpenAPISchema>).keys()) {
      if (
        props.every((p) => {
          const sub = p.get(name)
          return sub !== undefined && this.constValues(sub) !== undefined
        })
      ) {
        return name
      }
    }
    return undefined
  }

  /** Values `schema` allows for one property (`const`, `enum`), or undefined when unrestricted. */
  private constValues(schema: OpenAPISchema): unknown[] | undefined {
    const values: unknown[] = []
    let restricted = false
    for (const s of expand(this.flatten(schema), () => undefined).schemas) {
      if (s.const !== undefined) values.push(s.const)
      else if (Array.isArray(s.enum)) values.push(...s.enum)
      else continue
      restricted = true
    }
    return restricted ? values : undefined
  }
}

/** The properties the schemas of one alternative declare, the first declaration of each. */
function propertiesOf(alternative: Entry[]): Map<string, OpenAPISchema> {
  const out = new Map<string, OpenAPISchema>()
  for (const e of alternative) {
    if (e instanceof Choice || !isRecord(e.properties)) continue
    for (const [k, sub] of Object.entries(e.properties as Record<string, OpenAPISchema>))
      if (!out.has(k)) out.set(k, sub)
  }
  return out
}

/**
 * The discriminator values that select `part` by its `$ref`: OpenAPI's mapping (value to
 * `$ref`), and its implicit one (the component's name).
 */
function discriminatorValues(
  part: OpenAPISchema,
  discriminator: Record<string, unknown> | undefined,
): string[] {
  if (typeof part.$ref !== 'string') return []
  const mapping = isRecord(discriminator?.mapping) ? discriminator.mapping : {}
  return [
    ...Object.entries(mapping).flatMap(([k, ref]) => (ref === part.$ref ? [k] : [])),
    ...(discriminator ? [part.$ref.slice(part.$ref.lastIndexOf('/') + 1)] : []),
  ]
}

/**
 * The schemas of `entries` with each choice replaced by the alternatives `pick` names (all of
 * them when it names none), and a key naming the picks (indices only, so a cache by key stays
 * as small as the schema).
 */
export function expand(
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
