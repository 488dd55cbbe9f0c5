import type { Context } from 'hono'
import { hashApiKey } from '../api-key/hash-key'
import type { ApiKeyInfo, ApiKeyLifecycleStore, RotateApiKeyOptions } from '../api-key/store'
import { newest, readRecord, rotateApiKey, toFlat } from '../api-key/store'
import { checkApiKey, checkMetadata } from '../internal/stores/store-args'
import type { ContextBinding } from '../internal/stores/store-binding'
import {
  type DurableObjectNamespaceLike,
  type DurableObjectStoreOptions,
  durableObjectStoreOptions,
  type ObjectCall,
} from './namespace'

const NAME = 'DurableObjectApiKeyStore'

/**
 * Options of {@link DurableObjectApiKeyStore}.
 *
 * @example
 * const options: DurableObjectApiKeyStoreOptions = { namespace: env.PALISADE, prefix: 'key:' }
 */
export interface DurableObjectApiKeyStoreOptions extends DurableObjectStoreOptions {
  /** Object-name prefix. Default `'palisade:key:'`. */
  prefix?: string
}

/**
 * API keys in Durable Objects, one object per key, named by the key's SHA-256 hash (the plain key
 * never leaves the Worker), holding its record (expiry, scopes, limits, revocation, last use);
 * one object per id lists the hashes of its secrets, for rotation and revocation. Durable Objects
 * rather than Workers KV because removing or revoking a key must reach every location at once:
 * with KV, a revoked key would keep working for up to a minute elsewhere. Adding a key again keeps
 * its id and replaces its metadata, as in the other stores.
 *
 * @param options.namespace - The `PalisadeStoreObject` binding (`env.PALISADE`), or a resolver
 *   `(c) => c.env.PALISADE` so the store and its middleware are built once at module scope.
 *   Required.
 * @param options.prefix - Object-name prefix. Default `'palisade:key:'`.
 * @example
 * import { DurableObjectApiKeyStore } from '@palisade/middleware/cloudflare'
 *
 * const keys = new DurableObjectApiKeyStore({ namespace: (c) => c.env.PALISADE })
 * app.use('/partner/*', apiKey({ store: keys }))
 * // In a handler (an admin route), bind the store to the request first:
 * const id = await keys.forContext(c).add(newKey, { owner: 'billing' })
 */
export class DurableObjectApiKeyStore implements ApiKeyLifecycleStore {
  readonly #call: ObjectCall
  readonly #prefix: string
  readonly #binding: ContextBinding<DurableObjectNamespaceLike, DurableObjectApiKeyStore>

  constructor(options: DurableObjectApiKeyStoreOptions) {
    const target = durableObjectStoreOptions<DurableObjectApiKeyStore>(
      NAME,
      options,
      'palisade:key:',
    )
    this.#call = target.call
    this.#prefix = target.prefix
    this.#binding = target.binding
  }

  /**
   * The store for the request `c`: this one when it was built with a binding; built with a
   * resolver, the store on the binding the resolver returns (made once per binding). `apiKey`
   * calls it once per request; call it yourself before using the store in a handler.
   */
  forContext(c: Context): DurableObjectApiKeyStore {
    return this.#binding.bind(
      c,
      this,
      (namespace) => new DurableObjectApiKeyStore({ namespace, prefix: this.#prefix }),
    )
  }

  async #hash(key: string): Promise<string> {
    return hashApiKey(key)
  }

  #index(id: string): string {
    return `${this.#prefix}id:${id}`
  }

  /** Stores the hash of `key` with `metadata`; resolves its id (the existing one if present). */
  async add(key: string, metadata?: Record<string, unknown>): Promise<string> {
    checkApiKey(NAME, 'add', key)
    const meta = checkMetadata(NAME, metadata)
    const hash = await this.#hash(key)
    const reply = (await this.#call(this.#prefix + hash, 'key/add', {
      id: crypto.randomUUID(),
      metadata: meta,
    })) as { id?: unknown }
    if (typeof reply?.id !== 'string') throw new Error(`${NAME}.add: unexpected reply`)
    await this.#call(this.#index(reply.id), 'keyidx/add', { hash })
    return reply.id
  }

  /** Stores `record` under the hash of `key` (replacing one there) and indexes it by its id. */
  async put(key: string, record: ApiKeyInfo): Promise<void> {
    checkApiKey(NAME, 'put', key)
    const checked = readRecord({ ...record })
    if (checked === null || Object.keys(toFlat(record)).length === 0) {
      throw new TypeError(`${NAME}.put: invalid record`)
    }
    const hash = await this.#hash(key)
    // The index first: a record is never readable without being reachable by its id.
    await this.#call(this.#index(record.id), 'keyidx/add', { hash })
    const reply = (await this.#call(this.#prefix + hash, 'key/put', { record: checked })) as {
      previous?: unknown
    }
    if (typeof reply?.previous === 'string' && reply.previous !== record.id) {
      await this.#call(this.#index(reply.previous), 'keyidx/remove', { hash })
    }
  }

  /** Deletes `key`; resolves `true` when it was stored. */
  async remove(key: string): Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0) return false
    const hash = await this.#hash(key)
    const current = await this.#get(hash)
    const reply = (await this.#call(this.#prefix + hash, 'delete')) as { existed?: unknown }
    if (current !== null) await this.#call(this.#index(current.id), 'keyidx/remove', { hash })
    return reply?.existed === true
  }

  async #get(hash: string): Promise<ApiKeyInfo | null> {
    const reply = (await this.#call(this.#prefix + hash, 'key/get')) as { info?: unknown }
    return readRecord(reply?.info)
  }

  /** The key's record, or `null` when it is not stored. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    return this.#get(await this.#hash(key))
  }

  async #secrets(id: string): Promise<[string, ApiKeyInfo][]> {
    const reply = (await this.#call(this.#index(id), 'keyidx/list')) as { hashes?: unknown }
    const hashes = Array.isArray(reply?.hashes) ? (reply.hashes as string[]) : []
    const records = await Promise.all(hashes.map((h) => this.#get(h)))
    const out: [string, ApiKeyInfo][] = []
    records.forEach((r, i) => {
      if (r?.id === id) out.push([hashes[i] as string, r])
    })
    return out
  }

  /** The record of `id`'s newest secret, or `null`. */
  async get(id: string): Promise<ApiKeyInfo | null> {
    return newest((await this.#secrets(id)).map(([, r]) => r))
  }

  async #patch(id: string, field: string, at: number): Promise<boolean> {
    const secrets = await this.#secrets(id)
    await Promise.all(
      secrets.map(([hash]) => this.#call(this.#prefix + hash, 'key/patch', { field, at })),
    )
    return secrets.length > 0
  }

  /** Lowers `expiresAt` to `at` on every secret of `id`. */
  expire(id: string, at: number): Promise<boolean> {
    return this.#patch(id, 'expiresAt', Math.floor(at))
  }

  /** Sets `revokedAt` on every secret of `id` (a first revocation time stays). */
  revoke(id: string, at = Date.now()): Promise<boolean> {
    return this.#patch(id, 'revokedAt', Math.floor(at))
  }

  /** Records `at` as the `lastUsedAt` of the secret `key` (never creating a key). */
  async touch(key: string, at: number): Promise<void> {
    checkApiKey(NAME, 'touch', key)
    await this.#call(this.#prefix + (await this.#hash(key)), 'key/patch', {
      field: 'lastUsedAt',
      at: Math.floor(at),
    })
  }

  /** A new secret for `id`; the old ones keep working for `overlapMs`, in every location. */
  rotate(id: string, options?: RotateApiKeyOptions): Promise<{ id: string; key: string }> {
    return rotateApiKey(this, id, options)
  }
}
