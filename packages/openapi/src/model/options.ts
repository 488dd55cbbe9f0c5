// What the user passes: the options of `openapi()`, of `generateSpec` and of a route method.
import type { Env, MiddlewareHandler } from 'hono'
import type { SchemaConverter } from '../schema/convert'
import type { ValidationErrorHandler } from '../validate/request'
import type { ResponseValidationErrorHandler, ResponseValidationMode } from '../validate/response'
import type { JSONSchemaValidator } from '../validate/validator'
import type { OpenAPIInfo, OpenAPISecurityScheme, OpenAPIServer, OpenAPITag } from './document'
import type { OpenAPIRequestMeta, OpenAPIResponseMeta, RouteOpenAPIMeta } from './route'

/** Declared responses by status, as a route's `openapi.responses` holds them. */
type Responses = Record<number, OpenAPIResponseMeta>

/**
 * Options of `openapi(app, options)`.
 *
 * @example
 * const options: OpenAPIOptions = {
 *   info: { title: 'Pets API', version: '1.0.0' },
 *   explorerPath: '/docs',
 * }
 * const api = openapi(new Hono(), options)
 */
export interface OpenAPIOptions {
  /** Title, version and description of the API. Required. */
  info: OpenAPIInfo
  /** `servers` of the document. Default `[]`. */
  servers?: OpenAPIServer[]
  /** Path of the JSON document. Default `/openapi.json`. */
  specPath?: string
  /** Path of the interactive explorer page (Swagger UI). Default `/explorer`. */
  explorerPath?: string
  /** Path of the reference page (ReDoc). Default `/reference`. */
  referencePath?: string
  /**
   * Old name of `explorerPath`; still works. Passing both is a `TypeError`.
   *
   * @deprecated Use `explorerPath`. Removed in the next minor version.
   */
  docsPath?: string
  /**
   * Old name of `referencePath`; still works. Passing both is a `TypeError`.
   *
   * @deprecated Use `referencePath`. Removed in the next minor version.
   */
  redocPath?: string
  /**
   * Security schemes for auth that no middleware describes (your own middleware, a gateway),
   * by name; routes refer to them in `openapi.security`. Palisade middleware describe theirs.
   */
  securitySchemes?: Record<string, OpenAPISecurityScheme>
  /**
   * Validate `openapi.request` before each handler. Default `true`; `false` turns validation off
   * for every route (the schemas stay documentation).
   */
  validation?: boolean
  /** Reshapes every rejected request (a route's own hook wins). Default: the problem as is. */
  onValidationError?: ValidationErrorHandler
  /**
   * Validator for raw JSON Schema and `toJSONSchema()`-only request schemas, which otherwise
   * stay documentation only (e.g. an Ajv compile).
   */
  jsonSchemaValidator?: JSONSchemaValidator
  /** Top-level `tags`, with descriptions, in this order; tags routes use are appended. */
  tags?: OpenAPITag[]
  /**
   * What happens to a JSON response whose status has a declared schema: `'strip'` (default)
   * removes undeclared properties and answers 500 `response_invalid` for a body that still fails;
   * `'strict'` also fails on undeclared properties; `'report'` only calls the hook; `'off'`.
   * A route's own `responseValidation` wins.
   */
  responseValidation?: ResponseValidationMode
  /** Receives every response validation issue (a route's own hook wins). Default: none. */
  onResponseValidationError?: ResponseValidationErrorHandler
  /**
   * JSON Schema converters by Standard Schema vendor, for schemas that cannot describe
   * themselves: `{ valibot: toJsonSchema }` from `@valibot/to-json-schema`.
   */
  converters?: Record<string, SchemaConverter>
  /**
   * What a route past its `openapi.deprecated.sunset` does: `'announce'` (default) keeps
   * answering, with its Deprecation, Sunset and Link headers; `'enforce'` answers 410 `gone`
   * (problem details, with the same headers) from the sunset's second on, and documents it.
   */
  sunsetMode?: 'announce' | 'enforce'
  /**
   * The clock `sunsetMode: 'enforce'` reads, in milliseconds since the epoch. Default `Date.now`;
   * tests pass a fake one.
   */
  now?: () => number
}

/**
 * The `opts` parameter of a route method.
 *
 * @example
 * const opts: RouteOptions = {
 *   middlewares: [bodyLimit({ max: 10_000 })],
 *   openapi: { summary: 'Create a pet', responses: { 201: { description: 'Created' } } },
 * }
 * api.post('/pets', (c) => c.json({ id: 1 }, 201), opts)
 */
export interface RouteOptions<
  E extends Env = Env,
  R = OpenAPIRequestMeta,
  O extends Responses = Responses,
  Mw extends MiddlewareHandler<E>[] = MiddlewareHandler<E>[],
> {
  /**
   * Route-scoped middleware, run in order before the handler (and before validation). What they
   * answer (`jwtAuth`'s 401, `rateLimit`'s 429, …) is part of the route's `hc` types.
   */
  middlewares?: Mw
  /** What the route contributes to the document; `request` is also validated. */
  openapi?: RouteOpenAPIMeta<R, O>
  /** `false` turns request validation off for this route. Default: the app's `validation`. */
  validate?: boolean
  /** Reshapes this route's rejected requests, instead of the app-wide hook. */
  onValidationError?: ValidationErrorHandler
  /** This route's response validation mode. Default: the app's `responseValidation`. */
  responseValidation?: ResponseValidationMode
  /** This route's response validation hook, instead of the app-wide one. */
  onResponseValidationError?: ResponseValidationErrorHandler
}

/**
 * `RouteOptions`, or a plain array of middleware as shorthand for `{ middlewares }`.
 *
 * @example
 * // Shorthand for { middlewares: [...] }
 * api.post('/pets', (c) => c.json({ id: 1 }, 201), [bodyLimit({ max: 10_000 })])
 */
export type RouteOptionsArg<
  E extends Env = Env,
  R = OpenAPIRequestMeta,
  O extends Responses = Responses,
  Mw extends MiddlewareHandler<E>[] = MiddlewareHandler<E>[],
> = RouteOptions<E, R, O, Mw> | Mw

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
  /** As in `OpenAPIOptions`: `'enforce'` documents a 410 `gone` on operations with a sunset. */
  sunsetMode?: 'announce' | 'enforce'
}
