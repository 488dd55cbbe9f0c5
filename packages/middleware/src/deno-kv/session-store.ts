import type { Context } from 'hono'
import { parseStoredObject, sessionLifetimeMs, sessionWrite } from '../internal/stores/store-args'
import type { SessionData, SessionStore, SessionUpdate } from '../sessions/store'
import {
  checkAndSet,
  type DenoKvLike,
  type DenoKvStoreOptions,
  type DenoKvTarget,
  denoKvStoreOptions,
} from './kv'

const NAME = 'DenoKvSessionStore'

interface StoredSession {
  data: string
  expiresAt: number
}

/**
 * Options of {@link DenoKvSessionStore}.
 *
 * @example
 * const options: DenoKvSessionStoreOptions = { kv: await Deno.openKv(), prefix: 'shop:sess' }
 */
export interface DenoKvSessionStoreOptions extends DenoKvStoreOptions {
  /** Key prefix (first key part). Default `'palisade:sess'`. */
  prefix?: string
}

/**
 * Sessions in Deno KV. Each session is written with `expireIn: maxAge * 1000`, so KV deletes it
 * by itself; since KV may delete expired keys some time later, the expiry time is kept in the
 * value too and an expired session reads as `null` at once. `update` commits atomically against
 * the versionstamp it read (retried on conflict), so concurrent requests on several instances keep
 * each other's writes and a logout is never undone by a save that read before it.
 *
 * @param options.kv - An open Deno KV handle (`await Deno.openKv()`), or a resolver returning it
 *   (or the promise of it) for a request. Required.
 * @param options.prefix - Key prefix. Default `'palisade:sess'`.
 * @example
 * import { DenoKvSessionStore } from '@palisade/middleware/deno-kv'
 *
 * const kv = await Deno.openKv()
 * app.use(sessions({ secret: Deno.env.get('SESSION_SECRET')!, store: new DenoKvSessionStore({ kv }) }))
 */
export class DenoKvSessionStore implements SessionStore {
  readonly #kv: DenoKvLike
  readonly #prefix: string
  readonly #target: DenoKvTarget<DenoKvSessionStore>

  constructor(options: DenoKvSessionStoreOptions) {
    this.#target = denoKvStoreOptions<DenoKvSessionStore>(NAME, options, 'palisade:sess')
    this.#kv = this.#target.kv
    this.#prefix = this.#target.prefix
  }

  /**
   * The store for the request `c`: this one when it was built with a handle; built with a
   * resolver, the store on the handle the resolver returns (made once per handle). `sessions` calls
   * it once per request; call it yourself before using the store in a handler.
   */
  forContext(c: Context): DenoKvSessionStore {
    return this.#target.forContext(
      c,
      this,
      (kv) => new DenoKvSessionStore({ kv, prefix: this.#prefix }),
    )
  }

  /** The session's data, or `null` when it is unknown, expired or unreadable. */
  async get(id: string): Promise<SessionData | null> {
    const { value } = await this.#kv.get<StoredSession>([this.#prefix, id])
    if (!value || !(value.expiresAt > Date.now())) return null
    return parseStoredObject(value.data)
  }

  /** Stores `data` for `maxAge` seconds, replacing what was there; `maxAge <= 0` deletes it. */
  async set(id: string, data: SessionData, maxAge: number): Promise<void> {
    const write = sessionWrite(NAME, data, maxAge)
    if (write === null) return this.destroy(id)
    const value: StoredSession = { data: write.text, expiresAt: Date.now() + write.ms }
    await this.#kv.set([this.#prefix, id], value, { expireIn: write.ms })
  }

  /**
   * Read-modify-write without lost updates: reads the session, applies `apply`, and commits only
   * if the key still has the versionstamp read (a destroy or a save in between fails the check,
   * and the read is done again). A missing, expired or unreadable session is passed as `null`;
   * `null` back writes nothing, `{}` deletes.
   */
  async update(id: string, apply: SessionUpdate, maxAge: number): Promise<SessionData | null> {
    const key = [this.#prefix, id]
    const ms = sessionLifetimeMs(NAME, maxAge)
    return checkAndSet(NAME, async () => {
      const entry = await this.#kv.get<StoredSession>(key)
      const live = entry.value && entry.value.expiresAt > Date.now() ? entry.value : null
      const next = apply(live ? parseStoredObject(live.data) : null)
      if (next === null) return { committed: true, value: null }
      const op = this.#kv.atomic().check({ key, versionstamp: entry.versionstamp })
      if (Object.keys(next).length === 0 || ms <= 0) op.delete(key)
      else {
        const value: StoredSession = { data: JSON.stringify(next), expiresAt: Date.now() + ms }
        op.set(key, value, { expireIn: ms })
      }
      return (await op.commit()).ok ? { committed: true, value: next } : undefined
    })
  }

  /** Deletes the session; unknown ids are ignored. */
  async destroy(id: string): Promise<void> {
    await this.#kv.delete([this.#prefix, id])
  }
}
