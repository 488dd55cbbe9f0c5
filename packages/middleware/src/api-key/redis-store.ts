import { sha256Hex } from '../internal/crypto'
import {
  parseJsonObject,
  type RedisCommand,
  type RedisStoreOptions,
  redisStoreOptions,
  replyInteger,
} from '../redis/command'
import type { ApiKeyInfo, ManagedApiKeyStore } from './store'

const NAME = 'RedisApiKeyStore'

/** Options of {@link RedisApiKeyStore}. */
export interface RedisApiKeyStoreOptions extends RedisStoreOptions {
  /** Key prefix. Default `'palisade:key:'`. */
  prefix?: string
}

/**
 * API keys in Redis, shared by every instance of an app. Only the SHA-256 hash of a key is ever
 * sent to Redis: the Redis key is `prefix + sha256(key)` and its value is `{ id, metadata }` as
 * JSON, so a dump of the database reveals no usable key. Keys are high-entropy secrets, so a plain
 * hash is enough; lookups are by hash, never by comparing secrets. Errors from `sendCommand`
 * propagate, so a Redis outage is an error, never a silent "invalid key".
 *
 * @param options.sendCommand - Raw command function, e.g. `fromIoredis(client)`. Required.
 * @param options.prefix - Key prefix. Default `'palisade:key:'`.
 * @example
 * import { RedisApiKeyStore, fromIoredis } from '@palisade/middleware/redis'
 *
 * const store = new RedisApiKeyStore({ sendCommand: fromIoredis(client) })
 * const id = await store.add(generatedKey, { owner: 'billing' })
 * app.use('/api/*', apiKey({ store }))
 */
export class RedisApiKeyStore implements ManagedApiKeyStore {
  readonly #send: RedisCommand
  readonly #prefix: string

  constructor(options: RedisApiKeyStoreOptions) {
    const { send, prefix } = redisStoreOptions(NAME, options, 'palisade:key:')
    this.#send = send
    this.#prefix = prefix
  }

  async #redisKey(key: string): Promise<string> {
    return this.#prefix + (await sha256Hex(key))
  }

  /**
   * Stores the hash of `key` with `metadata` and returns a new random id for it. Adding a key that
   * is already stored replaces its id and metadata.
   */
  async add(key: string, metadata?: Record<string, unknown>): Promise<string> {
    if (typeof key !== 'string' || key.length === 0) {
      throw new TypeError(`${NAME}: key must be a non-empty string`)
    }
    const id = crypto.randomUUID()
    const info: ApiKeyInfo = metadata === undefined ? { id } : { id, metadata }
    await this.#send(['SET', await this.#redisKey(key), JSON.stringify(info)])
    return id
  }

  /** Deletes `key`; resolves `true` when it was stored. */
  async remove(key: string): Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0) return false
    return replyInteger(await this.#send(['DEL', await this.#redisKey(key)])) === 1
  }

  /** The key's `{ id, metadata }`, or `null` when it is not stored. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    const value = parseJsonObject(await this.#send(['GET', await this.#redisKey(key)]))
    if (value === null || typeof value.id !== 'string') return null
    const metadata = value.metadata
    if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) {
      return { id: value.id, metadata: metadata as Record<string, unknown> }
    }
    return { id: value.id }
  }
}
