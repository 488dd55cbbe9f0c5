import { withFieldHints } from '@palisade/shared/field-hints'
import type { ErrorHandler, Handler, Hono, MiddlewareHandler, NotFoundHandler } from 'hono'
import { mergePath } from 'hono/utils/url'
import { assertKnownSecurity, readDescription } from '../document/described-read'
import { generateSpec } from '../document/generate'
import type { OpenAPIDocument } from '../model/document'
import type { OpenAPIOptions } from '../model/options'
import type { RouteMethod, StoredRoute } from '../model/route'
import type { StoredWebhook } from '../model/webhook'
import { type DocsRegistrar, type MountDocsPages, mountPrefix } from '../pages/mount'
import { deprecationOf, planDeprecation } from '../rules/deprecation'
import { type ResolvedOptions, resolveOptions } from '../rules/options'
import { RouteIndex } from '../rules/route-index'
import { normalizeRouteOptions } from '../rules/route-options'
import { planRoute } from '../rules/route-plan'
import { assertWebhook } from '../rules/webhook-check'
import { isRecord } from '../schema/common'
import { hintsOf, routeBodyFields } from '../validate/field-hints'
import { requestValidator } from '../validate/request'
import { responseCheck } from '../validate/response'
import { type DeprecationStepOptions, deprecationStep } from './deprecation'
import { type DocsRoute, docsGuard, patternMatches } from './docs-routes'
import { assertKnownErrorHandler, existingMiddleware } from './existing'
import { basePathOf, lastRouteRecord, routeRecords, watchErrorHandler } from './hono-internals'
import type { BasePathOf, EnvOf, HonoApp } from './hono-types'
import {
  bindRegistrations,
  newRegistrations,
  noteDocs,
  noteRoute,
  type Registrations,
  recordCount,
  recordsSince,
} from './registered-routes'
import { WRAPPER_KEY } from './resolve'
import { middlewareFor, type UseRecord } from './route-middleware'
import type { OpenAPIApp } from './router-types'

/** The options that name a docs page (with the deprecated names), refused without the pages. */
const PAGE_OPTIONS = ['explorerPath', 'referencePath', 'docsPath', 'redocPath'] as const

/** Shared by the wrapper and all its groups. */
interface State {
  // biome-ignore lint/suspicious/noExplicitAny: internal: the wrapper registers on any Hono app
  app: Hono<any, any, any>
  options: ResolvedOptions
  routes: StoredRoute[]
  /** The webhooks the app sends (`webhook()`), documented under `webhooks`. */
  webhooks: StoredWebhook[]
  index: RouteIndex
  cache: Cache | undefined
  /** The endpoints `openapi()` serves itself, which `use()` must still be able to guard. */
  docs: DocsRoute[]
  /** Middleware added through `use()`, in order: what routes registered later run behind. */
  uses: UseRecord[]
  /** Which of Hono's records the wrapper made, read by `palisade audit`. */
  registrations: Registrations
  /** The base path Hono prefixes to the app's routes (read from the docs endpoint's record). */
  basePath: string
  /** The error handler Hono will call (see `watchErrorHandler`). */
  errorHandler: () => unknown
}

interface Cache {
  doc: OpenAPIDocument
  json: string
  /** The app's error handler the document was built for. */
  errorHandler: unknown
  /** JSON served under a parent app's mount prefix, by prefix (see `mountPrefix`). */
  mounted: Map<string, string>
}

function spec(state: State): Cache {
  // The handler Hono will call, however it was set (`api.onError`, or `app.onError` before or
  // after wrapping): its description decides how rejections are documented.
  const errorHandler = state.errorHandler()
  let cache = state.cache
  if (!cache || cache.errorHandler !== errorHandler) {
    const doc = generateSpec(state.routes, { ...state.options, errorHandler }, state.webhooks)
    cache = { doc, json: JSON.stringify(doc), errorHandler, mounted: new Map() }
    state.cache = cache
  }
  return cache
}

/**
 * The JSON served under a mount prefix. Its paths are relative to the mounted app, so unless the
 * user configured servers, the prefix becomes the server, and "Try it out" reaches the routes.
 */
function specJSON(state: State, prefix: string): string {
  const cache = spec(state)
  if (prefix === '' || state.options.servers.length > 0) return cache.json
  let json = cache.mounted.get(prefix)
  if (json === undefined) {
    json = JSON.stringify({ ...cache.doc, servers: [{ url: prefix }] })
    cache.mounted.set(prefix, json)
  }
  return json
}

/**
 * The security schemes the document will name, read from the options and from what each
 * recorded route's middleware describe, without building the document: serving a page never
 * generates it (the page fetches it), and this is all the explorer's policy needs.
 */
function describedSchemes(state: State): Record<string, unknown> {
  const schemes: Record<string, unknown> = { ...state.options.securitySchemes }
  let n = 0
  for (const route of state.routes) {
    for (const mw of route.middleware ?? []) {
      for (const alternative of readDescription(mw)?.security ?? []) {
        for (const { scheme } of alternative) schemes[`described${n++}`] = scheme
      }
    }
  }
  return schemes
}

function register(
  state: State,
  prefix: string,
  method: RouteMethod,
  path: unknown,
  handler: unknown,
  opts: unknown,
) {
  if (typeof path !== 'string') throw new TypeError(`openapi: ${method}() path must be a string`)
  const full = prefix === '' ? path : mergePath(prefix, path)
  const label = `${method.toUpperCase()} ${full}`
  if (typeof handler !== 'function')
    throw new TypeError(`openapi: ${label}: handler must be a function`)
  const {
    middlewares,
    openapi,
    validate,
    onValidationError,
    responseValidation,
    onResponseValidationError,
  } = normalizeRouteOptions(opts, label)
  const draft: StoredRoute =
    openapi === undefined ? { method, path: full } : { method, path: full, openapi }
  const running = [
    ...middlewareFor(state.uses, full, mergePath(state.basePath, full)),
    ...middlewares,
  ]
  if (running.length > 0) draft.middleware = running
  const validating = validate ?? state.options.validation
  if (validate !== undefined) draft.validate = validate
  // The route rules (shape, schemas, parameters, statuses, conflicts with earlier routes) throw
  // before Hono sees the route, so a rejected route is neither served nor documented.
  const plan = state.index.check(draft)
  assertKnownSecurity(draft, state.routes, state.options.securitySchemes)
  const before = recordCount(state.app)
  const validator = validating
    ? requestValidator(draft.openapi?.request, {
        jsonSchemaValidator: state.options.jsonSchemaValidator,
        onValidationError: onValidationError ?? state.options.onValidationError,
      })
    : undefined
  // What the validator will pin down, for a content guard (shield) that reads the body before it.
  const fields = validator ? routeBodyFields(draft.openapi?.request, state.options) : undefined
  const hints = hintsOf(fields)
  if (validator && hints) withFieldHints(validator, hints)
  if (fields?.freeText === false) draft.freeText = false
  const check = responseCheck(draft.openapi?.responses, {
    mode: responseValidation ?? state.options.responseValidation,
    path: full,
    alsoDeclared: answeredBefore(running, validator !== undefined, draft.openapi?.request),
    jsonSchemaValidator: state.options.jsonSchemaValidator,
    converters: state.options.converters,
    onResponseValidationError: onResponseValidationError ?? state.options.onResponseValidationError,
  })
  // A route middleware that answers instead of the handler is checked as the handler is.
  const routeMiddleware = check
    ? middlewares.map((mw) => check.middleware(mw as MiddlewareHandler))
    : middlewares
  const checked = check ? check.handler(handler as Handler) : (handler as Handler)
  const deprecation = deprecationFor(draft, state.options)
  const handlers = [
    ...(deprecation ? [deprecation.step] : []),
    ...routeMiddleware,
    ...(validator ? [validator] : []),
    checked,
  ]
  // Hono's overloads type handler chains by arity; the wrapper passes a checked list.
  const on = state.app.on as (method: string, path: string, ...handlers: Handler[]) => unknown
  const all = state.app.all as (path: string, ...handlers: Handler[]) => unknown
  if (method === 'all') all.call(state.app, full, ...handlers)
  else on.call(state.app, method.toUpperCase(), full, ...handlers)
  // Hono prefixes its base path; its own record has the path as served.
  const added = recordsSince(state.app, before)
  const served = (added.at(-1) as { path?: string } | undefined)?.path ?? full
  // Recorded only once Hono has accepted the route (Hono refuses routes added after its router
  // has been built by a first request).
  state.index.record(draft, plan)
  const stored: StoredRoute = { ...draft, path: served }
  if (deprecation) deprecation.name(stored)
  state.routes.push(stored)
  noteRoute(state.registrations, added, stored, handler)
  state.cache = undefined
}

/**
 * The first handler of a deprecated route (app/deprecation.ts), and how to name its operation in
 * the records once Hono has said the path it serves (base path included).
 */
function deprecationFor(
  route: StoredRoute,
  options: ResolvedOptions,
): { step: MiddlewareHandler; name: (stored: StoredRoute) => void } | undefined {
  const deprecated = deprecationOf(route.openapi)
  if (deprecated === undefined) return undefined
  const step: DeprecationStepOptions = {
    mode: options.sunsetMode,
    now: options.now,
    operation: route.openapi?.operationId ?? '',
  }
  return {
    step: deprecationStep(planDeprecation(deprecated), step),
    name(stored) {
      if (step.operation !== '') return
      const template = planRoute(stored)[0]?.variant.template ?? stored.path
      step.operation = `${stored.method.toUpperCase()} ${template}`
    },
  }
}

/**
 * Statuses the operation documents besides the route's own responses: what its middleware
 * answer, and the 400 (and 415 for a body) of request validation. A handler answering one of
 * them is not answering an undeclared status.
 */
function answeredBefore(
  middleware: readonly unknown[],
  validating: boolean,
  request: { body?: unknown; form?: unknown } | undefined,
): number[] {
  const statuses: number[] = []
  for (const mw of middleware) {
    for (const answer of readDescription(mw)?.responses ?? []) statuses.push(answer.status)
  }
  if (validating) statuses.push(400)
  if (validating && (request?.body !== undefined || request?.form !== undefined)) statuses.push(415)
  return statuses
}

function router<T extends object>(state: State, prefix: string, self: T) {
  const method =
    (m: RouteMethod) =>
    (path: unknown, handler: unknown, opts?: unknown): T => {
      register(state, prefix, m, path, handler, opts)
      return self
    }
  return {
    get: method('get'),
    post: method('post'),
    put: method('put'),
    patch: method('patch'),
    delete: method('delete'),
    all: method('all'),
    use(...args: unknown[]): T {
      const [first, ...rest] = args
      const explicit = typeof first === 'string'
      const handlers = explicit ? rest : args
      if (handlers.length === 0 || !handlers.every((h) => typeof h === 'function')) {
        throw new TypeError(
          'openapi: use() takes an optional path and at least one middleware function',
        )
      }
      const at = explicit
        ? prefix === ''
          ? first
          : mergePath(prefix, first)
        : prefix === ''
          ? '*'
          : mergePath(prefix, '*')
      state.app.use(at, ...(handlers as MiddlewareHandler[]))
      // Hono would run this after the docs endpoints (registered by openapi()), which answer
      // without calling next(); they run it themselves instead, once, before answering.
      const pattern = lastRouteRecord(state.app)?.path ?? at
      state.uses.push({ pattern: at, handlers })
      for (const docs of state.docs) {
        if (patternMatches(pattern, docs.path))
          docs.chain.push(...(handlers as MiddlewareHandler[]))
      }
      return self
    },
    group(sub: unknown, build: unknown): T {
      if (typeof sub !== 'string') throw new TypeError('openapi: group() prefix must be a string')
      if (typeof build !== 'function')
        throw new TypeError('openapi: group() build must be a function')
      const full = prefix === '' ? mergePath('/', sub) : mergePath(prefix, sub)
      const g = { prefix: full } as Record<string, unknown>
      Object.assign(g, router(state, full, g))
      ;(build as (g: unknown) => void)(g)
      return self
    },
  }
}

/**
 * The wrapper behind both entries: `openapi()` from `@palisade/openapi` passes `mountDocsPages`,
 * `openapi()` from `@palisade/openapi/spec` passes nothing, and then no page is served and nothing
 * of the pages is imported (so no bundler takes in their 2 MB of viewer files).
 */
export function wrap<A extends HonoApp>(
  input: A,
  options: OpenAPIOptions,
  mountPages: MountDocsPages | undefined,
): OpenAPIApp<EnvOf<A>, BasePathOf<A>> {
  if (
    !isRecord(input) ||
    typeof (input as { fetch?: unknown }).fetch !== 'function' ||
    routeRecords(input) === undefined
  ) {
    throw new TypeError('openapi: the first argument must be a Hono app')
  }
  if (mountPages === undefined) {
    for (const key of PAGE_OPTIONS) {
      if ((options as unknown as Record<string, unknown>)?.[key] !== undefined) {
        throw new TypeError(
          `openapi: ${key} is the path of a docs page, and @palisade/openapi/spec serves no page; import openapi from @palisade/openapi for the explorer and reference pages`,
        )
      }
    }
  }
  // biome-ignore lint/suspicious/noExplicitAny: checked above; the wrapper registers on any Hono app
  const app = input as unknown as Hono<any, any, any>
  // What Hono will run for every wrapped route is documented, or refused here, never guessed.
  assertKnownErrorHandler(app)
  const state: State = {
    app,
    options: resolveOptions(options),
    routes: [],
    webhooks: [],
    index: undefined as unknown as RouteIndex,
    cache: undefined,
    docs: [],
    uses: existingMiddleware(app),
    registrations: newRegistrations(),
    basePath: '/',
    errorHandler: watchErrorHandler(app),
  }
  state.index = new RouteIndex({ converters: state.options.converters })
  const { specPath, explorerPath, referencePath, info } = state.options
  const register: DocsRegistrar = (path, respond) => {
    const chain: MiddlewareHandler[] = []
    const before = recordCount(app)
    app.get(path, docsGuard(chain), respond)
    const added = recordsSince(app, before)
    noteDocs(state.registrations, added)
    state.basePath = basePathOf(added.at(-1))
    const served = (added.at(-1) as { path?: string } | undefined)?.path ?? path
    state.docs.push({ path: served, chain })
    return served
  }
  const servedSpecPath = register(specPath, function openapiDocument(c) {
    const json = specJSON(state, mountPrefix(c.req.routePath, servedSpecPath))
    return c.body(json, 200, { 'Content-Type': 'application/json; charset=UTF-8' })
  })
  // The pages fetch the document by URL, so they need the path as served (with any base path).
  mountPages?.(
    app,
    {
      specPath: servedSpecPath,
      explorerPath,
      referencePath,
      title: info.title,
      servers: state.options.servers,
      securitySchemes: () => describedSchemes(state),
    },
    register,
  )
  const wrapper = {} as Record<string, unknown>
  Object.assign(wrapper, router(state, '', wrapper), {
    app,
    spec: () => spec(state).doc,
    getSpec: () => spec(state).doc,
    onError(handler: ErrorHandler) {
      // Its description (problemHandler() has one) decides how rejections are documented; the
      // document reads it from the app when it is built.
      app.onError(handler)
      return wrapper
    },
    notFound(handler: NotFoundHandler) {
      app.notFound(handler)
      return wrapper
    },
    webhook(name: unknown, meta: unknown) {
      const { routes, webhooks, options } = state
      webhooks.push(
        assertWebhook(name, meta, { routes, webhooks }, { converters: options.converters }),
      )
      state.cache = undefined
      return wrapper
    },
    fetch: app.fetch,
    request: app.request,
  })
  Object.defineProperty(wrapper, 'routes', { get: () => state.routes, enumerable: true })
  // Lets `palisade audit|fuzz|export` start from the Hono app as well as from the wrapper.
  Object.defineProperty(app, WRAPPER_KEY, { value: wrapper, configurable: true })
  bindRegistrations(wrapper, state.registrations)
  return wrapper as unknown as OpenAPIApp<EnvOf<A>, BasePathOf<A>>
}
