import type { SecuritySchemeObject } from '@palisade/shared/describe'
import type { SchemaConverter } from '../schema/convert'
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
 * Request schemas of a route. Each one may be a zod 3 or zod 4 schema, an object with
 * `toJSONSchema()`, or a raw JSON Schema (see `toOpenAPISchema`).
 *
 * @example
 * const request: OpenAPIRequestMeta = {
 *   params: z.object({ id: z.uuid() }),
 *   query: z.object({ fields: z.string().optional() }),
 * }
 * api.get('/pets/:id', (c) => c.json({}), { openapi: { request } })
 */
export interface OpenAPIRequestMeta {
  /**
   * JSON request body (`application/json`); becomes a `components.schemas` entry referenced by
   * `$ref`. Validated, and read in the handler with `c.req.valid('json')`.
   */
  body?: unknown
  /**
   * Form body, documented as `multipart/form-data` and `application/x-www-form-urlencoded`;
   * validated from `c.req.parseBody()`, read with `c.req.valid('form')`. Not with `body`.
   */
  form?: unknown
  /** Object schema: one `in: query` parameter per property. */
  query?: unknown
  /** Object schema typing the path parameters by name; untyped ones are strings. */
  params?: unknown
  /** Object schema: one `in: header` parameter per property. */
  headers?: unknown
}

/**
 * One documented response.
 *
 * @example
 * const notFound: OpenAPIResponseMeta = {
 *   description: 'No such pet',
 *   schema: z.object({ error: z.string() }),
 * }
 * api.get('/pets/:id', (c) => c.json({ error: 'No such pet' }, 404), {
 *   openapi: { responses: { 404: notFound } },
 * })
 */
export interface OpenAPIResponseMeta {
  /** Required by OpenAPI; shown next to the status code. */
  description: string
  /** Body schema; becomes a `components.schemas` entry referenced by `$ref`. */
  schema?: unknown
  /** Media type of `schema`. Default `application/json`. */
  contentType?: string
}

/**
 * OpenAPI metadata for one route (`opts.openapi`).
 *
 * @example
 * const meta: RouteOpenAPIMeta = {
 *   operationId: 'listPets',
 *   summary: 'List pets',
 *   tags: ['pets'],
 *   responses: {
 *     200: { description: 'The pets', schema: z.array(z.object({ name: z.string() })) },
 *   },
 * }
 * api.get('/pets', (c) => c.json([]), { openapi: meta })
 */
export interface RouteOpenAPIMeta<R = OpenAPIRequestMeta> {
  summary?: string
  description?: string
  /** Unique across the API; a duplicate throws when the route is registered. */
  operationId?: string
  tags?: string[]
  deprecated?: boolean
  /** Request schemas: documented, validated before the handler, typed in `c.req.valid()`. */
  request?: R
  /** By status code. Without it the operation documents a bare `200`. */
  responses?: Record<number, OpenAPIResponseMeta>
  /**
   * Security requirements of the operation; wins over what the route's middleware describe.
   * `[]` marks the route public. Names refer to `securitySchemes` or to a middleware's scheme.
   */
  security?: OpenAPISecurityRequirement[]
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
 * HTTP method of a stored route; `all` is Hono's any-method route.
 *
 * @example
 * const methods: RouteMethod[] = api.routes.map((r) => r.method) // ['get', 'post', …]
 */
export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all'

/**
 * A route as recorded by the wrapper: what `generateSpec` reads.
 *
 * @example
 * const routes: StoredRoute[] = [
 *   { method: 'get', path: '/pets/:id', openapi: { summary: 'One pet' } },
 * ]
 * const doc = generateSpec(routes, { info: { title: 'Pets API', version: '1.0.0' } })
 */
export interface StoredRoute {
  method: RouteMethod
  /** Full Hono path as registered, including group prefixes and the app's base path. */
  path: string
  openapi?: RouteOpenAPIMeta
  /**
   * The middleware that run for the route, outermost first (`use()` before it whose path
   * matches, then `opts.middlewares`). Only read for the descriptions they carry.
   */
  middleware?: readonly unknown[]
  /** `false` when the route's request is not validated (no 400 problem response documented). */
  validate?: boolean
}

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
  parameters?: OpenAPIParameter[]
  requestBody?: OpenAPIRequestBody
  /** Keyed by status code as a string; never empty. */
  responses: Record<string, OpenAPIResponse>
  /** Alternatives; `[]` means public. Absent in a document without security schemes. */
  security?: OpenAPISecurityRequirement[]
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
  /** `options.tags`, then tags used by operations in order of first use; absent when none. */
  tags?: OpenAPITag[]
  /** Path template, then lower-case method, then operation. */
  paths: Record<string, Record<string, OpenAPIPathItem>>
  components: {
    schemas: Record<string, OpenAPISchema>
    /** Present when any scheme is declared or described by a middleware. */
    securitySchemes?: Record<string, OpenAPISecurityScheme>
  }
}

/**
 * What `generateSpec` needs besides the routes; an `OpenAPIOptions` object fits.
 *
 * @example
 * const options: SpecOptions = {
 *   info: { title: 'Pets API', version: '1.0.0' },
 *   servers: [{ url: '/v1' }],
 * }
 * const doc = generateSpec(api.routes, options)
 */
export interface SpecOptions {
  info: OpenAPIInfo
  servers?: OpenAPIServer[]
  /** Schemes for auth that no middleware describes; they keep these names. */
  securitySchemes?: Record<string, OpenAPISecurityScheme>
  /**
   * The app's error handler (`api.onError`). When it describes the body it gives rejections
   * (`problemDetails()` does), every middleware rejection is documented with that body.
   */
  errorHandler?: unknown
  /** Top-level tags with descriptions. */
  tags?: OpenAPITag[]
  /** `false`: no route is validated, so no 400 problem response is documented. Default `true`. */
  validation?: boolean
  /** As in `OpenAPIOptions`: raw JSON Schema request schemas count as validated when set. */
  jsonSchemaValidator?: unknown
  /** JSON Schema converters by Standard Schema vendor (`{ valibot: toJsonSchema }`). */
  converters?: Record<string, SchemaConverter>
}
