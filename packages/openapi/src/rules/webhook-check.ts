// What one sent webhook (`api.webhook(name, meta)`) must be to be documented.
import { MEDIA_TYPE } from '@palisade/shared/media-type'
import type { StoredRoute } from '../model/route'
import { isSecurityRequirementList } from '../model/security'
import type { StoredWebhook } from '../model/webhook'
import { isRecord } from '../schema/common'
import { type ConvertOptions, toOpenAPISchema } from '../schema/convert'
import { objectParts } from './route-check'

const KEYS = [
  'payload',
  'summary',
  'description',
  'operationId',
  'tags',
  'deprecated',
  'method',
  'contentType',
  'headers',
  'signature',
  'responses',
  'security',
]
const METHODS = ['post', 'put', 'patch']
const SIGNATURES = ['standardWebhooks', 'stripe', 'github', 'slack']

/**
 * Throws a descriptive `TypeError` unless `meta` documents one request the app sends (a webhook,
 * or a callback's): known keys, a payload schema that converts, methods, media types, statuses.
 * `at` starts each message (`openapi: webhook "x"`); `label` names it inside a schema error.
 */
export function assertSent(at: string, label: string, meta: unknown, convert: ConvertOptions) {
  if (!isRecord(meta) || meta.payload === undefined)
    throw new TypeError(`${at}: meta must be an object with a payload schema`)
  for (const key of Object.keys(meta)) {
    if (!KEYS.includes(key)) throw new TypeError(`${at}: unknown key "${key}" (${KEYS.join(', ')})`)
  }
  for (const key of ['summary', 'description', 'operationId'] as const) {
    if (meta[key] !== undefined && typeof meta[key] !== 'string')
      throw new TypeError(`${at}: ${key} must be a string`)
  }
  if (
    meta.tags !== undefined &&
    !(Array.isArray(meta.tags) && meta.tags.every((t) => typeof t === 'string'))
  )
    throw new TypeError(`${at}: tags must be an array of strings`)
  if (meta.method !== undefined && !METHODS.includes(meta.method as string))
    throw new TypeError(`${at}: method must be one of ${METHODS.join(', ')}`)
  if (meta.signature !== undefined && !SIGNATURES.includes(meta.signature as string))
    throw new TypeError(`${at}: signature must be one of ${SIGNATURES.join(', ')}`)
  if (
    meta.contentType !== undefined &&
    !(typeof meta.contentType === 'string' && MEDIA_TYPE.test(meta.contentType))
  )
    throw new TypeError(`${at}: contentType must be a media type`)
  if (meta.security !== undefined && !isSecurityRequirementList(meta.security))
    throw new TypeError(`${at}: security must be a list of security requirements`)
  if (meta.responses !== undefined) {
    if (!isRecord(meta.responses))
      throw new TypeError(`${at}: responses must be an object by status`)
    for (const [status, r] of Object.entries(meta.responses)) {
      if (!/^[1-5]\d\d$/.test(status) || !isRecord(r) || typeof r.description !== 'string')
        throw new TypeError(`${at}: responses.${status} must be a status with { description }`)
    }
  }
  // Converted once here, so a schema that cannot be documented fails at registration.
  toOpenAPISchema(meta.payload, convert)
  if (meta.headers !== undefined)
    objectParts(convert, { method: 'post', path: label }, 'headers', meta.headers)
}

/**
 * Throws a descriptive `Error` unless `name` and `meta` document a webhook: a non-empty name not
 * used yet, known keys, a payload schema that converts, an operationId no route or webhook uses.
 */
export function assertWebhook(
  name: unknown,
  meta: unknown,
  earlier: { routes: readonly StoredRoute[]; webhooks: readonly StoredWebhook[] },
  convert: ConvertOptions,
): StoredWebhook {
  if (typeof name !== 'string' || name.trim() === '')
    throw new TypeError('openapi: webhook() name must be a non-empty string')
  const at = `openapi: webhook "${name}"`
  if (earlier.webhooks.some((w) => w.name === name)) throw new Error(`${at} is already documented`)
  assertSent(at, `webhook ${name}`, meta, convert)
  const id = (meta as StoredWebhook['meta']).operationId
  if (id !== undefined) {
    const clash =
      earlier.webhooks.some((w) => w.meta.operationId === id) ||
      earlier.routes.some((r) => r.openapi?.operationId === id)
    if (clash) throw new Error(`${at}: operationId "${id}" is already used`)
  }
  return { name, meta: meta as unknown as StoredWebhook['meta'] }
}
