/**
 * Data of one session: plain JSON-serialisable values.
 *
 * @example
 * app.get('/me', (c) => {
 *   const data: SessionData = c.get('session').toJSON() // { userId: 'u1', … }
 *   return c.json(data)
 * })
 */
export type SessionData = Record<string, unknown>

/**
 * Storage behind `sessions`. `maxAge` is in seconds; an entry must not be returned by `get` once
 * it is older than the `maxAge` it was last `set` with.
 *
 * @example
 * // Any backend fits; expired entries must read as null.
 * const store: SessionStore = {
 *   get: (id) => kv.get(`sess:${id}`, 'json'),
 *   set: (id, data, maxAge) =>
 *     kv.put(`sess:${id}`, JSON.stringify(data), { expirationTtl: maxAge }),
 *   destroy: (id) => kv.delete(`sess:${id}`),
 * }
 * app.use(sessions({ secret: env.SESSION_SECRET, store }))
 */
export interface SessionStore {
  get(id: string): Promise<SessionData | null>
  set(id: string, data: SessionData, maxAge: number): Promise<void>
  destroy(id: string): Promise<void>
}
