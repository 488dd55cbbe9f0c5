import { hashApiKey } from './hash-key'
import { checkFields } from './lifecycle'
import type { ApiKeyInfo, ApiKeyLifecycleStore, RotateApiKeyOptions } from './store'
import { lowered, newest, rotateApiKey } from './store'

function checkKey(key: unknown, method: string): string {
  if (typeof key !== 'string' || key.length === 0) {
    // Never include the value: it may be a real key.
    throw new TypeError(`MemoryApiKeyStore.${method}: key must be a non-empty string`)
  }
  return key
}

/**
 * In-memory {@link ApiKeyLifecycleStore} for development and single-process apps. It keeps only
 * the SHA-256 hash of each key, so a heap dump or a debugger never shows a usable key. Each key
 * gets a random id (unrelated to the key) that is safe to log.
 *
 * @example
 * ```ts
 * const store = new MemoryApiKeyStore()
 * const id = await store.add(process.env.PARTNER_KEY!, { partner: 'acme' })
 * app.use('/api/*', apiKey({ store }))
 * ```
 */
export class MemoryApiKeyStore implements ApiKeyLifecycleStore {
  readonly #byHash = new Map<string, ApiKeyInfo>()
  readonly #byId = new Map<string, Set<string>>()

  /** Number of keys (secrets) held. */
  get size(): number {
    return this.#byHash.size
  }

  #set(hash: string, record: ApiKeyInfo): void {
    const previous = this.#byHash.get(hash)
    if (previous !== undefined && previous.id !== record.id) this.#unindex(hash, previous.id)
    this.#byHash.set(hash, record)
    const hashes = this.#byId.get(record.id)
    if (hashes === undefined) this.#byId.set(record.id, new Set([hash]))
    else hashes.add(hash)
  }

  #unindex(hash: string, id: string): void {
    const hashes = this.#byId.get(id)
    hashes?.delete(hash)
    if (hashes?.size === 0) this.#byId.delete(id)
  }

  /**
   * Adds a key and returns its id. Adding a key that is already present replaces its metadata
   * and keeps its id and lifecycle fields. Metadata is copied (structured clone), so later
   * changes by the caller do not leak into the store.
   */
  async add(key: string, metadata?: Record<string, unknown>): Promise<string> {
    const hash = await hashApiKey(checkKey(key, 'add'))
    if (metadata !== undefined && (metadata === null || typeof metadata !== 'object')) {
      throw new TypeError('MemoryApiKeyStore.add: metadata must be an object')
    }
    const existing = this.#byHash.get(hash)
    const { metadata: _, ...kept } = existing ?? { id: crypto.randomUUID() }
    const record = metadata === undefined ? kept : { ...kept, metadata: structuredClone(metadata) }
    this.#set(hash, record)
    return record.id
  }

  /** Stores `record` (copied) under the hash of `key` and indexes it by its id. */
  async put(key: string, record: ApiKeyInfo): Promise<void> {
    const hash = await hashApiKey(checkKey(key, 'put'))
    if (typeof record?.id !== 'string' || record.id.length === 0) {
      throw new TypeError('MemoryApiKeyStore.put: record.id must be a non-empty string')
    }
    const { id, revokedAt, lastUsedAt, createdAt, prefix } = record
    const fields = checkFields('MemoryApiKeyStore.put', record)
    this.#set(hash, { id, ...fields, revokedAt, lastUsedAt, createdAt, prefix })
  }

  /** Removes a key; resolves `true` when it was present. */
  async remove(key: string): Promise<boolean> {
    const hash = await hashApiKey(checkKey(key, 'remove'))
    const existing = this.#byHash.get(hash)
    if (existing === undefined) return false
    this.#byHash.delete(hash)
    this.#unindex(hash, existing.id)
    return true
  }

  /** Resolves the key's record (a fresh copy), or `null` for an unknown key. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    const entry = this.#byHash.get(await hashApiKey(key))
    return entry ? copy(entry) : null
  }

  #records(id: string): [string, ApiKeyInfo][] {
    const hashes = this.#byId.get(id)
    if (hashes === undefined) return []
    return [...hashes].map((h) => [h, this.#byHash.get(h) as ApiKeyInfo])
  }

  /** The record of `id`'s newest secret (a copy), or `null`. */
  async get(id: string): Promise<ApiKeyInfo | null> {
    const record = newest(this.#records(id).map(([, r]) => r))
    return record === null ? null : copy(record)
  }

  /** Lowers `expiresAt` to `at` on every secret of `id`. */
  async expire(id: string, at: number): Promise<boolean> {
    const records = this.#records(id)
    for (const [hash, record] of records) this.#byHash.set(hash, lowered(record, at))
    return records.length > 0
  }

  /** Sets `revokedAt` on every secret of `id` (kept when already revoked). */
  async revoke(id: string, at = Date.now()): Promise<boolean> {
    const records = this.#records(id)
    for (const [hash, record] of records) {
      if (record.revokedAt === undefined) this.#byHash.set(hash, { ...record, revokedAt: at })
    }
    return records.length > 0
  }

  /** Records `at` as the `lastUsedAt` of the secret `key`. */
  async touch(key: string, at: number): Promise<void> {
    const hash = await hashApiKey(checkKey(key, 'touch'))
    const record = this.#byHash.get(hash)
    if (record !== undefined) this.#byHash.set(hash, { ...record, lastUsedAt: at })
  }

  /** A new secret for `id`; the old ones keep working for `overlapMs`. */
  rotate(id: string, options?: RotateApiKeyOptions): Promise<{ id: string; key: string }> {
    return rotateApiKey(this, id, options)
  }

  /** Forgets every key. */
  async destroy(): Promise<void> {
    this.#byHash.clear()
    this.#byId.clear()
  }
}

/**
 * A copy of a record without its undefined fields (callers compare with `toEqual`). Only
 * metadata (arbitrary JSON) needs a structured clone; scopes and limits are flat.
 */
function copy(record: ApiKeyInfo): ApiKeyInfo {
  const out: ApiKeyInfo = { id: record.id }
  if (record.metadata !== undefined) out.metadata = structuredClone(record.metadata)
  if (record.scopes !== undefined) out.scopes = record.scopes.slice()
  if (record.limits !== undefined) out.limits = { ...record.limits }
  for (const name of TIMES) if (record[name] !== undefined) out[name] = record[name]
  if (record.prefix !== undefined) out.prefix = record.prefix
  return out
}

const TIMES = ['expiresAt', 'revokedAt', 'lastUsedAt', 'createdAt'] as const
