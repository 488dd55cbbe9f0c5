import type { Context } from 'hono'

/**
 * What a valid key resolves to; stored in the context under `contextKey`.
 *
 * @example
 * app.get('/partner/whoami', apiKey({ store }), (c) => {
 *   const info: ApiKeyInfo = c.get('apiKey') // { id, metadata? }
 *   return c.json({ id: info.id, partner: info.metadata?.partner })
 * })
 */
export interface ApiKeyInfo {
  id: string
  metadata?: Record<string, unknown>
  /** When the key stops working (epoch milliseconds). Absent: never. */
  expiresAt?: number
  /** What the key may do; a route's `apiKey({ scopes })` needs every one it names. */
  scopes?: string[]
  /**
   * Named limits of this key, e.g. `{ perMinute: 600, monthly: 100_000 }`, that the route's
   * rateLimit or quota read with {@link apiKeyLimit} (positive integers).
   */
  limits?: Record<string, number>
  /** When the key was revoked (epoch milliseconds); a revoked key never works again. */
  revokedAt?: number
  /** When the key was last used, written by `apiKey` at most once a minute per key. */
  lastUsedAt?: number
  /** When this key (this secret: a rotation makes a new one) was created. */
  createdAt?: number
  /** The key's prefix (`pal_live`), not secret: a rotation gives the new key the same one. */
  prefix?: string
}

/** The lifecycle fields a new key can be given (everything of {@link ApiKeyInfo} but its id). */
export type ApiKeyFields = Pick<ApiKeyInfo, 'metadata' | 'expiresAt' | 'scopes' | 'limits'>

/**
 * Lookup behind `apiKey`: resolves a presented key, or `null` when it is not valid.
 *
 * @example
 * // Keys kept elsewhere (a database, a secrets service): only `validate` is needed.
 * const store: ApiKeyStore = {
 *   async validate(key) {
 *     const row = await db.findApiKeyByHash(await sha256(key))
 *     return row ? { id: row.id, metadata: { owner: row.owner } } : null
 *   },
 * }
 * app.use('/partner/*', apiKey({ store }))
 */
export interface ApiKeyStore {
  validate(key: string): Promise<ApiKeyInfo | null>
  /**
   * For a store whose handle arrives with the request (a Workers binding on `c.env`): the store
   * to use for the request `c`. `apiKey` calls it once per request, before any other method, so the
   * store and the middleware can be built once at module scope. Optional.
   */
  forContext?(c: Context): ApiKeyStore
}

/**
 * A store that can also be administered. Implementations keep only a hash of each key, never the
 * key itself. `add` returns the new key's id; `remove` returns whether a key was removed.
 *
 * @example
 * const keys: ManagedApiKeyStore = new MemoryApiKeyStore()
 * const id = await keys.add(process.env.PARTNER_KEY!, { partner: 'acme' }) // safe to log
 * await keys.remove(process.env.PARTNER_KEY!) // true: it was present
 */
export interface ManagedApiKeyStore extends ApiKeyStore {
  add(key: string, metadata?: Record<string, unknown>): Promise<string>
  remove(key: string): Promise<boolean>
}

/**
 * A managed store with the key lifecycle: records with expiry, scopes, limits and revocation,
 * looked up by id for rotation and revocation. Every backend of Palisade implements it; like
 * {@link ManagedApiKeyStore}, it keeps only hashes of keys. Create keys with `createApiKey`.
 *
 * A rotated key keeps its id: the id names the key's identity (its scopes, limits, quota and
 * rate-limit counters, logs), the secret changes. During the overlap one id has two secrets.
 *
 * @example
 * const { id, key } = await createApiKey({ store, prefix: 'pal_live', scopes: ['read'] })
 * const next = await store.rotate(id, { overlapMs: 86_400_000 }) // old key works one more day
 * await store.revoke(id) // both stop, on every instance
 */
export interface ApiKeyLifecycleStore extends ManagedApiKeyStore {
  /** Stores `record` under the hash of `key` (replacing one there) and indexes it by its id. */
  put(key: string, record: ApiKeyInfo): Promise<void>
  /** The record of `id`'s newest secret, or `null` when no key has that id. */
  get(id: string): Promise<ApiKeyInfo | null>
  /**
   * Lowers `expiresAt` to `at` (epoch ms) on every secret of `id` that expires later or never.
   * Resolves whether the id exists.
   */
  expire(id: string, at: number): Promise<boolean>
  /** Sets `revokedAt` (default now) on every secret of `id`; resolves whether the id exists. */
  revoke(id: string, at?: number): Promise<boolean>
  /** Records `at` as the `lastUsedAt` of the secret `key`. Best effort; `apiKey` throttles it. */
  touch(key: string, at: number): Promise<void>
  /**
   * A new secret for `id` with the same record; the old secrets keep working for `overlapMs`
   * (default 0: they stop now), then stop on every instance. Resolves the new plain key, once.
   */
  rotate(id: string, options?: RotateApiKeyOptions): Promise<{ id: string; key: string }>
}

/**
 * Options of {@link ApiKeyLifecycleStore.rotate}.
 *
 * @example
 * const options: RotateApiKeyOptions = { overlapMs: 3_600_000 } // one hour to switch
 */
export interface RotateApiKeyOptions {
  /** How long the old key keeps working, in milliseconds. Default `0`. */
  overlapMs?: number
  /** Prefix of the new key. Default: the record's `prefix`, else `'key'`. */
  prefix?: string
}
