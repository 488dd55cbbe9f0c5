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
}

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
