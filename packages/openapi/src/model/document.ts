// The OpenAPI 3.1 objects the builder produces and the user reads back (`api.spec()`).
import type { SecuritySchemeObject } from '@palisade/shared/describe'
import type { OpenAPISchema } from '../schema/types'

/**
 * The `info` object of the document.
 *
 * @example
 * const info: OpenAPIInfo = { title: 'Pets API', version: '1.0.0', description: 'Adopt a pet.' }
 * const api = openapi(new Hono(), { info })
 */
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

/**
 * One entry of `servers`.
 *
 * @example
 * const servers: OpenAPIServer[] = [{ url: 'https://api.example.com', description: 'Production' }]
 * const api = openapi(new Hono(), { info: { title: 'Pets API', version: '1.0.0' }, servers })
 */
export interface OpenAPIServer {
  /** Base URL, absolute (`https://api.example.com`) or relative (`/v1`). */
  url: string
  description?: string
}

/**
 * One Security Requirement Object: scheme names, each with its scopes (`[]` outside OAuth2).
 * Several names in one object are required together; several objects are alternatives.
 *
 * @example
 * const bothKeys: OpenAPISecurityRequirement = { apiKeyHeader: [], bearerAuth: [] }
 */
export type OpenAPISecurityRequirement = Record<string, string[]>

/**
 * A Security Scheme Object, as `components.securitySchemes` holds it.
 *
 * @example
 * const scheme: OpenAPISecurityScheme = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }
 * const api = openapi(new Hono(), {
 *   info: { title: 'Pets API', version: '1.0.0' },
 *   securitySchemes: { partnerToken: scheme },
 * })
 */
export type OpenAPISecurityScheme = SecuritySchemeObject

/**
 * A top-level tag with its description.
 *
 * @example
 * const tags: OpenAPITag[] = [{ name: 'pets', description: 'Everything about pets' }]
 * const api = openapi(new Hono(), { info: { title: 'Pets API', version: '1.0.0' }, tags })
 */
export interface OpenAPITag {
  name: string
  description?: string
}

/**
 * A Parameter Object.
 *
 * @example
 * const params: OpenAPIParameter[] = api.spec().paths['/pets/{id}']?.get?.parameters ?? []
 * // [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]
 */
export interface OpenAPIParameter {
  name: string
  in: 'path' | 'query' | 'header'
  /** Always true for path parameters. */
  required: boolean
  description?: string
  deprecated?: boolean
  schema: OpenAPISchema
}

/**
 * A Media Type Object.
 *
 * @example
 * const media: OpenAPIMediaType | undefined =
 *   api.spec().paths['/pets']?.post?.requestBody?.content['application/json']
 * // { schema: { $ref: '#/components/schemas/Name' } }
 */
export interface OpenAPIMediaType {
  schema: OpenAPISchema
}

/**
 * A Request Body Object.
 *
 * @example
 * const body: OpenAPIRequestBody | undefined = api.spec().paths['/pets']?.post?.requestBody
 * // { required: true,
 * //   content: { 'application/json': { schema: { $ref: '#/components/schemas/Name' } } } }
 */
export interface OpenAPIRequestBody {
  required: boolean
  description?: string
  content: Record<string, OpenAPIMediaType>
}

/**
 * A Response Object.
 *
 * @example
 * const created: OpenAPIResponse | undefined = api.spec().paths['/pets']?.post?.responses['201']
 * // { description: 'Created', content: { 'application/json': { schema: { $ref: … } } } }
 */
export interface OpenAPIResponse {
  description: string
  headers?: Record<string, OpenAPIHeader>
  content?: Record<string, OpenAPIMediaType>
  /** Operations to call next with values of this response (a route's `links`). */
  links?: Record<string, OpenAPILink>
}

/**
 * A Link Object: the operation a response leads to and the values to call it with.
 *
 * @example
 * const link: OpenAPILink | undefined =
 *   api.spec().paths['/comments']?.post?.responses['201']?.links?.GetComment
 * // { operationId: 'getComment', parameters: { id: '$response.body#/id' } }
 */
export interface OpenAPILink {
  operationId?: string
  operationRef?: string
  parameters?: Record<string, unknown>
  requestBody?: unknown
  description?: string
}

/**
 * A Header Object of a response.
 *
 * @example
 * const retry: OpenAPIHeader | undefined =
 *   api.spec().paths['/api/ping']?.get?.responses['429']?.headers?.['Retry-After']
 * // { description: 'Seconds until a retry can succeed', schema: { type: 'integer', minimum: 1 } }
 */
export interface OpenAPIHeader {
  description?: string
  schema: OpenAPISchema
}

/**
 * One operation: what `paths[path][method]` holds. (SPEC calls this type `OpenAPIPathItem`;
 * in OpenAPI terms it is an Operation Object.)
 *
 * @example
 * const op: OpenAPIPathItem | undefined = api.spec().paths['/pets/{id}']?.get
 * op?.operationId // 'getPet'
 */
export interface OpenAPIPathItem {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  deprecated?: boolean
  /**
   * oasdiff's extension: the sunset of a deprecated operation (`openapi.deprecated.sunset`), a
   * date (`2027-12-01`) or an RFC 3339 instant. `palisade diff` reads it.
   */
  'x-sunset'?: string
  parameters?: OpenAPIParameter[]
  requestBody?: OpenAPIRequestBody
  /** Keyed by status code as a string; never empty. */
  responses: Record<string, OpenAPIResponse>
  /** Alternatives; `[]` means public. Absent in a document without security schemes. */
  security?: OpenAPISecurityRequirement[]
  /** Requests the app sends while handling this one: name, then URL expression, then method. */
  callbacks?: Record<string, Record<string, Record<string, OpenAPIPathItem>>>
}

/**
 * The generated OpenAPI 3.1.0 document.
 *
 * @example
 * const doc: OpenAPIDocument = api.spec()
 * const json = JSON.stringify(doc, null, 2) // e.g. written to openapi.json by a build step
 */
export interface OpenAPIDocument {
  openapi: '3.1.0'
  info: OpenAPIInfo
  servers: OpenAPIServer[]
  /**
   * The default requirement of operations without their own: `[]` (no credentials), as OpenAPI
   * assumes without it. Operations that middleware secure carry their own.
   */
  security?: OpenAPISecurityRequirement[]
  /** `options.tags`, then tags used by operations in order of first use; absent when none. */
  tags?: OpenAPITag[]
  /** Path template, then lower-case method, then operation. */
  paths: Record<string, Record<string, OpenAPIPathItem>>
  /**
   * The webhooks the app sends (`api.webhook()`), by name, then lower-case method; absent when
   * none.
   */
  webhooks?: Record<string, Record<string, OpenAPIPathItem>>
  components: {
    schemas: Record<string, OpenAPISchema>
    /** Present when any scheme is declared or described by a middleware. */
    securitySchemes?: Record<string, OpenAPISecurityScheme>
  }
}

/**
 * The OpenAPI version every generated document declares.
 *
 * @example
 * const doc = api.spec()
 * doc.openapi === OPENAPI_VERSION // '3.1.0'
 */
export const OPENAPI_VERSION = '3.1.0' as const
