import { isRecord, pascal } from '../schema/common'
import { type ConvertOptions, toOpenAPISchema } from '../schema/convert'
import type { OpenAPISchema } from '../schema/types'
import { PROBLEM_JSON, validationProblemSchema } from '../validate/problem'
import { type JSONSchemaValidator, validatesAnything } from '../validate/request'
import {
  applyDescriptions,
  createMergeContext,
  finishSecurity,
  type MergeContext,
} from './middleware'
import { ComponentRegistry } from './naming'
import { type PathVariant, parseRoutePath } from './path'
import { isSecurityRequirementList } from './security'
import type {
  OpenAPIDocument,
  OpenAPIParameter,
  OpenAPIPathItem,
  OpenAPIResponse,
  RouteOpenAPIMeta,
  SpecOptions,
  StoredRoute,
} from './types'

/** Methods an `all` route is documented under. */
export const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/** Order of methods inside a path item, as the OpenAPI specification lists them. */
const METHOD_ORDER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** OpenAPI ignores these header parameters; auth belongs in security schemes, bodies in content. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization'])
/** RFC 9110 token: what an HTTP header name can be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** `type/subtype` (tokens, `*` allowed) with optional `; parameters`. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;.*)?$/

const REASON: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
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

function planRoute(route: StoredRoute): PlannedOperation[] {
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

/** Properties of an object schema (merging `allOf` parts), for query/header/path parameters. */
function objectParts(
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

function parameter(
  name: string,
  where: OpenAPIParameter['in'],
  schema: OpenAPISchema,
  required: boolean,
) {
  const { description, deprecated, ...rest } = schema
  const p: OpenAPIParameter = {
    name,
    in: where,
    required,
    schema: JSON.parse(JSON.stringify(rest)),
  }
  if (typeof description === 'string') p.description = description
  if (deprecated === true) p.deprecated = true
  return p
}

function buildParameters(
  convert: ConvertOptions,
  route: StoredRoute,
  variant: PathVariant,
  allNames: Set<string>,
): OpenAPIParameter[] {
  const request = route.openapi?.request
  const parameters: OpenAPIParameter[] = []
  const typed =
    request?.params === undefined
      ? undefined
      : objectParts(convert, route, 'params', request.params)
  if (typed) {
    for (const name of Object.keys(typed.properties)) {
      if (!allNames.has(name))
        throw routeError(route, `request.params has "${name}", which is not in the path`)
    }
  }
  for (const { name, pattern } of variant.params) {
    const schema: OpenAPISchema = { ...(typed?.properties[name] ?? { type: 'string' }) }
    if (pattern !== undefined && schema.type === 'string' && schema.pattern === undefined)
      schema.pattern = pattern
    parameters.push(parameter(name, 'path', schema, true))
  }
  for (const [where, input] of [
    ['query', request?.query],
    ['header', request?.headers],
  ] as const) {
    if (input === undefined) continue
    const { properties, required } = objectParts(
      convert,
      route,
      where === 'query' ? 'query' : 'headers',
      input,
    )
    for (const [name, schema] of Object.entries(properties)) {
      if (where === 'header' && !HEADER_NAME.test(name))
        throw routeError(route, `request.headers has "${name}", which is not an HTTP header name`)
      if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue
      parameters.push(parameter(name, where, schema, required.has(name)))
    }
  }
  return parameters
}

function buildResponses(
  route: StoredRoute,
  meta: RouteOpenAPIMeta | undefined,
  registry: ComponentRegistry,
  validated: boolean,
  convert: ConvertOptions,
): Record<string, OpenAPIResponse> {
  const responses: Record<string, OpenAPIResponse> = {}
  const entries = Object.entries(meta?.responses ?? {})
  if (entries.length === 0) responses['200'] = { description: 'Successful response' }
  for (const [status, response] of entries) {
    const code = Number(status)
    if (!/^[1-5]\d\d$/.test(status))
      throw routeError(route, `response status "${status}" is not an HTTP status code`)
    if (!isRecord(response))
      throw routeError(route, `response ${status} must be an object with a description`)
    const description =
      typeof response.description === 'string' && response.description !== ''
        ? response.description
        : (REASON[code] ?? `Status ${status}`)
    const out: OpenAPIResponse = { description }
    if (response.schema !== undefined) {
      const contentType = response.contentType ?? 'application/json'
      if (typeof contentType !== 'string' || !MEDIA_TYPE.test(contentType))
        throw routeError(
          route,
          `responses.${status}.contentType must be a media type such as "text/plain"`,
        )
      out.content = {
        [contentType]: { schema: registry.ref(toOpenAPISchema(response.schema, convert)) },
      }
    }
    responses[status] = out
  }
  if (validated && responses['400'] === undefined) {
    responses['400'] = {
      description: 'The request does not match the documented schema',
      content: { [PROBLEM_JSON]: { schema: registry.ref(validationProblemSchema()) } },
    }
  }
  // Status codes are integer-like keys: JavaScript keeps them in ascending order.
  return responses
}

function buildOperation(
  route: StoredRoute,
  op: PlannedOperation,
  allNames: Set<string>,
  registry: ComponentRegistry,
  options: SpecOptions,
  merge: MergeContext,
): OpenAPIPathItem {
  const meta = route.openapi
  const operation: Partial<OpenAPIPathItem> = {}
  if (op.operationId !== undefined) operation.operationId = op.operationId
  if (meta?.summary !== undefined) operation.summary = meta.summary
  if (meta?.description !== undefined) operation.description = meta.description
  if (meta?.tags && meta.tags.length > 0) operation.tags = [...meta.tags]
  if (meta?.deprecated === true) operation.deprecated = true
  const convert: ConvertOptions = {
    components: registry,
    converters: options.converters,
  }
  const parameters = buildParameters(
    { converters: convert.converters },
    route,
    op.variant,
    allNames,
  )
  if (parameters.length > 0) operation.parameters = parameters
  if (meta?.request?.body !== undefined) {
    operation.requestBody = {
      required: true,
      content: {
        'application/json': { schema: registry.ref(toOpenAPISchema(meta.request.body, convert)) },
      },
    }
  } else if (meta?.request?.form !== undefined) {
    const schema = registry.ref(toOpenAPISchema(meta.request.form, convert))
    operation.requestBody = {
      required: true,
      content: {
        'multipart/form-data': { schema },
        'application/x-www-form-urlencoded': { schema: { ...schema } },
      },
    }
  }
  const validated =
    (route.validate ?? options.validation ?? true) &&
    validatesAnything(meta?.request, options.jsonSchemaValidator as JSONSchemaValidator | undefined)
  operation.responses = buildResponses(route, meta, registry, validated, convert)
  applyDescriptions(operation as OpenAPIPathItem, route, op.method, merge)
  return operation as OpenAPIPathItem
}

/**
 * Builds the OpenAPI 3.1.0 document for `routes`. Pure and deterministic: the same routes in
 * the same order give the same document. Paths appear in registration order, methods inside a
 * path in the OpenAPI specification's order. Throws a descriptive `Error` for a duplicate
 * operationId, conflicting path parameter names, a wildcard route with metadata, or a schema that
 * cannot be a parameter list.
 *
 * @param routes - route records, as `OpenAPIApp.routes` holds them
 * @param options - `info` (required) and `servers` (default `[]`)
 * @returns a fresh document; schemas are copied, never shared with the input
 * @example
 * ```ts
 * const doc = generateSpec(
 *   [{ method: 'get', path: '/users/:id', openapi: { operationId: 'getUser' } }],
 *   { info: { title: 'Users', version: '1.0.0' } },
 * )
 * doc.paths['/users/{id}']?.get?.parameters // [{ name: 'id', in: 'path', required: true, … }]
 * ```
 */
export function generateSpec(
  routes: readonly StoredRoute[],
  options: SpecOptions,
): OpenAPIDocument {
  const index = new RouteIndex()
  const registry = new ComponentRegistry()
  const merge = createMergeContext(options, registry)
  const chosen = new Map<string, { priority: number; route: StoredRoute; op: PlannedOperation }>()
  const tags: string[] = (options.tags ?? []).map((t) => t.name)
  const pathOrder = new Set<string>()
  for (const route of routes) {
    index.add(route)
    for (const op of planRoute(route)) {
      const key = `${op.method} ${op.variant.template}`
      const current = chosen.get(key)
      if (!current || current.priority < op.priority)
        chosen.set(key, { priority: op.priority, route, op })
      pathOrder.add(op.variant.template)
    }
  }
  const byPath = new Map<string, Record<string, OpenAPIPathItem>>()
  // Build in route order so component names (and their suffixes) follow registration order.
  for (const route of routes) {
    const variants = parseRoutePath(route.path) ?? []
    const allNames = new Set(
      variants.flatMap((v) => [...v.params.map((p) => p.name), ...v.omitted]),
    )
    for (const op of planRoute(route)) {
      const entry = chosen.get(`${op.method} ${op.variant.template}`)
      if (entry?.route !== route || entry.op.method !== op.method) continue
      const item = byPath.get(op.variant.template) ?? {}
      item[op.method] = buildOperation(route, op, allNames, registry, options, merge)
      byPath.set(op.variant.template, item)
      for (const tag of route.openapi?.tags ?? []) if (!tags.includes(tag)) tags.push(tag)
    }
  }
  const paths: Record<string, Record<string, OpenAPIPathItem>> = {}
  for (const template of pathOrder) {
    const item = byPath.get(template)
    if (!item) continue
    const ordered: Record<string, OpenAPIPathItem> = {}
    for (const method of METHOD_ORDER) if (item[method]) ordered[method] = item[method]
    paths[template] = ordered
  }
  const doc: OpenAPIDocument = {
    openapi: '3.1.0',
    info: JSON.parse(JSON.stringify(options.info)),
    servers: (options.servers ?? []).map((s) => ({ ...s })),
    paths,
    components: { schemas: registry.schemas },
  }
  const securitySchemes = finishSecurity(paths, merge)
  if (securitySchemes) doc.components.securitySchemes = securitySchemes
  if (tags.length > 0) {
    const described = new Map((options.tags ?? []).map((t) => [t.name, t]))
    doc.tags = tags.map((name) => {
      const tag = described.get(name)
      return tag?.description === undefined ? { name } : { name, description: tag.description }
    })
  }
  return reorder(doc)
}

/** Puts `tags` after `servers`, the order readers of the JSON expect. */
function reorder(doc: OpenAPIDocument): OpenAPIDocument {
  const { openapi, info, servers, tags, paths, components } = doc
  return tags
    ? { openapi, info, servers, tags, paths, components }
    : { openapi, info, servers, paths, components }
}
