import type { MiddlewareHandler } from 'hono'
import { TOKEN } from '../internal/http/header-syntax'
import {
  assertKnownKeys,
  assertNonEmptyString,
  assertOneOf,
  optionError,
} from '../internal/options'
import { begin, clock, decide, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { assertNoDryRun } from '../internal/outcomes/reject-or-record'
import { storeFor } from '../internal/stores/store-binding'
import { type ApiKeyRejects, reject } from './answers'
import { apiKeyDescription } from './description'
import type { ApiKeyInfo, ApiKeyStore } from './store'

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
}

/** Longer presented keys are rejected without asking the store. */
export const MAX_API_KEY_LENGTH = 4096

const KNOWN = ['extractFrom', 'headerName', 'queryParam', 'store', 'contextKey'] as const

/**
 * Requires a valid API key, read from a header, a query parameter, or both, and checked with
 * `store.validate`. On success the key's `{ id, metadata? }` is in the context under `contextKey`.
 * Missing and invalid keys get the same 401 `Invalid API key`, so the answer tells an attacker
 * nothing. A store that throws gives 503 `API key store unavailable`. The key itself is never
 * logged or put in an error.
 *
 * @param options.extractFrom default `'header'`
 * @param options.headerName default `'X-API-Key'`
 * @param options.queryParam default `'api_key'`
 * @param options.contextKey default `'apiKey'`
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

  const description = apiKeyDescription(extractFrom, headerName, queryParam, store)
  return described(description, async function apiKey(c, next) {
    const d = begin(c, factory)
    let key: string | undefined
    if (useHeader) key = c.req.header(headerName) || undefined
    if (key === undefined && useQuery) key = c.req.query(queryParam) || undefined
    if (key === undefined || key.length > MAX_API_KEY_LENGTH)
      reject(401, 'Invalid API key', 'api_key_invalid')

    let info: ApiKeyInfo | null
    try {
      const t = clock(d)
      info = await storeFor(store, c).validate(key)
      storeTime(d, 'validate', t)
    } catch {
      // The store's error may quote the key; it is not passed on.
      reject(503, 'API key store unavailable', 'store_unavailable')
    }
    if (info === null || typeof info !== 'object' || typeof info.id !== 'string') {
      reject(401, 'Invalid API key', 'api_key_invalid')
    }
    c.set(contextKey as 'apiKey', info)
    decide(d, 'allow')
    await next()
  })
}
