import { isRecord, pascal, setOwn } from '../schema/common'
import type { ComponentSink } from '../schema/convert'
import { unescapeToken } from '../schema/json-pointer'
import type { OpenAPISchema } from '../schema/types'

/** Properties named in a component name before the rest are counted (`…And3More`). */
const MAX_NAMED_PROPERTIES = 4
/** Options named in a union's component name before the rest are counted. */
const MAX_NAMED_OPTIONS = 3

function listName(parts: string[], joiner: string, max: number): string {
  if (parts.length <= max) return parts.join(joiner)
  return `${parts.slice(0, max).join(joiner)}${joiner}${parts.length - max}More`
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'String',
  number: 'Number',
  integer: 'Integer',
  boolean: 'Boolean',
  null: 'Null',
  object: 'Object',
  array: 'Array',
}

/**
 * The component name for a schema, before any numbered suffix. A `title` wins; objects are named
 * from their property names (`{ name, email }` → `NameAndEmail`), arrays from their items
 * (`NameAndEmailList`), unions from their options (`StringOrNumber`), intersections from their
 * parts, enums and constants from their type (`StringEnum`), other schemas from their type.
 * The result always matches `^[A-Za-z0-9._-]+$`.
 */
export function schemaName(schema: OpenAPISchema): string {
  if (typeof schema.title === 'string') {
    const title = schema.title.replace(/[^A-Za-z0-9._-]+/g, '')
    if (title) return title
  }
  if (schema.properties && Object.keys(schema.properties).length > 0) {
    const parts = Object.keys(schema.properties).map((k) => pascal(k) || 'Property')
    return listName(parts, 'And', MAX_NAMED_PROPERTIES)
  }
  if (schema.prefixItems) return 'Tuple'
  if (schema.items) return `${schemaName(schema.items)}List`
  const options = schema.oneOf ?? schema.anyOf
  if (options && options.length > 0) {
    const nonNull = options.filter((o) => o.type !== 'null')
    const base = listName(nonNull.map(schemaName), 'Or', MAX_NAMED_OPTIONS)
    return nonNull.length < options.length ? `Nullable${base}` : base
  }
  if (schema.allOf && schema.allOf.length > 0) {
    return listName(schema.allOf.map(schemaName), 'And', MAX_NAMED_PROPERTIES)
  }
  const type = Array.isArray(schema.type)
    ? schema.type.map((t) => TYPE_NAMES[t]).join('Or')
    : schema.type
  const typeName = (type && (TYPE_NAMES[type] ?? type)) || ''
  if (Array.isArray(schema.enum)) return `${typeName}Enum`
  if (schema.const !== undefined) return `${typeName}Const`
  if (schema.$ref)
    return (
      schema.$ref
        .split('/')
        .pop()
        ?.replace(/[^A-Za-z0-9._-]+/g, '') || 'Ref'
    )
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    return `${schemaName(schema.additionalProperties)}Map`
  }
  return typeName || 'Any'
}

/** JSON with object keys sorted at every level: equal for structurally equal schemas. */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v
    const sorted: Record<string, unknown> = {}
    for (const k of Object.keys(v).sort()) setOwn(sorted, k, (v as Record<string, unknown>)[k])
    return sorted
  })
}

// Keywords whose values are data, not schemas: a `$ref` key inside them is not a reference.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example'])

/**
 * Rewrites the references of a standalone schema that point into itself (`#`, `#/$defs/X`) so they
 * point at the same place once the schema sits at `base` in the document (`#/components/schemas/X`):
 * in an OpenAPI document, `#` is the document root. References that do not resolve inside the
 * schema (`#/components/schemas/Pet`) and subschemas with their own `$id` are left alone.
 */
export function relocateRefs(schema: OpenAPISchema, base: string): OpenAPISchema {
  if (typeof schema.$id === 'string') return schema
  const resolvesInside = (ref: string): boolean => {
    let node: unknown = schema
    for (const raw of ref.slice(2).split('/')) {
      const key = unescapeToken(raw)
      if (!isRecord(node) && !Array.isArray(node)) return false
      if (!Object.hasOwn(node, key)) return false
      node = (node as Record<string, unknown>)[key]
    }
    return true
  }
  const walk = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false))
    if (!isRecord(node) || (!root && typeof node.$id === 'string')) return node
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) {
      let next = value
      if (key === '$ref' && typeof value === 'string') {
        if (value === '#') next = base
        else if (value.startsWith('#/') && resolvesInside(value)) next = base + value.slice(1)
      } else if (!DATA_KEYWORDS.has(key)) next = walk(value, false)
      setOwn(out, key, next)
    }
    return out
  }
  return walk(schema, true) as OpenAPISchema
}

/**
 * `components.schemas` under construction. Structurally equal schemas share one entry; a
 * different schema whose name is taken gets the next free numbered suffix (`NameAndEmail2`).
 */
export class ComponentRegistry implements ComponentSink {
  readonly schemas: Record<string, OpenAPISchema> = {}
  private readonly byCanonical = new Map<string, string>()
  /** Named schemas: `name + canonical JSON` → component name. */
  private readonly byName = new Map<string, string>()
  private readonly byNode = new Map<object, string>()

  private unique(base: string): string {
    let name = base
    for (let i = 2; Object.hasOwn(this.schemas, name); i++) name = `${base}${i}`
    return name
  }

  known(node: object): string | undefined {
    return this.byNode.get(node)
  }

  add(node: object, name: string, schema: OpenAPISchema): string {
    const key = `${name} ${canonicalJSON(schema)}`
    let final = this.byName.get(key)
    if (final === undefined) {
      final = this.unique(name)
      const ref = `#/components/schemas/${final}`
      setOwn(this.schemas, final, relocateRefs(JSON.parse(JSON.stringify(schema)), ref))
      this.byName.set(key, final)
    }
    const ref = `#/components/schemas/${final}`
    this.byNode.set(node, ref)
    return ref
  }

  reserve(node: object, name: string): string {
    const final = this.unique(name)
    setOwn(this.schemas, final, {})
    const ref = `#/components/schemas/${final}`
    this.byNode.set(node, ref)
    return ref
  }

  fill(ref: string, schema: OpenAPISchema): void {
    setOwn(this.schemas, ref.slice('#/components/schemas/'.length), schema)
  }

  /** Registers `schema` (or finds its twin) and returns a `$ref` to it. */
  ref(schema: OpenAPISchema): OpenAPISchema {
    // Already a component (a named or recursive schema): reference it directly.
    if (typeof schema.$ref === 'string' && Object.keys(schema).length === 1) return { ...schema }
    const canonical = canonicalJSON(schema)
    let name = this.byCanonical.get(canonical)
    if (name === undefined) {
      const base = schemaName(schema)
      name = base
      for (let i = 2; Object.hasOwn(this.schemas, name); i++) name = `${base}${i}`
      const copy = JSON.parse(JSON.stringify(schema)) as OpenAPISchema
      setOwn(this.schemas, name, relocateRefs(copy, `#/components/schemas/${name}`))
      this.byCanonical.set(canonical, name)
    }
    return { $ref: `#/components/schemas/${name}` }
  }
}
