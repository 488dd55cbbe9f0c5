// The route API the wrapper and its groups give back: typed route methods (for `c.req.valid()`
// and `hc<AppType>`), `use`, `group`, and the app wrapper itself.
import type { Env, ErrorHandler, Handler, Hono, MiddlewareHandler, NotFoundHandler } from 'hono'
import type { BlankSchema, MergePath, Schema, ToSchema } from 'hono/types'
import type { OpenAPIDocument } from '../model/document'
import type { RouteOptionsArg } from '../model/options'
import type { OpenAPIRequestMeta, OpenAPIResponseMeta, StoredRoute } from '../model/route'
import type { WebhookMeta } from '../model/webhook'
import type { RequestInput } from '../validate/types'
import type { RejectionOutput, RendersProblems, UseRecordOf } from './rejection-types'
import type { AllowedResponse, RouteOutput, StatusCheck } from './response-types'

/** Which object a route method returns: the app wrapper or a group. */
export type RouterKind = 'app' | 'group'

/**
 * The wrapper (or group) type after routes added schema `S`; `U` records the `use()` middleware
 * that reject (for the routes added later), `P` whether the app renders rejections as problem
 * details (`onError(problemHandler())`).
 */
export type RouterOf<
  K extends RouterKind,
  E extends Env,
  Prefix extends string,
  S extends Schema,
  U = never,
  P extends boolean = false,
> = K extends 'app' ? OpenAPIApp<E, Prefix, S, U, P> : OpenAPIGroup<E, Prefix, S, U, P>

/** The `use()` pattern of middleware added without a path: everything under the prefix. */
type Everything<Prefix extends string> = Prefix extends '/' ? '*' : MergePath<Prefix, '*'>

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
  U = never,
  Pr extends boolean = false,
> = <
  P extends string,
  // biome-ignore lint/complexity/noBannedTypes: no request schemas: Hono's blank input
  R extends OpenAPIRequestMeta = {},
  // biome-ignore lint/complexity/noBannedTypes: no declared responses: the handler's own answers
  O extends Record<number, OpenAPIResponseMeta> = {},
  // `| []` infers a tuple: each middleware keeps its own type (an array's element type would be
  // one union, which drops a middleware whose answers include another's).
  Mw extends MiddlewareHandler<E>[] | [] = MiddlewareHandler<E>[],
  // Inferred from the handler's return. Not `any` by default: with it, tsc fixed `Res` to `any`
  // while it typed the handler's `c` (the parameter type mentions `StatusCheck<Res, O>`), and
  // every answer was then reported as not fitting.
  Res extends AllowedResponse<O> = never,
>(
  path: P,
  // `NoInfer`: `Res` comes from the handler's return only; inferring from the check too cost
  // about 840 instantiations per route (a generated 100-route app: 387k against 352k).
  handler: Handler<E, MergePath<Prefix, P>, RequestInput<R>, Res> & NoInfer<StatusCheck<Res, O>>,
  opts?: RouteOptionsArg<E, R, O, Mw>,
) => RouterOf<
  K,
  E,
  Prefix,
  S &
    ToSchema<
      M,
      MergePath<Prefix, P>,
      RequestInput<R>,
      RouteOutput<Res, O> | RejectionOutput<U, MergePath<Prefix, P>, Mw[number], R, O, Pr>
    >,
  U,
  Pr
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
  U = never,
  Pr extends boolean = false,
> {
  get: RouteMethodFn<E, Prefix, S, 'get', K, U, Pr>
  post: RouteMethodFn<E, Prefix, S, 'post', K, U, Pr>
  put: RouteMethodFn<E, Prefix, S, 'put', K, U, Pr>
  patch: RouteMethodFn<E, Prefix, S, 'patch', K, U, Pr>
  delete: RouteMethodFn<E, Prefix, S, 'delete', K, U, Pr>
  /** Any method; documented under get, post, put, patch and delete. */
  all: RouteMethodFn<E, Prefix, S, 'all', K, U, Pr>
  /**
   * `use(mw, …)` or `use(path, mw, …)`: registers middleware (under the group prefix in a group).
   * It also runs for the docs endpoints whose path it matches (the document, both pages and their
   * files), even when added after `openapi()`, so `api.use('/explorer/*', guard)` protects them.
   */
  use<Pt extends string, Mw extends MiddlewareHandler<E>[]>(
    path: Pt,
    ...middleware: Mw
  ): RouterOf<K, E, Prefix, S, U | UseRecordOf<MergePath<Prefix, Pt>, Mw[number]>, Pr>
  use<Mw extends MiddlewareHandler<E>[]>(
    ...middleware: Mw
  ): RouterOf<K, E, Prefix, S, U | UseRecordOf<Everything<Prefix>, Mw[number]>, Pr>
  /**
   * Registers the routes `build` adds under `prefix` (joined once to this router's prefix). When
   * `build` returns the chained group, its routes join this router's type (for `hc`).
   */
  // biome-ignore lint/complexity/noBannedTypes: a group that returns nothing adds no schema
  group<P extends string, S2 extends Schema = {}>(
    prefix: P,
    build: (
      // biome-ignore lint/complexity/noBannedTypes: the group starts blank
      g: OpenAPIGroup<E, MergePath<Prefix, P>, {}, U, Pr>,
      // biome-ignore lint/suspicious/noExplicitAny: what the group's own use() added stays inside it
    ) => OpenAPIGroup<E, string, S2, any, any> | void,
  ): RouterOf<K, E, Prefix, S & S2, U, Pr>
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
  U = never,
  Pr extends boolean = false,
> extends OpenAPIRouter<E, Prefix, S, 'group', U, Pr> {
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
  U = never,
  Pr extends boolean = false,
> extends OpenAPIRouter<E, BasePath, S, 'app', U, Pr> {
  /** The wrapped Hono app, typed with every route added through the wrapper (for `hc`). */
  readonly app: Hono<E, S, BasePath>
  /** Routes registered through the wrapper, in registration order. */
  readonly routes: readonly StoredRoute[]
  /** The document, generated on first use and cached until the next route is added. */
  spec(): OpenAPIDocument
  /** Same as `spec()`. */
  getSpec(): OpenAPIDocument
  /**
   * The app's error handler. With `problemHandler()` (which the type marks), the answers of the
   * middleware of routes added after it are typed as problem details with their codes in `hc`.
   */
  onError<H extends ErrorHandler<E>>(
    handler: H,
  ): OpenAPIApp<E, BasePath, S, U, RendersProblems<H> extends true ? true : Pr>
  notFound(handler: NotFoundHandler<E>): this
  /**
   * Documents a webhook the app **sends** under the document's top-level `webhooks` (OpenAPI
   * 3.1): its payload schema (zod 3/4, Standard Schema, raw JSON Schema), the headers it carries
   * (`signature: 'standardWebhooks'` documents the signing headers) and what the subscriber
   * answers. Nothing is served. Throws for a name already documented, an unknown key or a schema
   * that cannot be documented.
   *
   * @example
   * ```ts
   * api.webhook('invoice.paid', {
   *   summary: 'An invoice was paid',
   *   payload: z.object({ type: z.literal('invoice.paid'), data: z.object({ invoice: z.string() }) }),
   *   signature: 'standardWebhooks',
   * })
   * ```
   */
  webhook(name: string, meta: WebhookMeta): this
  /** The Hono app's `fetch`: `export default api` and `serve(api)` work. */
  readonly fetch: Hono<E, S, BasePath>['fetch']
  /** The Hono app's `request`, for tests. */
  readonly request: Hono<E, S, BasePath>['request']
}
