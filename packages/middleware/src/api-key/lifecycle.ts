import type { Context } from 'hono'
import { formatValue } from '../internal/options'
import { checkApiKeyPrefix, generateApiKey } from './format'
import type { ApiKeyFields, ApiKeyInfo, ApiKeyLifecycleStore, RotateApiKeyOptions } from './store'

const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/

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

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/**
 * A record as a backend read it (JSON, hash fields), checked field by field: a field of the wrong
 * type is dropped, except a malformed `expiresAt`, `revokedAt` or `scopes`, which makes the whole
 * record invalid (failing closed: a corrupt revocation must not read as "not revoked").
 */
export function readRecord(raw: unknown): ApiKeyInfo | null {
  if (!isObject(raw) || typeof raw.id !== 'string' || raw.id.length === 0) return null
  const out: ApiKeyInfo = { id: raw.id }
  if (isObject(raw.metadata)) out.metadata = raw.metadata
  for (const name of ['expiresAt', 'revokedAt'] as const) {
    const v = raw[name]
    if (v === undefined || v === null) continue
    if (!isTime(v)) return null
    out[name] = v
  }
  if (raw.scopes !== undefined && raw.scopes !== null) {
    if (!Array.isArray(raw.scopes) || !raw.scopes.every((s) => typeof s === 'string')) return null
    out.scopes = raw.scopes
  }
  if (isObject(raw.limits)) {
    const limits = Object.entries(raw.limits).filter(([, v]) => Number.isSafeInteger(v))
    out.limits = Object.fromEntries(limits) as Record<string, number>
  }
  if (isTime(raw.lastUsedAt)) out.lastUsedAt = raw.lastUsedAt
  if (isTime(raw.createdAt)) out.createdAt = raw.createdAt
  if (typeof raw.prefix === 'string') out.prefix = raw.prefix
  return out
}

/** The newest of `records` (latest `createdAt`; a record without one counts as oldest). */
export function newest(records: readonly ApiKeyInfo[]): ApiKeyInfo | null {
  let best: ApiKeyInfo | null = null
  for (const r of records) if (best === null || (r.createdAt ?? 0) > (best.createdAt ?? 0)) best = r
  return best
}

/** `record` with `expiresAt` lowered to `at` (unchanged when it already expires earlier). */
export function lowered(record: ApiKeyInfo, at: number): ApiKeyInfo {
  return record.expiresAt !== undefined && record.expiresAt <= at
    ? record
    : { ...record, expiresAt: at }
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
 * The rotation every lifecycle store shares: the old secrets of `id` expire `overlapMs` from now,
 * then a new secret with the same record (a fresh `createdAt`, no `lastUsedAt`) is stored.
 */
export async function rotateApiKey(
  store: ApiKeyLifecycleStore,
  id: string,
  options: RotateApiKeyOptions = {},
): Promise<{ id: string; key: string }> {
  const where = 'rotate'
  const overlapMs = options.overlapMs ?? 0
  if (!Number.isSafeInteger(overlapMs) || overlapMs < 0) {
    fail(where, `"overlapMs" must be a non-negative integer, got ${formatValue(overlapMs)}`)
  }
  const current = await store.get(id)
  if (current === null) fail(where, 'no key has this id')
  if (current.revokedAt !== undefined) fail(where, 'the key is revoked')
  const prefix = checkApiKeyPrefix(where, options.prefix ?? current.prefix ?? 'key')
  const { lastUsedAt: _, ...kept } = current
  const now = Date.now()
  // Expire the old secrets first: the new one, written after, keeps the record's own expiry.
  await store.expire(id, now + overlapMs)
  const key = generateApiKey(prefix)
  await store.put(key, { ...kept, createdAt: now, prefix })
  return { id, key }
}

/**
 * A function of the request giving the validated key's limit `name`, or `fallback` when the key
 * has none: pass it as rateLimit's `max` or quota's `limit`, so each key's plan sets its limits.
 *
 * @param contextKey - where `apiKey` put the key. Default `'apiKey'`.
 * @example
 * app.use('/api/*', apiKey({ store }))
 * app.use('/api/*', rateLimit({ max: apiKeyLimit('perMinute', 60), key: (c) => c.get('apiKey').id }))
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

/** The record's fields as a backend with flat text columns or hash fields keeps them. */
export const FLAT_FIELDS = [
  'id',
  'metadata',
  'expiresAt',
  'scopes',
  'limits',
  'revokedAt',
  'lastUsedAt',
  'createdAt',
  'prefix',
] as const

const JSON_FIELDS = new Set(['metadata', 'scopes', 'limits'])
const TIME_FIELDS = new Set(['expiresAt', 'revokedAt', 'lastUsedAt', 'createdAt'])

/** `record` as text fields (JSON for objects, decimal for times); absent fields are left out. */
export function toFlat(record: ApiKeyInfo): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of FLAT_FIELDS) {
    const v = record[name]
    if (v === undefined || v === null) continue
    out[name] = JSON_FIELDS.has(name) ? JSON.stringify(v) : String(v)
  }
  return out
}

/**
 * A record from text fields (or a driver's numbers and parsed JSON), checked by
 * {@link readRecord}: unparseable JSON or a non-numeric time fails closed.
 */
export function fromFlat(values: Record<string, unknown>): ApiKeyInfo | null {
  const raw: Record<string, unknown> = {}
  for (const name of FLAT_FIELDS) {
    const v = values[name]
    if (v === undefined || v === null) continue
    if (JSON_FIELDS.has(name) && typeof v === 'string') {
      try {
        raw[name] = JSON.parse(v)
      } catch {
        if (name === 'metadata') continue
        return null
      }
    } else if (TIME_FIELDS.has(name) && typeof v === 'string') {
      raw[name] = /^\d{1,16}$/.test(v) ? Number(v) : Number.NaN
    } else raw[name] = v
  }
  return readRecord(raw)
}
