import { MEDIA_TYPE } from '@palisade/shared/media-type'
import { TOKEN as HEADER_NAME } from '@palisade/shared/token'
import type { MiddlewareHandler } from 'hono'
import { isSecurityRequirementList } from '../document/security'
import type { RouteOpenAPIMeta, StoredRoute } from '../document/types'
import { isRecord, pascal } from '../schema/common'
import { type ConvertOptions, toOpenAPISchema } from '../schema/convert'
import type { OpenAPISchema } from '../schema/types'
import type { ValidationErrorHandler } from '../validate/request'
import { type PathVariant, parseRoutePath } from './path'

/** Methods an `all` route is documented under. */
export const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/** Properties of an object schema (merging `allOf` parts), for query/header/path parameters. */
export function objectParts(
  convert: ConvertOptions,
  route: StoredRoute,
  where: string,
  input: unknown,
): { properties: Record<string, OpenAPISchema>; required: Set<string> } {
  const schema = toOpenAPISchema(input, convert)
  const properties: Record<string, OpenAPISchema> = {}
  const required = new Set<string>()
  const visit = (s: OpenAPISchema): boolean => {
    if (s.allOf) return s.allOf.every(visit)
    if (!isRecord(s.properties)) return s.type === 'object' && !s.anyOf && !s.oneOf
    Object.assign(properties, s.properties)
    for (const r of s.required ?? []) required.add(r)
    return true
  }
  if (!visit(schema)) throw routeError(route, `request.${where} must be an object schema`)
  return { properties, required }
}

/** One operation a route contributes: a method on one path variant. */
export interface PlannedOperation {
  method: string
  variant: PathVariant
  operationId?: string
  /** Who documents a method+path registered twice: metadata beats none, a method beats `all`. */
  priority: number
}

function routeError(route: StoredRoute, message: string): Error {
  return new Error(`openapi: ${route.method.toUpperCase()} ${route.path}: ${message}`)
}

export function planRoute(route: StoredRoute): PlannedOperation[] {
  const variants = parseRoutePath(route.path)
  if (!variants) {
    if (route.openapi) {
      throw routeError(
        route,
        'a wildcard path cannot be described in OpenAPI; drop `openapi` or use a path parameter',
      )
    }
    return []
  }
  const methods = route.method === 'all' ? ALL_METHODS : [route.method]
  const priority = (route.openapi ? 2 : 0) + (route.method === 'all' ? 0 : 1)
  const baseId = route.openapi?.operationId
  const plan: PlannedOperation[] = []
  for (const variant of variants) {
    const names = variant.params.map((p) => p.name)
    const dup = names.find((n, i) => names.indexOf(n) !== i)
    if (dup !== undefined) throw routeError(route, `path parameter "${dup}" appears twice`)
    for (const method of methods) {
      let operationId = baseId
      if (operationId !== undefined) {
        if (route.method === 'all') operationId += pascal(method)
        if (variant.omitted.length > 0)
          operationId += `Without${variant.omitted.map(pascal).join('And')}`
      }
      plan.push({ method, variant, operationId, priority })
    }
  }
  return plan
}

const META_KEYS = [
  'summary',
  'description',
  'operationId',
  'tags',
  'deprecated',
  'request',
  'responses',
  'security',
]
const REQUEST_KEYS = ['body', 'form', 'query', 'params', 'headers']

const ROUTE_METHODS: readonly unknown[] = ['get', 'post', 'put', 'patch', 'delete', 'all']

/**
 * What each schema, parameter and response of a route must be to be documented: object schemas
 * for parameters, typed path parameters that are in the path, HTTP header names, status codes,
 * media types, and schemas the converter can read.
 */
function assertContent(route: StoredRoute, convert: ConvertOptions): void {
  const request = route.openapi?.request
  if (request?.params !== undefined) {
    const names = new Set(
      (parseRoutePath(route.path) ?? []).flatMap((v) => [
        ...v.params.map((p) => p.name),
        ...v.omitted,
      ]),
    )
    for (const name of Object.keys(
      objectParts(convert, route, 'params', request.params).properties,
    )) {
      if (!names.has(name))
        throw routeError(route, `request.params has "${name}", which is not in the path`)
    }
  }
  if (request?.query !== undefined) objectParts(convert, route, 'query', request.query)
  if (request?.headers !== undefined) {
    for (const name of Object.keys(
      objectParts(convert, route, 'headers', request.headers).properties,
    )) {
      if (!HEADER_NAME.test(name))
        throw routeError(route, `request.headers has "${name}", which is not an HTTP header name`)
    }
  }
  if (request?.body !== undefined) toOpenAPISchema(request.body, convert)
  if (request?.form !== undefined) toOpenAPISchema(request.form, convert)
  for (const [status, response] of Object.entries(route.openapi?.responses ?? {})) {
    if (!/^[1-5]\d\d$/.test(status))
      throw routeError(route, `response status "${status}" is not an HTTP status code`)
    if (!isRecord(response))
      throw routeError(route, `response ${status} must be an object with a description`)
    if (response.schema === undefined) continue
    const contentType = response.contentType ?? 'application/json'
    if (typeof contentType !== 'string' || !MEDIA_TYPE.test(contentType))
      throw routeError(
        route,
        `responses.${status}.contentType must be a media type such as "text/plain"`,
      )
    toOpenAPISchema(response.schema, convert)
  }
}

/** Shape checks of a route and its `openapi` metadata, so a typo fails at registration, not in a viewer. */
function assertRoute(route: StoredRoute): void {
  if (!isRecord(route) || typeof route.path !== 'string') {
    throw new Error('openapi: a route must be an object with a string path')
  }
  if (!ROUTE_METHODS.includes(route.method)) {
    throw new Error(
      `openapi: ${String(route.method)} ${route.path}: method must be one of ${ROUTE_METHODS.join(', ')}`,
    )
  }
  const meta: unknown = route.openapi
  if (meta === undefined) return
  if (!isRecord(meta)) throw routeError(route, '`openapi` must be an object')
  for (const key of Object.keys(meta)) {
    if (!META_KEYS.includes(key))
      throw routeError(route, `unknown openapi field "${key}" (known: ${META_KEYS.join(', ')})`)
  }
  for (const key of ['summary', 'description', 'operationId'] as const) {
    if (meta[key] !== undefined && typeof meta[key] !== 'string')
      throw routeError(route, `openapi.${key} must be a string`)
  }
  if (meta.operationId === '') throw routeError(route, 'openapi.operationId must not be empty')
  if (
    meta.tags !== undefined &&
    !(Array.isArray(meta.tags) && meta.tags.every((t) => typeof t === 'string' && t))
  ) {
    throw routeError(route, 'openapi.tags must be an array of non-empty strings')
  }
  if (meta.deprecated !== undefined && typeof meta.deprecated !== 'boolean') {
    throw routeError(route, 'openapi.deprecated must be a boolean')
  }
  if (meta.request !== undefined) {
    if (!isRecord(meta.request)) throw routeError(route, 'openapi.request must be an object')
    for (const key of Object.keys(meta.request)) {
      if (!REQUEST_KEYS.includes(key)) {
        throw routeError(
          route,
          `unknown openapi.request field "${key}" (known: ${REQUEST_KEYS.join(', ')})`,
        )
      }
    }
    if (meta.request.body !== undefined && meta.request.form !== undefined)
      throw routeError(route, 'openapi.request has both body (JSON) and form; pick one')
  }
  if (meta.security !== undefined && !isSecurityRequirementList(meta.security)) {
    throw routeError(route, 'openapi.security must be an array of { schemeName: [scopes] }')
  }
  if (meta.responses !== undefined && !isRecord(meta.responses)) {
    throw routeError(route, 'openapi.responses must be an object keyed by status code')
  }
}

/**
 * Cross-route rules, checked as routes arrive: unique operationIds, one parameter naming per
 * path shape (`/users/{id}` and `/users/{userId}` are the same path to OpenAPI), and at most one
 * route documenting a method on a path.
 */
export class RouteIndex {
  /** @param convert - schema converters (`converters` option), for the content checks */
  constructor(private readonly convert: ConvertOptions = {}) {}

  private readonly operationIds = new Map<string, string>()
  private readonly shapes = new Map<string, string>()
  private readonly owners = new Map<string, { priority: number; route: string }>()

  /** Validates `route` against the routes added so far, then records it; records nothing on error. */
  add(route: StoredRoute): void {
    this.record(route, this.check(route))
  }

  /** Throws if `route` breaks a rule; records nothing. Returns what `record` needs. */
  check(route: StoredRoute): PlannedOperation[] {
    assertRoute(route)
    assertContent(route, { converters: this.convert.converters })
    const plan = planRoute(route)
    const label = `${route.method.toUpperCase()} ${route.path}`
    const ids = new Set<string>()
    for (const op of plan) {
      if (op.operationId !== undefined) {
        const other = this.operationIds.get(op.operationId)
        if (other !== undefined || ids.has(op.operationId)) {
          throw routeError(
            route,
            `operationId "${op.operationId}" is already used by ${other ?? label}`,
          )
        }
        ids.add(op.operationId)
      }
      const shape = op.variant.template.replace(/\{[^}]*\}/g, '{}')
      const known = this.shapes.get(shape)
      if (known !== undefined && known !== op.variant.template) {
        throw routeError(
          route,
          `${op.variant.template} and ${known} are the same path with different parameter names`,
        )
      }
      const owner = this.owners.get(`${op.method} ${op.variant.template}`)
      if (owner && owner.priority === op.priority && op.priority >= 2) {
        throw routeError(
          route,
          `${op.method.toUpperCase()} ${op.variant.template} is already documented by ${owner.route}`,
        )
      }
    }
    return plan
  }

  /** Records a route that passed `check`. */
  record(route: StoredRoute, plan: PlannedOperation[]): void {
    const label = `${route.method.toUpperCase()} ${route.path}`
    for (const op of plan) {
      if (op.operationId !== undefined) this.operationIds.set(op.operationId, label)
      this.shapes.set(op.variant.template.replace(/\{[^}]*\}/g, '{}'), op.variant.template)
      const key = `${op.method} ${op.variant.template}`
      const owner = this.owners.get(key)
      if (!owner || owner.priority < op.priority)
        this.owners.set(key, { priority: op.priority, route: label })
    }
  }
}

const ROUTE_OPTION_KEYS = ['middlewares', 'openapi', 'validate', 'onValidationError']

export interface NormalizedOpts {
  middlewares: MiddlewareHandler[]
  openapi: RouteOpenAPIMeta | undefined
  validate: boolean | undefined
  onValidationError: ValidationErrorHandler | undefined
}

/** Checks a route method's `opts` argument: `RouteOptions` or an array of middleware. */
export function normalizeRouteOptions(opts: unknown, label: string): NormalizedOpts {
  const fail = (message: string): never => {
    throw new TypeError(`openapi: ${label}: ${message}`)
  }
  const out: NormalizedOpts = {
    middlewares: [],
    openapi: undefined,
    validate: undefined,
    onValidationError: undefined,
  }
  if (opts === undefined) return out
  let middlewares: unknown = []
  if (Array.isArray(opts)) middlewares = opts
  else if (isRecord(opts)) {
    for (const key of Object.keys(opts)) {
      if (!ROUTE_OPTION_KEYS.includes(key))
        fail(`unknown route option "${key}" (known: ${ROUTE_OPTION_KEYS.join(', ')})`)
    }
    middlewares = opts.middlewares ?? []
    out.openapi = opts.openapi as RouteOpenAPIMeta | undefined
    if (opts.validate !== undefined && typeof opts.validate !== 'boolean')
      fail('validate must be a boolean')
    out.validate = opts.validate as boolean | undefined
    if (opts.onValidationError !== undefined && typeof opts.onValidationError !== 'function')
      fail('onValidationError must be a function')
    out.onValidationError = opts.onValidationError as ValidationErrorHandler | undefined
  } else fail('opts must be RouteOptions or an array of middleware')
  if (!Array.isArray(middlewares) || !middlewares.every((m) => typeof m === 'function')) {
    fail('middlewares must be an array of middleware functions')
  }
  out.middlewares = middlewares as MiddlewareHandler[]
  return out
}
