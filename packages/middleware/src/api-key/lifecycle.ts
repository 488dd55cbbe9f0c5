import type { Context } from 'hono'
import { formatValue } from '../internal/options'
import { checkApiKeyPrefix, generateApiKey } from './format'
import type { ApiKeyFields, ApiKeyInfo, ApiKeyLifecycleStore } from './store'

const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

function fail(where: string, message: string): never {
  throw new TypeError(`${where}: ${message}`)
}

/** The lifecycle fields of a new key, checked (never echoing a key) and copied. */
export function checkFields(where: string, fields: ApiKeyFields): ApiKeyFields {
  const out: ApiKeyFields = {}
  const { metadata, expiresAt, scopes, limits } = fields
  if (metadata !== undefined) {
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
      fail(where, '"metadata" must be an object')
    }
    out.metadata = structuredClone(metadata)
  }
  if (expiresAt !== undefined) {
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= 0) {
      fail(where, `"expiresAt" must be epoch milliseconds, got ${formatValue(expiresAt)}`)
    }
    out.expiresAt = expiresAt
  }
  if (scopes !== undefined) {
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && SCOPE.test(s))) {
      fail(where, '"scopes" must be an array of RFC 6749 scope tokens')
    }
    out.scopes = [...new Set(scopes)]
  }
  if (limits !== undefined) {
    if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) {
      fail(where, '"limits" must be an object of positive integers')
    }
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isSafeInteger(value) || value <= 0) {
        fail(where, `"limits.${name}" must be a positive integer, got ${formatValue(value)}`)
      }
    }
    out.limits = { ...limits }
  }
  return out
}

/**
 * Options of {@link createApiKey}: the store, the key's prefix and its lifecycle fields.
 *
 * @example
 * const options: CreateApiKeyOptions = {
 *   store, prefix: 'pal_live', scopes: ['comments:write'], limits: { perMinute: 600 },
 * }
 */
export interface CreateApiKeyOptions extends ApiKeyFields {
  /** Where the key's hash and record go. */
  store: ApiKeyLifecycleStore
  /** The key's fixed prefix, e.g. `'pal_live'` (see `generateApiKey`). */
  prefix: string
}

/**
 * Creates a key in the checksummed format (`<prefix>_<random><checksum>`), stores its hash with
 * its record, and resolves its id and the plain key. The plain key is shown here once: the store
 * keeps only its SHA-256.
 *
 * @example
 * const { id, key } = await createApiKey({
 *   store,
 *   prefix: 'pal_live',
 *   scopes: ['comments:read'],
 *   limits: { perMinute: 600, monthly: 100_000 },
 *   expiresAt: Date.now() + 365 * 86_400_000,
 *   metadata: { customer: 'acme' },
 * })
 */
export async function createApiKey(
  options: CreateApiKeyOptions,
): Promise<{ id: string; key: string }> {
  const where = 'createApiKey'
  if (!isObject(options)) fail(where, 'options are required')
  const { store, prefix, ...fields } = options
  if (!isObject(store) || typeof (store as { put?: unknown }).put !== 'function') {
    fail(where, '"store" must be an ApiKeyLifecycleStore (with put, revoke, rotate)')
  }
  checkApiKeyPrefix(where, prefix)
  const record: ApiKeyInfo = {
    id: crypto.randomUUID(),
    ...checkFields(where, fields),
    createdAt: Date.now(),
    prefix,
  }
  const key = generateApiKey(prefix)
  await store.put(key, record)
  return { id: record.id, key }
}

/**
 * A function of the request giving the validated key's limit `name`, or `fallback` when the key
 * has none: pass it as rateLimit's `max` or quota's `limit`, so each key's plan sets its limits.
 *
 * @param contextKey - where `apiKey` put the key. Default `'apiKey'`.
 * @example
 * app.use('/api/*', apiKey({ store }))
 * app.use(
 *   '/api/*',
 *   rateLimit({ max: apiKeyLimit('perMinute', 60), keyGenerator: (c) => c.get('apiKey').id }),
 * )
 */
export function apiKeyLimit(
  name: string,
  fallback: number,
  contextKey = 'apiKey',
): (c: Context) => number {
  if (!Number.isSafeInteger(fallback) || fallback <= 0) {
    fail('apiKeyLimit', `"fallback" must be a positive integer, got ${formatValue(fallback)}`)
  }
  return (c) => {
    const info = c.get(contextKey as 'apiKey') as ApiKeyInfo | undefined
    const value = info?.limits?.[name]
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : fallback
  }
}
