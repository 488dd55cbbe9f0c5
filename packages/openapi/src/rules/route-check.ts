// What one route must be to be documented: the shape of the route and its `openapi` metadata,
// and the content of its schemas, parameters and responses.

import { MEDIA_TYPE } from '@palisade/shared/media-type'
import { TOKEN as HEADER_NAME } from '@palisade/shared/token'
import type { StoredRoute } from '../model/route'
import { isSecurityRequirementList } from '../model/security'
import { isRecord } from '../schema/common'
import { type ConvertOptions, toOpenAPISchema } from '../schema/convert'
import type { OpenAPISchema } from '../schema/types'
import { assertDeprecated } from './deprecation'
import { parseRoutePath } from './path'
import { routeError } from './route-plan'

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

const META_KEYS = [
  'summary',
  'description',
  'operationId',
  'tags',
  'deprecated',
  'request',
  'responses',
  'security',
  'webhookReceiver',
  'callbacks',
]
const REQUEST_KEYS = ['body', 'form', 'query', 'params', 'headers']

const ROUTE_METHODS: readonly unknown[] = ['get', 'post', 'put', 'patch', 'delete', 'all']

/**
 * What each schema, parameter and response of a route must be to be documented: object schemas
 * for parameters, typed path parameters that are in the path, HTTP header names, status codes,
 * media types, and schemas the converter can read.
 */
export function assertContent(route: StoredRoute, convert: ConvertOptions): void {
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
export function assertRoute(route: StoredRoute): void {
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
  if (meta.webhookReceiver !== undefined && typeof meta.webhookReceiver !== 'boolean')
    throw routeError(route, 'openapi.webhookReceiver must be a boolean')
  assertDeprecated(meta.deprecated, (message) => {
    throw routeError(route, message)
  })
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
