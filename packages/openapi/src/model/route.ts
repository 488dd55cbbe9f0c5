// What a route declares (`opts.openapi`) and the record the wrapper keeps of it: the input of
// the route rules and of the document builder.
import type { OpenAPISecurityRequirement } from './document'
import type { OpenAPILinkMeta } from './links'
import type { OpenAPICallbacks } from './webhook'

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
  /** Operations a client can call next with values of this response (`palisade fuzz` follows them). */
  links?: Record<string, OpenAPILinkMeta>
}

/**
 * When and how a route is deprecated (`openapi.deprecated`). Dates are read to the second (the
 * headers carry whole seconds; a sunset is enforced at the second it announces).
 *
 * @example
 * api.get('/v1/pets', listPets, {
 *   openapi: {
 *     deprecated: {
 *       since: new Date('2026-06-01T00:00:00Z'),
 *       sunset: new Date('2027-12-01T00:00:00Z'),
 *       link: 'https://example.com/changelog#v1-pets',
 *     },
 *   },
 * })
 */
export interface OpenAPIDeprecation {
  /**
   * When the route was (or will be) deprecated: sent as `Deprecation: @<unix seconds>`. Without
   * it no `Deprecation` header is sent: RFC 9745 gives the field no value but a date.
   */
  since?: Date
  /**
   * When the route stops answering: sent as `Sunset: <HTTP-date>`. Not before `since` (RFC 9745
   * §4). `palisade audit` warns 30 days before it and fails after it.
   */
  sunset?: Date
  /**
   * A page on the deprecation (what replaces the route): `Link: <link>; rel="deprecation"`, and
   * `rel="sunset"` too when a sunset is given. An absolute URL or a path.
   */
  link?: string
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
export interface RouteOpenAPIMeta<
  R = OpenAPIRequestMeta,
  O extends Record<number, OpenAPIResponseMeta> = Record<number, OpenAPIResponseMeta>,
> {
  summary?: string
  description?: string
  /** Unique across the API; a duplicate throws when the route is registered. */
  operationId?: string
  tags?: string[]
  /**
   * Marks the operation `deprecated: true` in the document. With dates, also at run time: every
   * response of the route carries `Deprecation: @<since>` (RFC 9745), `Sunset: <HTTP-date>`
   * (RFC 8594) and `Link: <link>; rel="deprecation"` (and `rel="sunset"` with a sunset), and
   * after the sunset the route answers 410 `gone` when the app's `sunsetMode` is `'enforce'`.
   * See {@link OpenAPIDeprecation}.
   */
  deprecated?: boolean | OpenAPIDeprecation
  /** Request schemas: documented, validated before the handler, typed in `c.req.valid()`. */
  request?: R
  /**
   * By status code. Without it the operation documents a bare `200`. JSON bodies the handler
   * sends under a status with a schema are checked (see `responseValidation`), and typed: the
   * handler's `c.json(body, status)` must fit, and `hc<AppType>` sees the schema's type.
   */
  responses?: O
  /**
   * Security requirements of the operation; wins over what the route's middleware describe.
   * `[]` marks the route public. Names refer to `securitySchemes` or to a middleware's scheme.
   */
  security?: OpenAPISecurityRequirement[]
  /**
   * `true` declares the route a webhook receiver: `palisade audit` (rule `webhook-signature`)
   * then requires a signature check on it (`webhook()` or `httpSignature()` of
   * `@palisade/middleware`, seen through their self-description). Routes with a `webhook` or
   * `webhooks` path segment and an unsafe method count as receivers unless this is `false`.
   * Adds nothing to the document.
   */
  webhookReceiver?: boolean
  /** Requests the app sends while handling this one, by name then URL expression. */
  callbacks?: OpenAPICallbacks
}

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
  /**
   * `false` when the route's body is validated and every field of it is pinned down (numbers,
   * enums, uuids, …: see validate/field-hints.ts), so it carries no free text. Read by audit's
   * `shield` rule; absent: free text (or no body).
   */
  freeText?: boolean
}
