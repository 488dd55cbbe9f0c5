import type { Context } from 'hono'
import { hashApiKey } from '../api-key/hash-key'
import type { ApiKeyInfo, ManagedApiKeyStore } from '../api-key/store'
import { checkApiKey, checkMetadata } from '../internal/stores/store-args'
import {
  checkAndSet,
  type DenoKvLike,
  type DenoKvStoreOptions,
  type DenoKvTarget,
  denoKvStoreOptions,
} from './kv'

const NAME = 'DenoKvApiKeyStore'

/**
 * Options of {@link DenoKvApiKeyStore}.
 *
 * @example
 * const options: DenoKvApiKeyStoreOptions = { kv: await Deno.openKv(), prefix: 'shop:key' }
 */
export interface DenoKvApiKeyStoreOptions extends DenoKvStoreOptions {
  /** Key prefix (first key part). Default `'palisade:key'`. */
  prefix?: string
}

/**
 * API keys in Deno KV, stored under the key's SHA-256 hash (the plain key is never written).
 * `add` and `remove` are check-and-set operations, so two instances adding the same key at once
 * agree on one id, and `remove` reports `true` to exactly one caller.
 *
 * @param options.kv - An open Deno KV handle (`await Deno.openKv()`), or a resolver returning it
 *   (or the promise of it) for a request. Required.
 * @param options.prefix - Key prefix. Default `'palisade:key'`.
 * @example
 * import { DenoKvApiKeyStore } from '@palisade/middleware/deno-kv'
 *
 * const keys = new DenoKvApiKeyStore({ kv: await Deno.openKv() })
 * const id = await keys.add(newKey, { owner: 'billing' })
 */
export class DenoKvApiKeyStore implements ManagedApiKeyStore {
  readonly #kv: DenoKvLike
  readonly #prefix: string
  readonly #target: DenoKvTarget<DenoKvApiKeyStore>

  constructor(options: DenoKvApiKeyStoreOptions) {
    this.#target = denoKvStoreOptions<DenoKvApiKeyStore>(NAME, options, 'palisade:key')
    this.#kv = this.#target.kv
    this.#prefix = this.#target.prefix
  }

  /**
   * The store for the request `c`: this one when it was built with a handle; built with a
   * resolver, the store on the handle the resolver returns (made once per handle). `apiKey` calls
   * it once per request; call it yourself before using the store in a handler.
   */
  forContext(c: Context): DenoKvApiKeyStore {
    return this.#target.forContext(
      c,
      this,
      (kv) => new DenoKvApiKeyStore({ kv, prefix: this.#prefix }),
    )
  }

  async #key(key: string): Promise<string[]> {
    return [this.#prefix, await hashApiKey(key)]
  }

  /** Stores the hash of `key` with `metadata`; resolves its id (the existing one if present). */
  async add(key: string, metadata?: Record<string, unknown>): Promise<string> {
    checkApiKey(NAME, 'add', key)
    const meta = checkMetadata(NAME, metadata)
    const kvKey = await this.#key(key)
    return checkAndSet(NAME, async () => {
      const entry = await this.#kv.get<ApiKeyInfo>(kvKey)
      const id = entry.value?.id ?? crypto.randomUUID()
      const info: ApiKeyInfo = meta === undefined ? { id } : { id, metadata: meta }
      const { ok } = await this.#kv
        .atomic()
        .check({ key: kvKey, versionstamp: entry.versionstamp })
        .set(kvKey, info)
        .commit()
      return ok ? { committed: true, value: id } : undefined
    })
  }

  /** Deletes `key`; resolves `true` when it was stored. */
  async remove(key: string): Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0) return false
    const kvKey = await this.#key(key)
    return checkAndSet(NAME, async () => {
      const entry = await this.#kv.get(kvKey)
      if (entry.versionstamp === null) return { committed: true, value: false }
      const { ok } = await this.#kv
        .atomic()
        .check({ key: kvKey, versionstamp: entry.versionstamp })
        .delete(kvKey)
        .commit()
      return ok ? { committed: true, value: true } : undefined
    })
  }

  /** The key's `{ id, metadata }`, or `null` when it is not stored. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    const { value } = await this.#kv.get<ApiKeyInfo>(await this.#key(key))
    return value && typeof value.id === 'string' ? value : null
  }
}
