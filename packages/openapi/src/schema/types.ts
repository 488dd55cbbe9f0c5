/**
 * A JSON type name as used by the `type` keyword of JSON Schema 2020-12.
 *
 * @example
 * const nullableString: OpenAPISchema = { type: ['string', 'null'] satisfies OpenAPISchemaType[] }
 */
export type OpenAPISchemaType =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'object'
  | 'array'
  | 'null'

/**
 * An OpenAPI 3.1 Schema Object (JSON Schema 2020-12). The keywords the converter produces are
 * listed; any other keyword of a raw JSON Schema passes through the index signature.
 *
 * @example
 * const schema: OpenAPISchema = toOpenAPISchema(z.object({ name: z.string().min(1) }))
 * // { type: 'object', required: ['name'],
 * //   properties: { name: { type: 'string', minLength: 1 } } }
 */
export interface OpenAPISchema {
  /** One JSON type, or several (`['string', 'null']`). */
  type?: OpenAPISchemaType | OpenAPISchemaType[]
  /** Semantic format: `email`, `uri`, `uuid`, `date-time`, `date`, `time`, `ipv4`, `int64`, … */
  format?: string
  /** Names the component when the schema is a request or response body. */
  title?: string
  description?: string
  default?: unknown
  examples?: unknown[]
  deprecated?: boolean
  readOnly?: boolean
  writeOnly?: boolean
  const?: unknown
  enum?: unknown[]
  minLength?: number
  maxLength?: number
  /** An ECMA-262 regular expression, unanchored as JSON Schema defines it. */
  pattern?: string
  contentEncoding?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  multipleOf?: number
  items?: OpenAPISchema
  prefixItems?: OpenAPISchema[]
  minItems?: number
  maxItems?: number
  uniqueItems?: boolean
  properties?: Record<string, OpenAPISchema>
  required?: string[]
  additionalProperties?: OpenAPISchema | boolean
  propertyNames?: OpenAPISchema
  minProperties?: number
  maxProperties?: number
  oneOf?: OpenAPISchema[]
  anyOf?: OpenAPISchema[]
  allOf?: OpenAPISchema[]
  not?: OpenAPISchema
  /** A reference such as `#/components/schemas/NameAndEmail`. */
  $ref?: string
  [keyword: string]: unknown
}
