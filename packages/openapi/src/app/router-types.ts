// The route API the wrapper and its groups give back: typed route methods (for `c.req.valid()`
// and `hc<AppType>`), `use`, `group`, and the app wrapper itself.
import type { Env, ErrorHandler, Handler, Hono, MiddlewareHandler, NotFoundHandler } from 'hono'
import type { BlankSchema, HandlerResponse, MergePath, Schema, ToSchema } from 'hono/types'
import type { OpenAPIDocument } from '../model/document'
import type { RouteOptionsArg } from '../model/options'
import type { OpenAPIRequestMeta, StoredRoute } from '../model/route'
import type { RequestInput } from '../validate/types'
import type { HandlerOutput } from './hono-types'

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
