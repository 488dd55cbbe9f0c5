import type { MiddlewareHandler } from 'hono'
import { TOKEN } from '../internal/http/header-syntax'
import {
  assertBoolean,
  assertKnownKeys,
  assertNonEmptyString,
  assertOneOf,
  assertStringArray,
  optionError,
} from '../internal/options'
import { begin, clock, decide, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { assertNoDryRun } from '../internal/outcomes/reject-or-record'
import { storeFor } from '../internal/stores/store-binding'
import { type ApiKeyRejects, reject } from './answers'
import { apiKeyDescription } from './description'
import { checkApiKeyPrefix, isWellFormedApiKey } from './format'
import { checkFields } from './lifecycle'
import type { ApiKeyInfo, ApiKeyStore } from './store'
import { lastUsedWriter } from './touch'

/**
 * Options of {@link apiKey}.
 *
 * @example
 * const options: ApiKeyOptions = { store: new MemoryApiKeyStore(), extractFrom: 'both' }
 * app.use('/partner/*', apiKey(options))
 */
export interface ApiKeyOptions {
  /** Where the key is read. Default `'header'`. With `'both'`, the header wins when present. */
  extractFrom?: 'header' | 'query' | 'both'
  /** Header carrying the key. Default `'X-API-Key'`. */
  headerName?: string
  /** Query parameter carrying the key. Default `'api_key'`. */
  queryParam?: string
  /** Store that validates keys (required). */
  store: ApiKeyStore
  /** Context key for the validated `{ id, metadata? }`. Default `'apiKey'`. */
  contextKey?: string
  /**
   * Accept only keys in the checksummed format (`createApiKey`, `generateApiKey`) with this
   * prefix, or one of these: anything else (a typo, a key of another prefix, a random string) is
   * refused with 401 `api_key_invalid` before the store is asked. Default: any string.
   */
  prefix?: string | string[]
  /** Scopes the key must all have (its record's `scopes`); else 403 `insufficient_scope`. */
  scopes?: string[]
  /**
   * Write the key's `lastUsedAt` (through a store with `touch`), at most once a minute per key
   * and process, after the response, never delaying it. Default `true`.
   */
  trackLastUsed?: boolean
}

/** Longer presented keys are rejected without asking the store. */
export const MAX_API_KEY_LENGTH = 4096

const KNOWN = [
  'extractFrom',
  'headerName',
  'queryParam',
  'store',
  'contextKey',
  'prefix',
  'scopes',
  'trackLastUsed',
] as const

/**
 * Requires a valid API key, read from a header, a query parameter, or both, and checked with
 * `store.validate`. On success the key's `{ id, metadata? }` is in the context under `contextKey`.
 * Missing and invalid keys get the same 401 `Invalid API key`, so the answer tells an attacker
 * nothing. A store that throws gives 503 `API key store unavailable`. The key itself is never
 * logged or put in an error. A key past its `expiresAt` is 401 `api_key_expired`, a revoked one
 * 401 `api_key_revoked`, one without the route's `scopes` 403 `insufficient_scope`.
 *
 * @param options.extractFrom default `'header'`
 * @param options.headerName default `'X-API-Key'`
 * @param options.queryParam default `'api_key'`
 * @param options.contextKey default `'apiKey'`
 * @param options.prefix default none (any string is looked up)
 * @param options.trackLastUsed default `true`
 * @example
 * ```ts
 * const store = new MemoryApiKeyStore()
 * await store.add(process.env.PARTNER_KEY!, { partner: 'acme' })
 * app.use('/api/*', apiKey({ store }))
 * app.get('/api/whoami', (c) => c.json(c.get('apiKey')))
 * ```
 */
export function apiKey(options: ApiKeyOptions): MiddlewareHandler & ApiKeyRejects {
  const factory = 'apiKey'
  if (options === undefined) throw optionError(factory, '"store" is required')
  assertNoDryRun(factory, options)
  assertKnownKeys(factory, options, KNOWN)
  const extractFrom = assertOneOf(factory, 'extractFrom', options.extractFrom ?? 'header', [
    'header',
    'query',
    'both',
  ])
  const headerName = assertNonEmptyString(factory, 'headerName', options.headerName ?? 'X-API-Key')
  if (!TOKEN.test(headerName)) {
    throw optionError(factory, '"headerName" must be a valid header name')
  }
  const queryParam = assertNonEmptyString(factory, 'queryParam', options.queryParam ?? 'api_key')
  const contextKey = assertNonEmptyString(factory, 'contextKey', options.contextKey ?? 'apiKey')
  const store = options.store
  if (store === null || typeof store !== 'object' || typeof store.validate !== 'function') {
    throw optionError(factory, '"store" must be an ApiKeyStore with a validate(key) method')
  }
  const useHeader = extractFrom !== 'query'
  const useQuery = extractFrom !== 'header'
  const prefixes = prefixOption(factory, options.prefix)
  const scopes = scopesOption(factory, options.scopes)
  const touch = assertBoolean(factory, 'trackLastUsed', options.trackLastUsed ?? true)
    ? lastUsedWriter()
    : undefined

  const description = apiKeyDescription(
    extractFrom,
    headerName,
    queryParam,
    store,
    scopes,
    prefixes,
  )
  return described(description, async function apiKey(c, next) {
    const d = begin(c, factory)
    let key: string | undefined
    if (useHeader) key = c.req.header(headerName) || undefined
    if (key === undefined && useQuery) key = c.req.query(queryParam) || undefined
    if (
      key === undefined ||
      key.length > MAX_API_KEY_LENGTH ||
      (prefixes !== undefined && !isWellFormedApiKey(key, prefixes))
    ) {
      reject(401, 'Invalid API key', 'api_key_invalid')
    }

    const bound = storeFor(store, c)
    let info: ApiKeyInfo | null
    try {
      const t = clock(d)
      info = await bound.validate(key)
      storeTime(d, 'validate', t)
    } catch {
      // The store's error may quote the key; it is not passed on.
      reject(503, 'API key store unavailable', 'store_unavailable')
    }
    if (info === null || typeof info !== 'object' || typeof info.id !== 'string') {
      reject(401, 'Invalid API key', 'api_key_invalid')
    }
    if (info.revokedAt !== undefined || info.expiresAt !== undefined) {
      const now = Date.now()
      if (info.revokedAt !== undefined && info.revokedAt <= now) {
        reject(401, 'API key revoked', 'api_key_revoked')
      }
      if (info.expiresAt !== undefined && info.expiresAt <= now) {
        reject(401, 'API key expired', 'api_key_expired')
      }
    }
    if (scopes.length > 0 && !hasScopes(info.scopes, scopes)) {
      reject(403, 'Forbidden', 'insufficient_scope')
    }
    c.set(contextKey as 'apiKey', info)
    decide(d, 'allow')
    await next()
    // After the answer: the write never delays the request or interleaves with its handler.
    touch?.(c, bound, key, info)
  })
}

function hasScopes(granted: readonly string[] | undefined, required: readonly string[]): boolean {
  if (!Array.isArray(granted)) return false
  for (const scope of required) if (!granted.includes(scope)) return false
  return true
}

function prefixOption(factory: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined
  const list = typeof value === 'string' ? [value] : assertStringArray(factory, 'prefix', value)
  if (list.length === 0) throw optionError(factory, '"prefix" must name at least one prefix')
  for (const p of list) checkApiKeyPrefix(factory, p)
  return list.slice()
}

function scopesOption(factory: string, value: unknown): readonly string[] {
  if (value === undefined) return []
  return checkFields(factory, { scopes: value as string[] }).scopes ?? []
}
