import { parseStoredObject, sessionWrite } from '../internal/store-args'
import type { SessionData, SessionStore } from '../sessions/store'
import { type DenoKvLike, type DenoKvStoreOptions, denoKvStoreOptions } from './kv'

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
 * value too and an expired session reads as `null` at once.
 *
 * @param options.kv - An open Deno KV handle (`await Deno.openKv()`). Required.
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

  constructor(options: DenoKvSessionStoreOptions) {
    const { kv, prefix } = denoKvStoreOptions(NAME, options, 'palisade:sess')
    this.#kv = kv
    this.#prefix = prefix
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

  /** Deletes the session; unknown ids are ignored. */
  async destroy(id: string): Promise<void> {
    await this.#kv.delete([this.#prefix, id])
  }
}
