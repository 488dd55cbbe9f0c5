import { KeyedQueue } from '../internal/stores/key-queue'
import { sessionLifetimeMs, sessionWrite } from '../internal/stores/store-args'
import type { SessionData, SessionStore, SessionUpdate } from '../sessions/store'
import {
  parseJsonObject,
  type RedisCommand,
  type RedisStoreOptions,
  redisScript,
  redisStoreOptions,
  replyInteger,
  replyText,
  runScript,
} from './client'

const NAME = 'RedisSessionStore'

// Compare-and-set on one key (so it runs on Redis Cluster as is): the new value is written only
// if the stored one is still exactly what the caller read (ARGV[4] = '1': that it is still
// missing). An empty ARGV[2] deletes.
const CAS_SCRIPT = `local cur = redis.call('GET', KEYS[1])
if ARGV[4] == '1' then
  if cur then return 0 end
elseif cur ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1])
else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`
const CAS = redisScript(CAS_SCRIPT)

/** Conflicts tolerated before `update` gives up (each one means another write just landed). */
export const MAX_UPDATE_ATTEMPTS = 16

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
 * sweep timer is needed. `update` is a compare-and-set loop on that one key, so concurrent
 * requests keep each other's writes, also on Redis Cluster (every command touches one key). A value that is not a JSON object (corrupted, written by something else)
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
  /** Updates of one session from this process run one at a time; CAS covers other processes. */
  readonly #updates = new KeyedQueue()

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
    const write = sessionWrite(NAME, data, maxAge)
    if (write === null) return this.destroy(id)
    await this.#send(['SET', this.#prefix + id, write.text, 'PX', String(write.ms)])
  }

  /**
   * Read-modify-write without lost updates: reads the value, applies `apply`, and writes with a
   * compare-and-set script that succeeds only if nobody wrote in between; on a conflict it reads
   * again and re-applies (at most 16 times, then it throws). Updates of one session from this
   * process are queued, so conflicts come only from other processes. A missing
   * or unreadable session is passed to `apply` as `null`; `null` back writes nothing, `{}`
   * deletes.
   */
  async update(id: string, apply: SessionUpdate, maxAge: number): Promise<SessionData | null> {
    const ms = sessionLifetimeMs(NAME, maxAge)
    return this.#updates.run(id, () => this.#compareAndSet(id, apply, ms))
  }

  async #compareAndSet(id: string, apply: SessionUpdate, ms: number): Promise<SessionData | null> {
    const key = this.#prefix + id
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      const raw = replyText(await this.#send(['GET', key]))
      const next = apply(parseJsonObject(raw))
      if (next === null) return null
      const value = Object.keys(next).length === 0 || ms <= 0 ? '' : JSON.stringify(next)
      const args = [raw ?? '', value, String(Math.max(ms, 1)), raw === null ? '1' : '0']
      const reply = await runScript(this.#send, CAS, [key], args)
      if (replyInteger(reply) === 1) return next
    }
    throw new Error(`${NAME}: session ${JSON.stringify(id)} kept changing; update gave up`)
  }

  /** Deletes the session; unknown ids are ignored. */
  async destroy(id: string): Promise<void> {
    await this.#send(['DEL', this.#prefix + id])
  }
}
