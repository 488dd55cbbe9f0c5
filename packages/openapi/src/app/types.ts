import type { Env, ErrorHandler, Handler, Hono, MiddlewareHandler, NotFoundHandler } from 'hono'
import type { BlankSchema, MergePath, Schema } from 'hono/types'
import type {
  OpenAPIDocument,
  OpenAPIInfo,
  OpenAPISecurityScheme,
  OpenAPIServer,
  RouteOpenAPIMeta,
  StoredRoute,
} from '../spec/types'

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
export interface RouteOptions<E extends Env = Env> {
  /** Route-scoped middleware, run in order before the handler. */
  middlewares?: MiddlewareHandler<E>[]
  /** What the route contributes to the document. */
  openapi?: RouteOpenAPIMeta
}

/**
 * `RouteOptions`, or a plain array of middleware as shorthand for `{ middlewares }`.
 *
 * @example
 * // Shorthand for { middlewares: [...] }
 * api.post('/pets', (c) => c.json({ id: 1 }, 201), [bodyLimit({ max: 10_000 })])
 */
export type RouteOptionsArg<E extends Env = Env> = RouteOptions<E> | MiddlewareHandler<E>[]

/**
 * A route method: registers `handler` at `path` (joined to the prefix) and documents it.
 *
 * @example
 * const get: RouteMethodFn<Env, '/', OpenAPIApp> = api.get
 * get('/pets/:id', (c) => c.text(c.req.param('id')))
 */
export type RouteMethodFn<E extends Env, Prefix extends string, Self> = <P extends string>(
  path: P,
  handler: Handler<E, MergePath<Prefix, P>>,
  opts?: RouteOptionsArg<E>,
) => Self

/**
 * The route API shared by the app wrapper and its groups.
 *
 * @example
 * function addHealth<E extends Env, P extends string>(r: OpenAPIRouter<E, P>) {
 *   r.get('/health', (c) => c.text('ok'), { openapi: { summary: 'Health check' } })
 * }
 * addHealth(api)
 */
export interface OpenAPIRouter<E extends Env, Prefix extends string> {
  get: RouteMethodFn<E, Prefix, this>
  post: RouteMethodFn<E, Prefix, this>
  put: RouteMethodFn<E, Prefix, this>
  patch: RouteMethodFn<E, Prefix, this>
  delete: RouteMethodFn<E, Prefix, this>
  /** Any method; documented under get, post, put, patch and delete. */
  all: RouteMethodFn<E, Prefix, this>
  /**
   * `use(mw, …)` or `use(path, mw, …)`: registers middleware (under the group prefix in a group).
   * It also runs for the docs endpoints whose path it matches (the document, both pages and their
   * files), even when added after `openapi()`, so `api.use('/explorer/*', guard)` protects them.
   */
  use(...args: [string, ...MiddlewareHandler<E>[]] | MiddlewareHandler<E>[]): this
  /** Registers the routes `build` adds under `prefix` (joined once to this router's prefix). */
  group<P extends string>(
    prefix: P,
    build: (g: OpenAPIGroup<E, MergePath<Prefix, P>>) => void,
  ): this
}

/**
 * The object `group(prefix, build)` passes to `build`.
 *
 * @example
 * api.group('/orgs/:org', (g: OpenAPIGroup) => {
 *   g.get('/repos', (c) => c.json([]), { openapi: { summary: 'List repositories' } })
 * })
 */
export interface OpenAPIGroup<E extends Env = Env, Prefix extends string = string>
  extends OpenAPIRouter<E, Prefix> {
  /** The full prefix of this group, e.g. `/api/v1`. */
  readonly prefix: string
}

/**
 * What `openapi(app, options)` returns: the route API of Hono plus the document.
 *
 * @example
 * const api: OpenAPIApp = openapi(new Hono(), { info: { title: 'Pets API', version: '1.0.0' } })
 * api.get('/pets', (c) => c.json([]), { openapi: { summary: 'List pets' } })
 * export default api // serves the routes, /openapi.json, /explorer and /reference
 */
export interface OpenAPIApp<
  E extends Env = Env,
  BasePath extends string = '/',
  S extends Schema = BlankSchema,
> extends OpenAPIRouter<E, BasePath> {
  /** The wrapped Hono app; routes added here directly are served but not documented. */
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
