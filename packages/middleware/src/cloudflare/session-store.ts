import type { Context } from 'hono'
import { parseStoredObject, sessionLifetimeMs, sessionWrite } from '../internal/stores/store-args'
import type { ContextBinding } from '../internal/stores/store-binding'
import type { SessionData, SessionStore, SessionUpdate } from '../sessions/store'
import {
  type DurableObjectNamespaceLike,
  type DurableObjectStoreOptions,
  durableObjectStoreOptions,
  type ObjectCall,
} from './namespace'

const NAME = 'DurableObjectSessionStore'

/** Conflicts tolerated before `update` gives up (each one means another write just landed). */
const MAX_UPDATE_ATTEMPTS = 16

/**
 * Options of {@link DurableObjectSessionStore}.
 *
 * @example
 * const options: DurableObjectSessionStoreOptions = { namespace: env.PALISADE, prefix: 'sess:' }
 */
export interface DurableObjectSessionStoreOptions extends DurableObjectStoreOptions {
  /** Object-name prefix. Default `'palisade:sess:'`. */
  prefix?: string
}

/**
 * Sessions in Durable Objects, one object per session id. Durable Objects rather than Workers KV
 * because KV is eventually consistent: a session destroyed at logout could still be read for up
 * to a minute in other locations, two quick writes can land out of order, and KV cannot expire
 * anything sooner than 60 s. An object answers every read with its last write, from everywhere,
 * and expires the session after exactly `maxAge` (checked on read; an alarm deletes it).
 * `update` is a compare-and-set inside the object (retried on conflict), so a save from one
 * Worker instance never undoes a logout on another.
 *
 * @param options.namespace - The `PalisadeStoreObject` binding (`env.PALISADE`), or a resolver
 *   `(c) => c.env.PALISADE` so the store and its middleware are built once at module scope.
 *   Required.
 * @param options.prefix - Object-name prefix. Default `'palisade:sess:'`.
 * @example
 * import { DurableObjectSessionStore } from '@palisade/middleware/cloudflare'
 *
 * const app = new Hono<{ Bindings: { PALISADE: DurableObjectNamespaceLike } }>()
 * const store = new DurableObjectSessionStore({ namespace: (c) => c.env.PALISADE })
 * app.use(sessions({ secret: sessionSecret, store }))
 */
export class DurableObjectSessionStore implements SessionStore {
  readonly #call: ObjectCall
  readonly #prefix: string
  readonly #binding: ContextBinding<DurableObjectNamespaceLike, DurableObjectSessionStore>

  constructor(options: DurableObjectSessionStoreOptions) {
    const target = durableObjectStoreOptions<DurableObjectSessionStore>(
      NAME,
      options,
      'palisade:sess:',
    )
    this.#call = target.call
    this.#prefix = target.prefix
    this.#binding = target.binding
  }

  /**
   * The store for the request `c`: this one when it was built with a binding; built with a
   * resolver, the store on the binding the resolver returns (made once per binding). `sessions`
   * calls it once per request; call it yourself before using the store in a handler.
   */
  forContext(c: Context): DurableObjectSessionStore {
    return this.#binding.bind(
      c,
      this,
      (namespace) => new DurableObjectSessionStore({ namespace, prefix: this.#prefix }),
    )
  }

  /** The session's data, or `null` when it is unknown, expired or unreadable. */
  async get(id: string): Promise<SessionData | null> {
    const reply = (await this.#call(this.#prefix + id, 'session/get')) as { data?: unknown }
    return parseStoredObject(reply?.data)
  }

  /** Stores `data` for `maxAge` seconds, replacing what was there; `maxAge <= 0` deletes it. */
  async set(id: string, data: SessionData, maxAge: number): Promise<void> {
    const write = sessionWrite(NAME, data, maxAge)
    if (write === null) return this.destroy(id)
    await this.#call(this.#prefix + id, 'session/set', { data: write.text, ms: write.ms })
  }

  /**
   * Read-modify-write without lost updates: reads the session, applies `apply`, and writes with a
   * compare-and-set that the object performs only if the stored text is still the one read (a
   * destroy or another save in between fails it, and the read is done again). A missing or
   * unreadable session is passed as `null`; `null` back writes nothing, `{}` deletes.
   */
  async update(id: string, apply: SessionUpdate, maxAge: number): Promise<SessionData | null> {
    const name = this.#prefix + id
    const ms = sessionLifetimeMs(NAME, maxAge)
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      const reply = (await this.#call(name, 'session/get')) as { data?: unknown }
      const read = typeof reply?.data === 'string' ? reply.data : null
      const next = apply(parseStoredObject(read))
      if (next === null) return null
      const data = Object.keys(next).length === 0 || ms <= 0 ? null : JSON.stringify(next)
      const swap = (await this.#call(name, 'session/swap', {
        expect: read,
        data,
        ms: Math.max(ms, 1),
      })) as {
        ok?: unknown
      }
      if (swap?.ok === true) return next
    }
    throw new Error(`${NAME}: session ${JSON.stringify(id)} kept changing; update gave up`)
  }

  /** Deletes the session; unknown ids are ignored. */
  async destroy(id: string): Promise<void> {
    await this.#call(this.#prefix + id, 'delete')
  }
}
