import { isRecord, pascal } from './common'
import { componentName } from './names'
import type { OpenAPISchema } from './types'
import { convertZodV3, isZodV3 } from './zod-v3'
import { convertZodV4, isZodV4 } from './zod-v4'

/**
 * Where named and recursive schemas go when a whole document is built: each becomes one
 * `components.schemas` entry. Methods return the `$ref` string.
 */
export interface ComponentSink {
  /** The `$ref` already given to this schema object, if any. */
  known(node: object): string | undefined
  /** Stores a named schema (sharing an equal one of the same name) and returns its `$ref`. */
  add(node: object, name: string, schema: OpenAPISchema): string
  /** A fresh `$ref` for a schema that refers to itself; `fill` stores its content afterwards. */
  reserve(node: object, name: string): string
  fill(ref: string, schema: OpenAPISchema): void
}

/**
 * JSON Schema converter for a Standard Schema vendor that cannot describe itself, such as
 * `toJsonSchema` from `@valibot/to-json-schema`.
 */
export type SchemaConverter = (schema: never, options: { target: 'draft-2020-12' }) => unknown

/** Options of `toOpenAPISchema`. */
export interface ConvertOptions {
  /** By `~standard.vendor`: `{ valibot: toJsonSchema }`. */
  converters?: Readonly<Record<string, SchemaConverter>>
  /** Used by the document builder; standalone conversions put shared schemas in `$defs`. */
  components?: ComponentSink
}

const stripSchema = (out: unknown, from: string): OpenAPISchema => {
  if (!isRecord(out)) throw new TypeError(`toOpenAPISchema: ${from} did not return an object`)
  const { $schema: _ignored, ...rest } = out
  return rest as OpenAPISchema
}

/** A schema that is not zod: Standard JSON Schema, a vendor converter, `toJSONSchema()`, or raw. */
function describeOther(node: unknown, options: ConvertOptions): OpenAPISchema {
  const standard =
    (isRecord(node) || typeof node === 'function') &&
    (node as { '~standard'?: unknown })['~standard']
  if (isRecord(standard)) {
    const json = standard.jsonSchema
    if (isRecord(json) && typeof json.input === 'function') {
      return stripSchema(json.input({ target: 'draft-2020-12' }), '~standard.jsonSchema.input()')
    }
    const vendor = String(standard.vendor)
    const converter = options.converters?.[vendor]
    if (converter) {
      return stripSchema(
        converter(node as never, { target: 'draft-2020-12' }),
        `converters.${vendor}`,
      )
    }
  }
  if (
    (isRecord(node) || typeof node === 'function') &&
    typeof (node as { toJSONSchema?: unknown }).toJSONSchema === 'function'
  )
    return stripSchema((node as { toJSONSchema: () => unknown }).toJSONSchema(), 'toJSONSchema()')
  if (isRecord(standard)) {
    const vendor = String(standard.vendor)
    throw new TypeError(
      `toOpenAPISchema: a ${vendor} schema cannot describe itself as JSON Schema; pass a converter as \`converters: { ${vendor}: … }\`${vendor === 'valibot' ? ' (the toJsonSchema function of the @valibot/to-json-schema package)' : ''}`,
    )
  }
  if (isRecord(node)) return node as OpenAPISchema
  if (node === undefined) return {}
  throw new TypeError(
    `toOpenAPISchema: expected a schema object, got ${node === null ? 'null' : typeof node}`,
  )
}

/** Standalone conversions keep shared schemas in the root's `$defs`. */
function localSink(defs: Record<string, OpenAPISchema>): ComponentSink {
  const byNode = new Map<object, string>()
  const unique = (name: string) => {
    let n = name
    for (let i = 2; Object.hasOwn(defs, n); i++) n = `${name}${i}`
    defs[n] = {}
    return `#/$defs/${n}`
  }
  return {
    known: (node) => byNode.get(node),
    add(node, name, schema) {
      const ref = unique(name)
      defs[ref.slice(8)] = schema
      byNode.set(node, ref)
      return ref
    },
    reserve(node, name) {
      const ref = unique(name)
      byNode.set(node, ref)
      return ref
    },
    fill: (ref, schema) => {
      defs[ref.slice(8)] = schema
    },
  }
}

/**
 * Converts a schema to an OpenAPI 3.1 (JSON Schema 2020-12) schema.
 *
 * Accepted, checked in this order: zod 3 schemas (`_def.typeName`), zod 4 schemas (`_zod.def`),
 * Standard JSON Schema (`~standard.jsonSchema`, e.g. arktype), a Standard Schema whose vendor has
 * a converter in `options.converters` (valibot with `@valibot/to-json-schema`), any object with a
 * `toJSONSchema()` method, and raw JSON Schema objects (returned unchanged). Descriptions,
 * defaults, string formats, lengths, numeric bounds, enums, literals, unions, intersections,
 * records and tuples are carried over. A recursive schema (zod 4 getter, zod 3 `lazy`) becomes a
 * `$ref` cycle: standalone, through the root's `$defs`; in a document, through its own component.
 * Named schemas (`component()`, zod 4 `.meta({ id })` / `title`) become components in a document
 * and stay inline standalone.
 *
 * @param schema - a zod 3 or zod 4 schema, a Standard Schema, an object with `toJSONSchema()`, or
 *   JSON Schema
 * @param options - `converters` by Standard Schema vendor
 * @returns a fresh schema object (a raw JSON Schema input is returned as is)
 * @example
 * ```ts
 * import { z } from 'zod'
 * toOpenAPISchema(z.object({ name: z.string().min(1), email: z.email() }))
 * // { type: 'object', properties: { name: { type: 'string', minLength: 1 },
 * //   email: { type: 'string', format: 'email' } }, required: ['name', 'email'] }
 * ```
 */
export function toOpenAPISchema(schema: unknown, options: ConvertOptions = {}): OpenAPISchema {
  const document = options.components
  // Raw JSON Schema, Standard JSON Schema, toJSONSchema(): nothing to track (the common fast path).
  if (!isZodV3(schema) && !isZodV4(schema) && (!document || componentName(schema) === undefined))
    return describeOther(schema, options)
  const defs: Record<string, OpenAPISchema> = {}
  let local: ComponentSink | undefined
  const sink: ComponentSink = document ?? {
    known: (node) => local?.known(node),
    add: (node, name, s) => {
      local ??= localSink(defs)
      return local.add(node, name, s)
    },
    reserve: (node, name) => {
      local ??= localSink(defs)
      return local.reserve(node, name)
    },
    fill: (ref, s) => local?.fill(ref, s),
  }
  /** Nodes being converted, with the placeholders their cycles handed out. */
  const active = new Map<object, { $ref: string }[]>()
  const convert = (node: unknown): OpenAPISchema => {
    if (!isZodV3(node) && !isZodV4(node)) {
      const name = document ? componentName(node) : undefined
      if (name === undefined || typeof node !== 'object' || node === null)
        return describeOther(node, options)
      const known = sink.known(node)
      return known ? { $ref: known } : { $ref: sink.add(node, name, describeOther(node, options)) }
    }
    const known = sink.known(node)
    if (known) return { $ref: known }
    const cycle = active.get(node)
    if (cycle) {
      const placeholder = { $ref: '' }
      cycle.push(placeholder)
      return placeholder
    }
    const refs: { $ref: string }[] = []
    active.set(node, refs)
    let s: OpenAPISchema
    try {
      s = isZodV3(node) ? convertZodV3(node, convert) : convertZodV4(node, convert)
    } finally {
      active.delete(node)
    }
    const name = componentName(node)
    if (refs.length > 0) {
      if (!document && node === schema) {
        for (const r of refs) r.$ref = '#'
        return s
      }
      const ref = sink.reserve(node, name ?? schemaNameHint(s))
      for (const r of refs) r.$ref = ref
      sink.fill(ref, s)
      return { $ref: ref }
    }
    if (name !== undefined && document) return { $ref: sink.add(node, name, s) }
    return s
  }
  const out = convert(schema)
  if (Object.keys(defs).length > 0) return { ...out, $defs: defs }
  return out
}

/** A name for an unnamed recursive schema: its title, or its property names. */
function schemaNameHint(s: OpenAPISchema): string {
  if (typeof s.title === 'string' && s.title)
    return s.title.replace(/[^A-Za-z0-9._-]+/g, '') || 'Node'
  const keys = Object.keys(s.properties ?? {})
    .slice(0, 4)
    .map(pascal)
    .filter(Boolean)
  return keys.join('And') || 'Node'
}
