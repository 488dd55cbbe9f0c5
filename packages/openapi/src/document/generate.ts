import { ACCEPT_ENCODING_SCHEMA } from '@palisade/shared/content-coding'
import { statusPhrase } from '@palisade/shared/problem'
import type {
  OpenAPIDocument,
  OpenAPIParameter,
  OpenAPIPathItem,
  OpenAPIResponse,
} from '../model/document'
import { ComponentRegistry } from '../model/naming'
import type { SpecOptions } from '../model/options'
import type { RouteOpenAPIMeta, StoredRoute } from '../model/route'
import { finishSecurity } from '../model/security'
import type { StoredWebhook } from '../model/webhook'
import { deprecationOf, sunsetStamp } from '../rules/deprecation'
import { resolveSpecOptions } from '../rules/options'
import type { PathVariant } from '../rules/path'
import { objectParts } from '../rules/route-check'
import { RouteIndex } from '../rules/route-index'
import { type PlannedOperation, planRoute } from '../rules/route-plan'
import { type ConvertOptions, toOpenAPISchema } from '../schema/convert'
import type { OpenAPISchema } from '../schema/types'
import { PROBLEM_JSON, validationProblemSchema } from '../validate/problem'
import { type JSONSchemaValidator, validatesAnything } from '../validate/validator'
import { applyDeprecation } from './deprecation'
import { applyDescriptions, createMergeContext, type MergeContext } from './described-merge'
import { addLinks, assertLinkTargets, buildCallbacks } from './links'
import { buildWebhook } from './webhooks'

/** Order of methods inside a path item, as the OpenAPI specification lists them. */
const METHOD_ORDER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** OpenAPI ignores these header parameters; auth belongs in security schemes, bodies in content. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization'])

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
): OpenAPIParameter[] {
  const request = route.openapi?.request
  const parameters: OpenAPIParameter[] = []
  const typed =
    request?.params === undefined
      ? undefined
      : objectParts(convert, route, 'params', request.params)
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
      if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue
      parameters.push(parameter(name, where, schema, required.has(name)))
    }
  }
  return parameters
}

function buildResponses(
  meta: RouteOpenAPIMeta | undefined,
  registry: ComponentRegistry,
  validated: boolean,
  convert: ConvertOptions,
): Record<string, OpenAPIResponse> {
  const responses: Record<string, OpenAPIResponse> = {}
  const entries = Object.entries(meta?.responses ?? {})
  if (entries.length === 0) responses['200'] = { description: 'Successful response' }
  for (const [status, response] of entries) {
    // Shapes were checked by the route rules (rules/route-check.ts) before the route was recorded.
    const code = Number(status)
    const description =
      typeof response.description === 'string' && response.description !== ''
        ? response.description
        : (statusPhrase(code) ?? `Status ${status}`)
    const out: OpenAPIResponse = { description }
    if (response.schema !== undefined) {
      const contentType = response.contentType ?? 'application/json'
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
  // The validator answers a body in another media type with 415 (found by fuzzing: it was
  // sent, and not documented).
  const takesBody = meta?.request?.body !== undefined || meta?.request?.form !== undefined
  if (validated && takesBody && responses['415'] === undefined) {
    responses['415'] = {
      description:
        'The request body is not in a media type this operation accepts, or is sent with a content coding',
      headers: {
        'Accept-Encoding': {
          description: 'On a body sent with a content coding: `identity`, send it uncompressed',
          schema: { ...ACCEPT_ENCODING_SCHEMA },
        },
      },
      content: { [PROBLEM_JSON]: { schema: registry.ref(validationProblemSchema()) } },
    }
  }
  // Status codes are integer-like keys: JavaScript keeps them in ascending order.
  return responses
}

function buildOperation(
  route: StoredRoute,
  op: PlannedOperation,
  registry: ComponentRegistry,
  options: SpecOptions,
  merge: MergeContext,
): OpenAPIPathItem {
  const meta = route.openapi
  const operation: Partial<OpenAPIPathItem> = {}
  if (op.operationId !== undefined) operation.operationId = op.operationId
  // Every operation has a summary (Redocly's recommended rules require one): without one of its
  // own, the method and path, which is what the viewers would show in its place.
  operation.summary = meta?.summary ?? `${op.method.toUpperCase()} ${op.variant.template}`
  if (meta?.description !== undefined) operation.description = meta.description
  if (meta?.tags && meta.tags.length > 0) operation.tags = [...meta.tags]
  const deprecated = deprecationOf(meta)
  if (deprecated !== undefined) operation.deprecated = true
  // oasdiff's extension, which `palisade diff` reads too (api-removed-before-sunset, …).
  if (deprecated?.sunset !== undefined) operation['x-sunset'] = sunsetStamp(deprecated.sunset)
  const convert: ConvertOptions = {
    components: registry,
    converters: options.converters,
  }
  const parameters = buildParameters({ converters: convert.converters }, route, op.variant)
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
  operation.responses = buildResponses(meta, registry, validated, convert)
  addLinks(operation.responses, route)
  const callbacks = buildCallbacks(route, registry, { converters: options.converters })
  if (callbacks) operation.callbacks = callbacks
  applyDescriptions(operation as OpenAPIPathItem, route, op.method, merge)
  applyDeprecation(operation as OpenAPIPathItem, route, registry, options.sunsetMode)
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
 * @param specOptions - `info` (required) and `servers` (default `[]`: the document says `[{ url: '/' }]`)
 * @param webhooks - the webhooks the app sends (`api.webhook()`), documented under `webhooks`
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
  specOptions: SpecOptions,
  webhooks: readonly StoredWebhook[] = [],
): OpenAPIDocument {
  if (!Array.isArray(routes)) throw new TypeError('generateSpec: routes must be an array')
  const options = resolveSpecOptions(specOptions)
  const index = new RouteIndex({ converters: options.converters })
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
    for (const op of planRoute(route)) {
      const entry = chosen.get(`${op.method} ${op.variant.template}`)
      if (!entry || entry.route !== route || entry.op.method !== op.method) continue
      const item = byPath.get(op.variant.template) ?? {}
      item[op.method] = buildOperation(route, op, registry, options, merge)
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
  const sent: Record<string, Record<string, OpenAPIPathItem>> = {}
  for (const webhook of webhooks) {
    sent[webhook.name] = buildWebhook(webhook, registry, { converters: options.converters })
    for (const tag of webhook.meta.tags ?? []) if (!tags.includes(tag)) tags.push(tag)
  }
  const doc: OpenAPIDocument = {
    openapi: '3.1.0',
    info: JSON.parse(JSON.stringify(options.info)),
    // No servers means the one at `/` (OpenAPI 3.1 §4.8.1): said outright, as linters ask.
    servers:
      options.servers && options.servers.length > 0
        ? options.servers.map((s) => ({ ...s }))
        : [{ url: '/' }],
    // Operations without a requirement of their own need no credentials (what OpenAPI assumes
    // anyway); said outright. A route public by declaration still says `security: []` itself.
    security: [],
    paths,
    components: { schemas: registry.schemas },
  }
  if (webhooks.length > 0) doc.webhooks = sent
  // Webhooks' requirements name schemes too: checked with the operations' (keys apart from paths).
  const checked = { ...paths }
  for (const [name, item] of Object.entries(sent)) checked[`webhook ${name}`] = item
  for (const [path, item] of Object.entries(paths))
    for (const op of Object.values(item))
      for (const [name, urls] of Object.entries(op.callbacks ?? {}))
        for (const [url, inner] of Object.entries(urls)) checked[`${path} ${name} ${url}`] = inner
  const securitySchemes = finishSecurity(checked, merge.schemes)
  if (securitySchemes) doc.components.securitySchemes = securitySchemes
  if (tags.length > 0) {
    const described = new Map((options.tags ?? []).map((t) => [t.name, t]))
    doc.tags = tags.map((name) => {
      const tag = described.get(name)
      return tag?.description === undefined ? { name } : { name, description: tag.description }
    })
  }
  assertLinkTargets(doc)
  return reorder(doc)
}

/** Puts `tags` after `servers` and `webhooks` after `paths`, the order readers of the JSON expect. */
function reorder(doc: OpenAPIDocument): OpenAPIDocument {
  const { openapi, info, servers, security, tags, paths, webhooks, components } = doc
  return {
    openapi,
    info,
    servers,
    security,
    ...(tags ? { tags } : {}),
    paths,
    ...(webhooks ? { webhooks } : {}),
    components,
  }
}
