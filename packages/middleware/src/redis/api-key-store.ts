import { hashApiKey } from '../api-key/hash-key'
import type { ApiKeyInfo, ApiKeyLifecycleStore, RotateApiKeyOptions } from '../api-key/store'
import { FLAT_FIELDS, fromFlat, newest, rotateApiKey, toFlat } from '../api-key/store'
import { checkApiKey, checkMetadata } from '../internal/stores/store-args'
import {
  type RedisCommand,
  type RedisStoreOptions,
  redisScript,
  redisStoreOptions,
  replyInteger,
  replyText,
  runScript,
} from './client'

const NAME = 'RedisApiKeyStore'

/** Sets one field of a key's hash only while the hash exists (never recreates a removed key). */
const SET_IF_EXISTS = redisScript(
  "if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end return 0",
)
/** Lowers `expiresAt` to ARGV[1] when the field is absent or later. */
const LOWER_EXPIRY = redisScript(
  "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end local e = tonumber(redis.call('HGET', KEYS[1], 'expiresAt')) if e == nil or e > tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'expiresAt', ARGV[1]) end return 1",
)

/** Deletes the lock KEYS[1] only while it still holds this holder's token ARGV[1]. */
const UNLOCK = redisScript(
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
)
/** How long an id's lock lasts: a holder that dies frees the id at most this much later. */
const LOCK_MS = 10_000
/** Longest wait between two tries for a held lock. */
const LOCK_WAIT_MS = 50

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
 * sent to Redis: each key is a Redis hash at `prefix + sha256(key)` with the record's fields
 * (`id`, `metadata` as JSON, `expiresAt`, `scopes`, `limits`, `revokedAt`, `lastUsedAt`, …), and
 * `prefix + 'id:' + id` is the set of the hashes of one id (its secrets, two during a rotation's
 * overlap), so a dump of the database reveals no usable key. Keys are high-entropy secrets, so a
 * plain hash is enough; lookups go by hash, never by comparing secrets. A validation is one
 * `HMGET`; every command names one key, so the store works on Redis Cluster. Like
 * `MemoryApiKeyStore`, adding a key again keeps its id and replaces its metadata. Errors from
 * `sendCommand` propagate, so a Redis outage is an error, never a silent "invalid key".
 *
 * @param options.sendCommand - Raw command function, e.g. `fromIoredis(client)`. Required.
 * @param options.prefix - Key prefix. Default `'palisade:key:'`.
 * @example
 * import { RedisApiKeyStore, fromIoredis } from '@palisade/middleware/redis'
 *
 * const store = new RedisApiKeyStore({ sendCommand: fromIoredis(client) })
 * const { id, key } = await createApiKey({ store, prefix: 'pal_live', scopes: ['read'] })
 * app.use('/api/*', apiKey({ store, prefix: 'pal_live' }))
 */
export class RedisApiKeyStore implements ApiKeyLifecycleStore {
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

  #index(id: string): string {
    return `${this.#prefix}id:${id}`
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
    await this.#send(['SADD', this.#index(id), redisKey.slice(this.#prefix.length)])
    return id
  }

  /** Stores `record` under the hash of `key` (replacing one there) and indexes it by its id. */
  async put(key: string, record: ApiKeyInfo): Promise<void> {
    checkApiKey(NAME, 'put', key)
    const flat = toFlat(record)
    if (fromFlat(flat) === null) throw new TypeError(`${NAME}.put: invalid record`)
    const redisKey = await this.#redisKey(key)
    const hash = redisKey.slice(this.#prefix.length)
    const previous = replyText(await this.#send(['HGET', redisKey, 'id']))
    if (previous !== null && previous !== record.id) {
      await this.#send(['SREM', this.#index(previous), hash])
    }
    // The index first: a record is never readable without being reachable by its id.
    await this.#send(['SADD', this.#index(record.id), hash])
    await this.#send(['HSET', redisKey, ...Object.entries(flat).flat()])
    const absent = FLAT_FIELDS.filter((f) => !(f in flat))
    if (absent.length > 0) await this.#send(['HDEL', redisKey, ...absent])
  }

  /** Deletes `key`; resolves `true` when it was stored. */
  async remove(key: string): Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0) return false
    const redisKey = await this.#redisKey(key)
    const id = replyText(await this.#send(['HGET', redisKey, 'id']))
    const removed = replyInteger(await this.#send(['DEL', redisKey])) === 1
    if (id !== null)
      await this.#send(['SREM', this.#index(id), redisKey.slice(this.#prefix.length)])
    return removed
  }

  async #read(redisKey: string): Promise<ApiKeyInfo | null> {
    const reply = await this.#send(['HMGET', redisKey, ...FLAT_FIELDS])
    if (!Array.isArray(reply)) return null
    const values: Record<string, unknown> = {}
    FLAT_FIELDS.forEach((name, i) => {
      values[name] = replyText(reply[i])
    })
    return fromFlat(values)
  }

  /** The key's record, or `null` when it is not stored. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    return this.#read(await this.#redisKey(key))
  }

  /** The hashes (Redis keys) of `id`'s secrets and their records; stale members are skipped. */
  async #secrets(id: string): Promise<[string, ApiKeyInfo][]> {
    const members = await this.#send(['SMEMBERS', this.#index(id)])
    const out: [string, ApiKeyInfo][] = []
    for (const member of Array.isArray(members) ? members : []) {
      const hash = replyText(member)
      if (hash === null) continue
      const record = await this.#read(this.#prefix + hash)
      if (record?.id === id) out.push([this.#prefix + hash, record])
    }
    return out
  }

  /** The record of `id`'s newest secret, or `null`. */
  async get(id: string): Promise<ApiKeyInfo | null> {
    return newest((await this.#secrets(id)).map(([, r]) => r))
  }

  /** Lowers `expiresAt` to `at` on every secret of `id`. */
  async expire(id: string, at: number): Promise<boolean> {
    const secrets = await this.#secrets(id)
    for (const [redisKey] of secrets) {
      await runScript(this.#send, LOWER_EXPIRY, [redisKey], [String(Math.floor(at))])
    }
    return secrets.length > 0
  }

  /**
   * Runs `work` holding the lock of `id` (`SET … NX PX`, a token of this call, released only by
   * it): rotations and revocations of one id, on any instance, run one at a time, so a revocation
   * never misses the secret a concurrent rotation adds. A lock left by a dead holder lapses after
   * 10 s; waiting longer than that throws (an error, never a silent no-op).
   */
  async #locked<T>(id: string, work: () => Promise<T>): Promise<T> {
    const lock = `${this.#prefix}lock:${id}`
    const token = crypto.randomUUID()
    const deadline = Date.now() + LOCK_MS + 1_000
    for (let wait = 2; ; wait = Math.min(wait * 2, LOCK_WAIT_MS)) {
      const reply = await this.#send(['SET', lock, token, 'NX', 'PX', String(LOCK_MS)])
      if (replyText(reply) === 'OK') break
      if (Date.now() > deadline) throw new Error(`${NAME}: the id stayed locked for ${LOCK_MS} ms`)
      await pause(wait)
    }
    try {
      return await work()
    } finally {
      await runScript(this.#send, UNLOCK, [lock], [token])
    }
  }

  /**
   * Sets `revokedAt` on every secret of `id` (`HSETNX`: a first revocation time stays), under the
   * id's lock.
   */
  revoke(id: string, at = Date.now()): Promise<boolean> {
    return this.#locked(id, async () => {
      const secrets = await this.#secrets(id)
      for (const [redisKey] of secrets) {
        await this.#send(['HSETNX', redisKey, 'revokedAt', String(Math.floor(at))])
      }
      return secrets.length > 0
    })
  }

  /** Records `at` as the `lastUsedAt` of the secret `key` (never recreating a removed key). */
  async touch(key: string, at: number): Promise<void> {
    checkApiKey(NAME, 'touch', key)
    const redisKey = await this.#redisKey(key)
    await runScript(this.#send, SET_IF_EXISTS, [redisKey], ['lastUsedAt', String(Math.floor(at))])
  }

  /**
   * A new secret for `id`; the old ones keep working for `overlapMs`, on every instance. Runs under
   * the id's lock, like `revoke`.
   */
  rotate(id: string, options?: RotateApiKeyOptions): Promise<{ id: string; key: string }> {
    return this.#locked(id, () => rotateApiKey(this, id, options))
  }
}
