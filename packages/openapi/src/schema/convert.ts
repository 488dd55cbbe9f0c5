import { isRecord } from './common'
import type { OpenAPISchema } from './types'
import { convertZodV3, isZodV3 } from './zod-v3'
import { convertZodV4, isZodV4 } from './zod-v4'

interface WithToJSONSchema {
  toJSONSchema: () => unknown
}

function hasToJSONSchema(schema: unknown): schema is WithToJSONSchema {
  return isRecord(schema) && typeof schema.toJSONSchema === 'function'
}

/**
 * Converts a schema to an OpenAPI 3.1 (JSON Schema 2020-12) schema.
 *
 * Accepted, checked in this order: zod 3 schemas (`_def.typeName`), zod 4 schemas (`_zod.def`),
 * any object with a `toJSONSchema()` method (its output with `$schema` removed), and raw JSON
 * Schema objects (returned unchanged). Descriptions, defaults, string formats, lengths, numeric
 * bounds, enums, literals, unions, intersections, records and tuples are carried over. A
 * recursive `z.lazy` schema is cut at the point of recursion with `{}` (any value), because a
 * component-local `$defs` reference would not resolve inside an OpenAPI document.
 *
 * @param schema - a zod 3 or zod 4 schema, an object with `toJSONSchema()`, or JSON Schema
 * @returns a fresh schema object (a raw JSON Schema input is returned as is)
 * @example
 * ```ts
 * import { z } from 'zod'
 * toOpenAPISchema(z.object({ name: z.string().min(1), email: z.email() }))
 * // { type: 'object', properties: { name: { type: 'string', minLength: 1 },
 * //   email: { type: 'string', format: 'email' } }, required: ['name', 'email'] }
 * ```
 */
export function toOpenAPISchema(schema: unknown): OpenAPISchema {
  const active = new Set<unknown>()
  const convert = (node: unknown): OpenAPISchema => {
    if (isZodV3(node) || isZodV4(node)) {
      if (active.has(node)) return {}
      active.add(node)
      try {
        return isZodV3(node) ? convertZodV3(node, convert) : convertZodV4(node, convert)
      } finally {
        active.delete(node)
      }
    }
    if (hasToJSONSchema(node)) {
      const out = node.toJSONSchema()
      if (!isRecord(out))
        throw new TypeError('toOpenAPISchema: toJSONSchema() did not return an object')
      const { $schema: _ignored, ...rest } = out
      return rest as OpenAPISchema
    }
    if (isRecord(node)) return node as OpenAPISchema
    if (node === undefined) return {}
    throw new TypeError(
      `toOpenAPISchema: expected a schema object, got ${node === null ? 'null' : typeof node}`,
    )
  }
  return convert(schema)
}
