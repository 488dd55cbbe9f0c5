import type { Context } from 'hono'
import { KeyedQueue } from '../internal/stores/key-queue'

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
 * `update` is optional. A store that implements it runs the read-modify-write of one session
 * atomically, which is what makes concurrent requests on one session keep each other's writes;
 * without it, `sessions` reads, merges and writes in three steps (a narrow window remains).
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
  /**
   * Atomically replaces the session with `apply(current)`, where `current` is the stored data or
   * `null` (unknown or expired). `apply` returns the data to store for `maxAge` seconds, `{}` to
   * delete the session, or `null` to leave it untouched (so a missing session is never revived).
   * Resolves with what `apply` returned. `apply` is synchronous and may run more than once (a
   * store that retries on conflict).
   */
  update?(id: string, apply: SessionUpdate, maxAge: number): Promise<SessionData | null>
  /**
   * For a store whose handle arrives with the request (a Workers binding on `c.env`): the store
   * to use for the request `c`. `sessions` calls it once per request, before any other method, so the
   * store and the middleware can be built once at module scope. Optional.
   */
  forContext?(c: Context): SessionStore
}

/**
 * The change function of {@link SessionStore.update}: current data (or `null`) in, new data,
 * `{}` (delete) or `null` (leave untouched) out.
 *
 * @example
 * const addVisit: SessionUpdate = (current) =>
 *   current === null ? null : { ...current, visits: Number(current.visits ?? 0) + 1 }
 * await store.update?.('session-id', addVisit, 3600)
 */
export type SessionUpdate = (current: SessionData | null) => SessionData | null

/** Saves in flight per store, for stores without `update` (see below). */
const queues = new WeakMap<SessionStore, KeyedQueue>()

/**
 * `store.update` when the store has it; otherwise the same contract from `get`, `set` and
 * `destroy`. Those saves are queued per session ID within this process, so two requests here
 * never interleave their get and set; across processes a write landing between the two is lost.
 */
export async function updateSession(
  store: SessionStore,
  id: string,
  apply: SessionUpdate,
  maxAge: number,
): Promise<SessionData | null> {
  if (typeof store.update === 'function') return store.update(id, apply, maxAge)
  let queue = queues.get(store)
  if (queue === undefined) {
    queue = new KeyedQueue()
    queues.set(store, queue)
  }
  return queue.run(id, async () => {
    const next = apply(await store.get(id))
    if (next === null) return null
    if (Object.keys(next).length === 0) await store.destroy(id)
    else await store.set(id, next, maxAge)
    return next
  })
}
