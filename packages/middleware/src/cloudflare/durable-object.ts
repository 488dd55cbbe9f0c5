/**
 * The Durable Object class behind the Cloudflare stores. One object holds one record: a rate-limit
 * counter, a session or an API key, named by the store (prefix + key). A Durable Object runs one
 * event at a time and its storage calls are atomic with respect to other events (input gates), so
 * read-modify-write of a record needs no lock and no retry: increments are exact.
 */

/**
 * The part of `DurableObjectStorage` the object uses (the key-value API, available on both
 * SQLite- and KV-backed objects).
 *
 * @example
 * const storage: DurableObjectStorageLike = state.storage
 */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>
  put<T>(key: string, value: T): Promise<void>
  deleteAll(): Promise<unknown>
  setAlarm(scheduledTime: number): Promise<void>
}

/**
 * The part of `DurableObjectState` the object uses.
 *
 * @example
 * const state: DurableObjectStateLike = ctx // the first constructor argument workerd passes
 */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike
}

/** What one object stores under {@link RECORD}. `expiresAt` is epoch ms, `null` for never. */
interface StoredRecord {
  expiresAt: number | null
  count?: number
  data?: string
  id?: string
  metadata?: Record<string, unknown>
}

const RECORD = 'record'

/** The URL origin stubs are called with; `.invalid` can never resolve to a real host. */
export const OBJECT_ORIGIN = 'https://palisade-store.invalid'

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * Durable Object class for `DurableObjectRateLimitStore`, `DurableObjectSessionStore` and
 * `DurableObjectApiKeyStore`. Export it from your Worker's entry module and bind it; the three
 * stores can share one binding (their names never collide: each store has its own prefix).
 * Stubs talk to it with `fetch` (no RPC types needed). Expired counters and sessions delete
 * themselves with an alarm, so storage does not grow with past clients.
 *
 * @example
 * // worker.ts
 * export { PalisadeStoreObject } from '@palisade/middleware/cloudflare'
 * // wrangler.jsonc
 * // "durable_objects": { "bindings": [{ "name": "PALISADE", "class_name": "PalisadeStoreObject" }] },
 * // "migrations": [{ "tag": "v1", "new_sqlite_classes": ["PalisadeStoreObject"] }]
 */
export class PalisadeStoreObject {
  readonly #storage: DurableObjectStorageLike

  /** Called by the runtime with the object's state; `env` is not used. */
  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#storage = state.storage
  }

  /** Handles one store operation: `POST <origin>/<operation>` with a JSON body. */
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return json({ error: 'method not allowed' }, 405)
    let body: Record<string, unknown>
    try {
      const parsed: unknown = await request.json()
      if (parsed === null || typeof parsed !== 'object') throw new Error('not an object')
      body = parsed as Record<string, unknown>
    } catch {
      return json({ error: 'body must be a JSON object' }, 400)
    }
    const operation = new URL(request.url).pathname.slice(1)
    // Own properties only: `/constructor` or `/__proto__` name no operation.
    const handler = Object.hasOwn(this.#operations, operation)
      ? this.#operations[operation]
      : undefined
    if (!handler) return json({ error: `unknown operation "${operation}"` }, 404)
    const result = await handler(body)
    return typeof result === 'string' ? json({ error: result }, 400) : json(result)
  }

  /** Deletes the record once it has expired (counters after their window, sessions after maxAge). */
  async alarm(): Promise<void> {
    const record = await this.#storage.get<StoredRecord>(RECORD)
    if (!record || record.expiresAt === null) return
    if (record.expiresAt <= Date.now()) await this.#storage.deleteAll()
    else await this.#storage.setAlarm(record.expiresAt)
  }

  /** The live record, or undefined when there is none or it has expired. */
  async #read(): Promise<StoredRecord | undefined> {
    const record = await this.#storage.get<StoredRecord>(RECORD)
    if (record && record.expiresAt !== null && record.expiresAt <= Date.now()) return undefined
    return record
  }

  async #write(record: StoredRecord, previous: StoredRecord | undefined): Promise<void> {
    await this.#storage.put(RECORD, record)
    if (record.expiresAt !== null && record.expiresAt !== previous?.expiresAt) {
      await this.#storage.setAlarm(record.expiresAt)
    }
  }

  // Each operation returns its JSON result, or a string: the reason its input was rejected.
  readonly #operations: Record<
    string,
    (body: Record<string, unknown>) => Promise<object | string>
  > = {
    increment: async ({ windowMs }) => {
      if (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs <= 0) {
        return 'windowMs must be a positive integer'
      }
      const now = Date.now()
      const current = await this.#read()
      const record: StoredRecord =
        current?.count === undefined
          ? { expiresAt: now + windowMs, count: 1 }
          : { ...current, count: current.count + 1 }
      await this.#write(record, current)
      return { count: record.count, ttl: Math.max((record.expiresAt ?? now) - now, 0) }
    },
    delete: async () => {
      const existed = (await this.#read()) !== undefined
      await this.#storage.deleteAll()
      return { existed }
    },
    'session/get': async () => {
      const record = await this.#read()
      return { data: record?.data ?? null }
    },
    'session/set': async ({ data, ms }) => {
      if (typeof data !== 'string' || typeof ms !== 'number' || !(ms > 0)) {
        return 'session/set needs data (JSON text) and ms > 0'
      }
      const current = await this.#read()
      await this.#write({ expiresAt: Date.now() + ms, data }, current)
      return {}
    },
    // Compare-and-set of a session: written (or deleted, with data null) only if the stored
    // text is still `expect` (null: still missing), so a destroy between a read and this write
    // makes the write fail instead of reviving the session.
    'session/swap': async ({ expect, data, ms }) => {
      if (
        (expect !== null && typeof expect !== 'string') ||
        (data !== null && typeof data !== 'string') ||
        typeof ms !== 'number' ||
        !(ms > 0)
      ) {
        return 'session/swap needs expect and data (JSON text or null) and ms > 0'
      }
      const current = await this.#read()
      if ((current?.data ?? null) !== expect) return { ok: false }
      if (data === null) await this.#storage.deleteAll()
      else await this.#write({ expiresAt: Date.now() + ms, data }, current)
      return { ok: true }
    },
    'key/add': async ({ id, metadata }) => {
      if (typeof id !== 'string' || (metadata !== undefined && typeof metadata !== 'object')) {
        return 'key/add needs an id and optional metadata'
      }
      const current = await this.#read()
      // The first id stays: adding a key again only replaces its metadata.
      const record: StoredRecord = { expiresAt: null, id: current?.id ?? id }
      if (metadata !== undefined && metadata !== null) {
        record.metadata = metadata as Record<string, unknown>
      }
      await this.#write(record, current)
      return { id: record.id }
    },
    'key/get': async () => {
      const record = await this.#read()
      if (record?.id === undefined) return { info: null }
      return {
        info: record.metadata ? { id: record.id, metadata: record.metadata } : { id: record.id },
      }
    },
  }
}
