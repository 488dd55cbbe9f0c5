import {
  parseJsonObject,
  type RedisCommand,
  type RedisStoreOptions,
  redisStoreOptions,
} from '../redis/command'
import type { SessionData, SessionStore } from './store'

const NAME = 'RedisSessionStore'

/**
 * Options of {@link RedisSessionStore}.
 *
 * @example
 * const options: RedisSessionStoreOptions = {
 *   sendCommand: fromIoredis(client),
 *   prefix: 'shop:sess:',
 * }
 * app.use(
 *   sessions({ secret: process.env.SESSION_SECRET!, store: new RedisSessionStore(options) }),
 * )
 */
export interface RedisSessionStoreOptions extends RedisStoreOptions {
  /** Key prefix. Default `'palisade:sess:'`. */
  prefix?: string
}

/**
 * Session data in Redis, shared by every instance of an app. Each session is one JSON string
 * written with `SET key value PX maxAge*1000`, so Redis itself expires it after `maxAge`; no
 * sweep timer is needed. A value that is not a JSON object (corrupted, written by something else)
 * reads as a missing session, which `sessions` turns into a fresh one. Errors from `sendCommand`
 * propagate, so `sessions` answers 503 while Redis is unreachable.
 *
 * @param options.sendCommand - Raw command function, e.g. `fromNodeRedis(client)`. Required.
 * @param options.prefix - Key prefix. Default `'palisade:sess:'`.
 * @example
 * import { createClient } from 'redis'
 * import { RedisSessionStore, fromNodeRedis } from '@palisade/middleware/redis'
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect()
 * app.use(sessions({ secret, store: new RedisSessionStore({ sendCommand: fromNodeRedis(client) }) }))
 */
export class RedisSessionStore implements SessionStore {
  readonly #send: RedisCommand
  readonly #prefix: string

  constructor(options: RedisSessionStoreOptions) {
    const { send, prefix } = redisStoreOptions(NAME, options, 'palisade:sess:')
    this.#send = send
    this.#prefix = prefix
  }

  /** The session's data, or `null` when it is unknown, expired or unreadable. */
  async get(id: string): Promise<SessionData | null> {
    return parseJsonObject(await this.#send(['GET', this.#prefix + id]))
  }

  /** Stores `data` for `maxAge` seconds, replacing what was there; `maxAge <= 0` deletes it. */
  async set(id: string, data: SessionData, maxAge: number): Promise<void> {
    if (typeof maxAge !== 'number' || !Number.isFinite(maxAge)) {
      throw new TypeError(`${NAME}: maxAge must be a number of seconds, got ${maxAge}`)
    }
    // Serialise before touching Redis: data that cannot be stored must not delete the old value.
    const value = JSON.stringify(data)
    const ms = Math.ceil(maxAge * 1000)
    if (ms <= 0) {
      await this.destroy(id)
      return
    }
    await this.#send(['SET', this.#prefix + id, value, 'PX', String(ms)])
  }

  /** Deletes the session; unknown ids are ignored. */
  async destroy(id: string): Promise<void> {
    await this.#send(['DEL', this.#prefix + id])
  }
}
