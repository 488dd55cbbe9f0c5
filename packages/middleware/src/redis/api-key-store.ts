import { hashApiKey } from '../api-key/hash-key'
import type { ApiKeyInfo, ManagedApiKeyStore } from '../api-key/store'
import { checkApiKey, checkMetadata } from '../internal/stores/store-args'
import {
  parseJsonObject,
  type RedisCommand,
  type RedisStoreOptions,
  redisStoreOptions,
  replyInteger,
  replyText,
} from './client'

const NAME = 'RedisApiKeyStore'

/**
 * Options of {@link RedisApiKeyStore}.
 *
 * @example
 * const options: RedisApiKeyStoreOptions = {
 *   sendCommand: fromIoredis(client),
 *   prefix: 'shop:key:',
 * }
 * const keys = new RedisApiKeyStore(options)
 */
export interface RedisApiKeyStoreOptions extends RedisStoreOptions {
  /** Key prefix. Default `'palisade:key:'`. */
  prefix?: string
}

/**
 * API keys in Redis, shared by every instance of an app. Only the SHA-256 hash of a key is ever
 * sent to Redis: each key is a Redis hash at `prefix + sha256(key)` with the fields `id` and
 * `metadata` (JSON), so a dump of the database reveals no usable key. Keys are high-entropy
 * secrets, so a plain hash is enough; lookups go by hash, never by comparing secrets. Like
 * `MemoryApiKeyStore`, adding a key again keeps its id and replaces its metadata. Errors from
 * `sendCommand` propagate, so a Redis outage is an error, never a silent "invalid key".
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
    return this.#prefix + (await hashApiKey(key))
  }

  /**
   * Stores the hash of `key` with `metadata` and resolves the key's id: a new random id, or the
   * existing one when the key is already stored (its metadata is then replaced).
   */
  async add(key: string, metadata?: Record<string, unknown>): Promise<string> {
    checkApiKey(NAME, 'add', key)
    checkMetadata(NAME, metadata)
    const json = metadata === undefined ? undefined : JSON.stringify(metadata)
    const redisKey = await this.#redisKey(key)
    // HSETNX keeps the first id even when two instances add the same key at once.
    await this.#send(['HSETNX', redisKey, 'id', crypto.randomUUID()])
    if (json === undefined) await this.#send(['HDEL', redisKey, 'metadata'])
    else await this.#send(['HSET', redisKey, 'metadata', json])
    const id = replyText(await this.#send(['HGET', redisKey, 'id']))
    if (id === null) throw new Error(`${NAME}.add: the key was removed while being added`)
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
    const reply = await this.#send(['HMGET', await this.#redisKey(key), 'id', 'metadata'])
    const [rawId, rawMetadata] = Array.isArray(reply) ? reply : []
    const id = replyText(rawId)
    if (id === null || id.length === 0) return null
    const metadata = parseJsonObject(rawMetadata)
    return metadata === null ? { id } : { id, metadata }
  }
}
