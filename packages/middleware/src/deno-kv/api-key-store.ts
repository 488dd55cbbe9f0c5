import type { Context } from 'hono'
import { hashApiKey } from '../api-key/hash-key'
import type { ApiKeyInfo, ApiKeyLifecycleStore, RotateApiKeyOptions } from '../api-key/store'
import { lowered, newest, readRecord, rotateApiKey } from '../api-key/store'
import { checkApiKey, checkMetadata } from '../internal/stores/store-args'
import {
  checkAndSet,
  type DenoKvLike,
  type DenoKvStoreOptions,
  type DenoKvTarget,
  denoKvStoreOptions,
  isBusy,
  retryBusy,
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
 * API keys in Deno KV, stored under the key's SHA-256 hash (the plain key is never written), with
 * their record (expiry, scopes, limits, revocation, last use); `[prefix, 'id', id]` lists the
 * hashes of an id's secrets, for rotation and revocation. Every write is a check-and-set, so two
 * instances adding the same key at once agree on one id, `remove` reports `true` to exactly one
 * caller, and a revocation is never lost to a concurrent `lastUsedAt` write. On a local KV file
 * that another process is writing, a busy file ("database is locked") is tried again up to 8 times
 * with short pauses, except by `touch`, which skips that write (last use is best effort).
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
export class DenoKvApiKeyStore implements ApiKeyLifecycleStore {
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

  #index(id: string): string[] {
    return [this.#prefix, 'id', id]
  }

  /** Adds `hash` to (or removes it from) the list of `id`'s secrets (a busy file retried). */
  #indexEdit(id: string, hash: string, add: boolean): Promise<void> {
    const kvKey = this.#index(id)
    return retryBusy(() =>
      checkAndSet(NAME, async () => {
        const entry = await this.#kv.get<string[]>(kvKey)
        const list = Array.isArray(entry.value) ? entry.value : []
        if (list.includes(hash) === add) return { committed: true, value: undefined }
        const next = add ? [...list, hash] : list.filter((h) => h !== hash)
        const op = this.#kv.atomic().check({ key: kvKey, versionstamp: entry.versionstamp })
        const { ok } = await (next.length > 0 ? op.set(kvKey, next) : op.delete(kvKey)).commit()
        return ok ? { committed: true, value: undefined } : undefined
      }),
    )
  }

  /**
   * Rewrites the record at `kvKey` with `change` (check-and-set); `null` when there is none. A busy
   * file (another process writing a local KV file) is tried again a few times (`retryBusy`).
   */
  #update(
    kvKey: string[],
    change: (current: ApiKeyInfo | null) => ApiKeyInfo | null,
  ): Promise<ApiKeyInfo | null> {
    return retryBusy(() => this.#updateOnce(kvKey, change))
  }

  /** {@link #update} without the retries of a busy file. */
  #updateOnce(
    kvKey: string[],
    change: (current: ApiKeyInfo | null) => ApiKeyInfo | null,
  ): Promise<ApiKeyInfo | null> {
    return checkAndSet(NAME, async () => {
      const entry = await this.#kv.get<ApiKeyInfo>(kvKey)
      const current = readRecord(entry.value)
      const next = change(current)
      if (next === null || next === current) return { committed: true, value: current }
      const { ok } = await this.#kv
        .atomic()
        .check({ key: kvKey, versionstamp: entry.versionstamp })
        .set(kvKey, next)
        .commit()
      return ok ? { committed: true, value: current } : undefined
    })
  }

  /** Stores the hash of `key` with `metadata`; resolves its id (the existing one if present). */
  async add(key: string, metadata?: Record<string, unknown>): Promise<string> {
    checkApiKey(NAME, 'add', key)
    const meta = checkMetadata(NAME, metadata)
    const kvKey = await this.#key(key)
    const id = crypto.randomUUID()
    const previous = await this.#update(kvKey, (current) => {
      const { metadata: _, ...kept } = current ?? { id }
      return meta === undefined ? kept : { ...kept, metadata: meta }
    })
    const stored = previous?.id ?? id
    await this.#indexEdit(stored, kvKey[1] as string, true)
    return stored
  }

  /** Stores `record` under the hash of `key` (replacing one there) and indexes it by its id. */
  async put(key: string, record: ApiKeyInfo): Promise<void> {
    checkApiKey(NAME, 'put', key)
    const checked = readRecord({ ...record })
    if (checked === null) throw new TypeError(`${NAME}.put: invalid record`)
    const kvKey = await this.#key(key)
    const hash = kvKey[1] as string
    // The index first: a record is never readable without being reachable by its id.
    await this.#indexEdit(checked.id, hash, true)
    const previous = await this.#update(kvKey, () => checked)
    if (previous !== null && previous.id !== checked.id) {
      await this.#indexEdit(previous.id, hash, false)
    }
  }

  /** Deletes `key`; resolves `true` when it was stored. */
  async remove(key: string): Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0) return false
    const kvKey = await this.#key(key)
    const removed = await checkAndSet(NAME, async () => {
      const entry = await this.#kv.get<ApiKeyInfo>(kvKey)
      if (entry.versionstamp === null) return { committed: true, value: null }
      const { ok } = await this.#kv
        .atomic()
        .check({ key: kvKey, versionstamp: entry.versionstamp })
        .delete(kvKey)
        .commit()
      return ok ? { committed: true, value: readRecord(entry.value) ?? { id: '' } } : undefined
    })
    if (removed === null) return false
    if (removed.id !== '') await this.#indexEdit(removed.id, kvKey[1] as string, false)
    return true
  }

  /** The key's record, or `null` when it is not stored. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    const { value } = await this.#kv.get<ApiKeyInfo>(await this.#key(key))
    return readRecord(value)
  }

  async #secrets(id: string): Promise<[string[], ApiKeyInfo][]> {
    const { value } = await this.#kv.get<string[]>(this.#index(id))
    const out: [string[], ApiKeyInfo][] = []
    for (const hash of Array.isArray(value) ? value : []) {
      const kvKey = [this.#prefix, hash]
      const record = readRecord((await this.#kv.get<ApiKeyInfo>(kvKey)).value)
      if (record?.id === id) out.push([kvKey, record])
    }
    return out
  }

  /** The record of `id`'s newest secret, or `null`. */
  async get(id: string): Promise<ApiKeyInfo | null> {
    return newest((await this.#secrets(id)).map(([, r]) => r))
  }

  async #patch(id: string, change: (r: ApiKeyInfo) => ApiKeyInfo): Promise<boolean> {
    const secrets = await this.#secrets(id)
    for (const [kvKey] of secrets) {
      await this.#update(kvKey, (current) => (current?.id === id ? change(current) : null))
    }
    return secrets.length > 0
  }

  /** Lowers `expiresAt` to `at` on every secret of `id`. */
  expire(id: string, at: number): Promise<boolean> {
    return this.#patch(id, (r) => lowered(r, at))
  }

  /** Sets `revokedAt` on every secret of `id` (a first revocation time stays). */
  revoke(id: string, at = Date.now()): Promise<boolean> {
    return this.#patch(id, (r) => (r.revokedAt === undefined ? { ...r, revokedAt: at } : r))
  }

  /**
   * Records `at` as the `lastUsedAt` of the secret `key` (never creating a key). Best effort: on a
   * local KV file that another process is writing, a busy file skips this write (no retry, no
   * error), so a last-used time never holds up or fails a rotation or revocation there.
   */
  async touch(key: string, at: number): Promise<void> {
    checkApiKey(NAME, 'touch', key)
    const kvKey = await this.#key(key)
    try {
      await this.#updateOnce(kvKey, (r) => (r === null ? null : { ...r, lastUsedAt: at }))
    } catch (error) {
      if (!isBusy(error)) throw error
    }
  }

  /** A new secret for `id`; the old ones keep working for `overlapMs`. */
  rotate(id: string, options?: RotateApiKeyOptions): Promise<{ id: string; key: string }> {
    return rotateApiKey(this, id, options)
  }
}
