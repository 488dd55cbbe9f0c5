import type { Env, ErrorHandler, Handler, Hono, MiddlewareHandler, NotFoundHandler } from 'hono'
import type {
  BlankSchema,
  HandlerResponse,
  MergePath,
  Schema,
  ToSchema,
  TypedResponse,
} from 'hono/types'
import type {
  OpenAPIDocument,
  OpenAPIInfo,
  OpenAPIRequestMeta,
  OpenAPISecurityScheme,
  OpenAPIServer,
  OpenAPITag,
  RouteOpenAPIMeta,
  StoredRoute,
} from '../document/types'
import type { SchemaConverter } from '../schema/convert'
import type { JSONSchemaValidator, ValidationErrorHandler } from '../validate/request'
import type { RequestInput } from '../validate/types'

/**
 * Options of `openapi(app, options)`.
 *
 * @example
 * const options: OpenAPIOptions = {
 *   info: { title: 'Pets API', version: '1.0.0' },
 *   docsPath: '/docs',
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
  /** Path of the interactive explorer page. Default `/explorer`. */
  docsPath?: string
  /** Path of the reference page. Default `/reference`. */
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
   * JSON Schema converters by Standard Schema vendor, for schemas that cannot describe
   * themselves: `{ valibot: toJsonSchema }` from `@valibot/to-json-schema`.
   */
  converters?: Record<string, SchemaConverter>
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
export interface RouteOptions<E extends Env = Env, R = OpenAPIRequestMeta> {
  /** Route-scoped middleware, run in order before the handler (and before validation). */
  middlewares?: MiddlewareHandler<E>[]
  /** What the route contributes to the document; `request` is also validated. */
  openapi?: RouteOpenAPIMeta<R>
  /** `false` turns request validation off for this route. Default: the app's `validation`. */
  validate?: boolean
  /** Reshapes this route's rejected requests, instead of the app-wide hook. */
  onValidationError?: ValidationErrorHandler
}

/**
 * `RouteOptions`, or a plain array of middleware as shorthand for `{ middlewares }`.
 *
 * @example
 * // Shorthand for { middlewares: [...] }
 * api.post('/pets', (c) => c.json({ id: 1 }, 201), [bodyLimit({ max: 10_000 })])
 */
export type RouteOptionsArg<E extends Env = Env, R = OpenAPIRequestMeta> =
  | RouteOptions<E, R>
  | MiddlewareHandler<E>[]

/**
 * What `openapi()` accepts: a Hono app (checked at run time). Its `Env` and base path are read
 * with `EnvOf` and `BasePathOf`; the routes already on it are not part of the wrapper's type.
 */
export interface HonoApp {
  // biome-ignore lint/suspicious/noExplicitAny: any request handler signature
  fetch: (...args: any[]) => unknown
  routes: unknown[]
}

/**
 * The `Env` of a Hono app, read from its `onError`.
 *
 * @example
 * type E = EnvOf<Hono<{ Variables: { user: string } }>> // { Variables: { user: string } }
 */
export type EnvOf<A> = A extends { onError: (handler: ErrorHandler<infer E>) => unknown } ? E : Env

/**
 * The base path of a Hono app (`'/'` unless `basePath()` set one).
 *
 * Read from the path type Hono gives the handlers of `app.use(path, …)` (`'/v1/${string}'` under
 * `basePath('/v1')`, `string` without one), not by matching `Hono<E, S, infer B>`: that match
 * makes tsc compute the variance of Hono's type parameters, about 139,000 instantiations once per
 * program. When Hono's `use` has another shape it falls back to that match.
 *
 * @example
 * const v1 = new Hono().basePath('/v1')
 * type B = BasePathOf<typeof v1> // '/v1'
 */
// biome-ignore lint/suspicious/noExplicitAny: only the handlers' path type is read
export type BasePathOf<A> = A extends { use: (path: any, ...handlers: infer H) => unknown }
  ? // biome-ignore lint/suspicious/noExplicitAny: only the path type is read
    H extends MiddlewareHandler<any, infer P>[]
    ? string extends P
      ? '/'
      : PathBefore<P, '', A>
    : BasePathByMatch<A>
  : BasePathByMatch<A>

/** The base path by matching the Hono class: correct, but costs the variance computation. */
// biome-ignore lint/suspicious/noExplicitAny: only the base path is read
type BasePathByMatch<A> = A extends Hono<any, any, infer B> ? B : '/'

/** `'/v1/api/${string}'` → `'/v1/api'`: the segments before the open tail (else the match). */
type PathBefore<P extends string, Acc extends string, A> = P extends `/${infer Seg}/${infer Rest}`
  ? string extends Rest
    ? `${Acc}/${Seg}`
    : PathBefore<`/${Rest}`, `${Acc}/${Seg}`, A>
  : BasePathByMatch<A>

/** Hono's `MergeTypedResponse` (not exported by Hono): what a handler's return adds to a schema. */
type HandlerOutput<T> =
  T extends Promise<void>
    ? T
    : T extends Promise<infer T2>
      ? T2 extends TypedResponse
        ? T2
        : TypedResponse
      : T extends TypedResponse
        ? T
        : TypedResponse

/** Which object a route method returns: the app wrapper or a group. */
export type RouterKind = 'app' | 'group'

/** The wrapper (or group) type after routes added schema `S`. */
export type RouterOf<
  K extends RouterKind,
  E extends Env,
  Prefix extends string,
  S extends Schema,
> = K extends 'app' ? OpenAPIApp<E, Prefix, S> : OpenAPIGroup<E, Prefix, S>

/**
 * A route method: registers `handler` at `path` (joined to the prefix), validates and documents
 * it. `c.req.valid('json' | 'form' | 'query' | 'param' | 'header')` in the handler is typed from
 * `opts.openapi.request`, and the returned wrapper's type carries the route, as Hono's own
 * methods do, for `hc<AppType>`.
 *
 * @example
 * const get: RouteMethodFn<Env, '/', {}, 'get', 'app'> = api.get
 * get('/pets/:id', (c) => c.text(c.req.param('id')))
 */
export type RouteMethodFn<
  E extends Env,
  Prefix extends string,
  S extends Schema,
  M extends string,
  K extends RouterKind,
> = <
  P extends string,
  // biome-ignore lint/complexity/noBannedTypes: no request schemas: Hono's blank input
  R extends OpenAPIRequestMeta = {},
  // biome-ignore lint/suspicious/noExplicitAny: Hono's own handler response parameter
  Res extends HandlerResponse<any> = any,
>(
  path: P,
  handler: Handler<E, MergePath<Prefix, P>, RequestInput<R>, Res>,
  opts?: RouteOptionsArg<E, R>,
) => RouterOf<
  K,
  E,
  Prefix,
  S & ToSchema<M, MergePath<Prefix, P>, RequestInput<R>, HandlerOutput<Res>>
>

/**
 * The route API shared by the app wrapper and its groups; `S` accumulates the routes' schema.
 *
 * @example
 * function addHealth<E extends Env, P extends string>(r: OpenAPIRouter<E, P>) {
 *   r.get('/health', (c) => c.text('ok'), { openapi: { summary: 'Health check' } })
 * }
 * addHealth(api)
 */
export interface OpenAPIRouter<
  E extends Env,
  Prefix extends string,
  S extends Schema = BlankSchema,
  K extends RouterKind = RouterKind,
> {
  get: RouteMethodFn<E, Prefix, S, 'get', K>
  post: RouteMethodFn<E, Prefix, S, 'post', K>
  put: RouteMethodFn<E, Prefix, S, 'put', K>
  patch: RouteMethodFn<E, Prefix, S, 'patch', K>
  delete: RouteMethodFn<E, Prefix, S, 'delete', K>
  /** Any method; documented under get, post, put, patch and delete. */
  all: RouteMethodFn<E, Prefix, S, 'all', K>
  /**
   * `use(mw, …)` or `use(path, mw, …)`: registers middleware (under the group prefix in a group).
   * It also runs for the docs endpoints whose path it matches (the document, both pages and their
   * files), even when added after `openapi()`, so `api.use('/explorer/*', guard)` protects them.
   */
  use(
    ...args: [string, ...MiddlewareHandler<E>[]] | MiddlewareHandler<E>[]
  ): RouterOf<K, E, Prefix, S>
  /**
   * Registers the routes `build` adds under `prefix` (joined once to this router's prefix). When
   * `build` returns the chained group, its routes join this router's type (for `hc`).
   */
  // biome-ignore lint/complexity/noBannedTypes: a group that returns nothing adds no schema
  group<P extends string, S2 extends Schema = {}>(
    prefix: P,
    build: (
      // biome-ignore lint/complexity/noBannedTypes: the group starts blank
      g: OpenAPIGroup<E, MergePath<Prefix, P>, {}>,
      // biome-ignore lint/suspicious/noConfusingVoidType: a build callback may return nothing
    ) => OpenAPIGroup<E, string, S2> | void,
  ): RouterOf<K, E, Prefix, S & S2>
}

/**
 * The object `group(prefix, build)` passes to `build`.
 *
 * @example
 * api.group('/orgs/:org', (g: OpenAPIGroup) => {
 *   g.get('/repos', (c) => c.json([]), { openapi: { summary: 'List repositories' } })
 * })
 */
export interface OpenAPIGroup<
  E extends Env = Env,
  Prefix extends string = string,
  S extends Schema = BlankSchema,
> extends OpenAPIRouter<E, Prefix, S, 'group'> {
  /** The full prefix of this group, e.g. `/api/v1`. */
  readonly prefix: string
}

/**
 * What `openapi(app, options)` returns: the route API of Hono plus the document. Chain route
 * methods (`openapi(app, o).get(…).post(…)`) and `typeof api.app` is the `AppType` for
 * `hc<AppType>` from `hono/client`.
 *
 * @example
 * const api = openapi(new Hono(), { info: { title: 'Pets API', version: '1.0.0' } })
 *   .get('/pets', (c) => c.json([]), { openapi: { summary: 'List pets' } })
 * export type AppType = typeof api.app
 * export default api // serves the routes, /openapi.json, /explorer and /reference
 */
export interface OpenAPIApp<
  E extends Env = Env,
  BasePath extends string = '/',
  S extends Schema = BlankSchema,
> extends OpenAPIRouter<E, BasePath, S, 'app'> {
  /** The wrapped Hono app, typed with every route added through the wrapper (for `hc`). */
  readonly app: Hono<E, S, BasePath>
  /** Routes registered through the wrapper, in registration order. */
  readonly routes: readonly StoredRoute[]
  /** The document, generated on first use and cached until the next route is added. */
  spec(): OpenAPIDocument
  /** Same as `spec()`. */
  getSpec(): OpenAPIDocument
  onError(handler: ErrorHandler<E>): this
  notFound(handler: NotFoundHandler<E>): this
  /** The Hono app's `fetch`: `export default api` and `serve(api)` work. */
  readonly fetch: Hono<E, S, BasePath>['fetch']
  /** The Hono app's `request`, for tests. */
  readonly request: Hono<E, S, BasePath>['request']
}
