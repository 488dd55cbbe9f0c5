import type { OpenAPISchema } from '../schema/types'

/** The `info` object of the document. */
export interface OpenAPIInfo {
  /** API title; also the title of the explorer and reference pages. */
  title: string
  /** API version (not the OpenAPI version), e.g. `1.0.0`. */
  version: string
  description?: string
  /** URL of the terms of service. */
  termsOfService?: string
  contact?: { name?: string; url?: string; email?: string }
  license?: { name: string; identifier?: string; url?: string }
}

/** One entry of `servers`. */
export interface OpenAPIServer {
  /** Base URL, absolute (`https://api.example.com`) or relative (`/v1`). */
  url: string
  description?: string
}

/**
 * Request schemas of a route. Each one may be a zod 3 or zod 4 schema, an object with
 * `toJSONSchema()`, or a raw JSON Schema (see `toOpenAPISchema`).
 */
export interface OpenAPIRequestMeta {
  /** JSON request body; becomes a `components.schemas` entry referenced by `$ref`. */
  body?: unknown
  /** Object schema: one `in: query` parameter per property. */
  query?: unknown
  /** Object schema typing the path parameters by name; untyped ones are strings. */
  params?: unknown
  /** Object schema: one `in: header` parameter per property. */
  headers?: unknown
}

/** One documented response. */
export interface OpenAPIResponseMeta {
  /** Required by OpenAPI; shown next to the status code. */
  description: string
  /** Body schema; becomes a `components.schemas` entry referenced by `$ref`. */
  schema?: unknown
  /** Media type of `schema`. Default `application/json`. */
  contentType?: string
}

/** OpenAPI metadata for one route (`opts.openapi`). */
export interface RouteOpenAPIMeta {
  summary?: string
  description?: string
  /** Unique across the API; a duplicate throws when the route is registered. */
  operationId?: string
  tags?: string[]
  deprecated?: boolean
  request?: OpenAPIRequestMeta
  /** By status code. Without it the operation documents a bare `200`. */
  responses?: Record<number, OpenAPIResponseMeta>
}

/** HTTP method of a stored route; `all` is Hono's any-method route. */
export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all'

/** A route as recorded by the wrapper: what `generateSpec` reads. */
export interface StoredRoute {
  method: RouteMethod
  /** Full Hono path as registered, including group prefixes and the app's base path. */
  path: string
  openapi?: RouteOpenAPIMeta
}

/** A Parameter Object. */
export interface OpenAPIParameter {
  name: string
  in: 'path' | 'query' | 'header'
  /** Always true for path parameters. */
  required: boolean
  description?: string
  deprecated?: boolean
  schema: OpenAPISchema
}

/** A Media Type Object. */
export interface OpenAPIMediaType {
  schema: OpenAPISchema
}

/** A Request Body Object. */
export interface OpenAPIRequestBody {
  required: boolean
  description?: string
  content: Record<string, OpenAPIMediaType>
}

/** A Response Object. */
export interface OpenAPIResponse {
  description: string
  content?: Record<string, OpenAPIMediaType>
}

/**
 * One operation: what `paths[path][method]` holds. (SPEC calls this type `OpenAPIPathItem`;
 * in OpenAPI terms it is an Operation Object.)
 */
export interface OpenAPIPathItem {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  deprecated?: boolean
  parameters?: OpenAPIParameter[]
  requestBody?: OpenAPIRequestBody
  /** Keyed by status code as a string; never empty. */
  responses: Record<string, OpenAPIResponse>
}

/** The generated OpenAPI 3.1.0 document. */
export interface OpenAPIDocument {
  openapi: '3.1.0'
  info: OpenAPIInfo
  servers: OpenAPIServer[]
  /** Tags used by operations, in order of first use. Present when any operation has tags. */
  tags?: { name: string }[]
  /** Path template, then lower-case method, then operation. */
  paths: Record<string, Record<string, OpenAPIPathItem>>
  components: { schemas: Record<string, OpenAPISchema> }
}

/** What `generateSpec` needs besides the routes; an `OpenAPIOptions` object fits. */
export interface SpecOptions {
  info: OpenAPIInfo
  servers?: OpenAPIServer[]
}
