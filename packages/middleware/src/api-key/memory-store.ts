import { hashApiKey } from './hash-key'
import type { ApiKeyInfo, ManagedApiKeyStore } from './store'

interface Entry {
  id: string
  metadata?: Record<string, unknown>
}

function checkKey(key: unknown, method: string): string {
  if (typeof key !== 'string' || key.length === 0) {
    // Never include the value: it may be a real key.
    throw new TypeError(`MemoryApiKeyStore.${method}: key must be a non-empty string`)
  }
  return key
}

function info(entry: Entry): ApiKeyInfo {
  return entry.metadata === undefined
    ? { id: entry.id }
    : { id: entry.id, metadata: structuredClone(entry.metadata) }
}

/**
 * In-memory {@link ManagedApiKeyStore} for development and single-process apps. It keeps only the
 * SHA-256 hash of each key, so a heap dump or a debugger never shows a usable key. Each key gets a
 * random id (unrelated to the key) that is safe to log.
 *
 * @example
 * ```ts
 * const store = new MemoryApiKeyStore()
 * const id = await store.add(process.env.PARTNER_KEY!, { partner: 'acme' })
 * app.use('/api/*', apiKey({ store }))
 * ```
 */
export class MemoryApiKeyStore implements ManagedApiKeyStore {
  readonly #byHash = new Map<string, Entry>()

  /** Number of keys held. */
  get size(): number {
    return this.#byHash.size
  }

  /**
   * Adds a key and returns its id. Adding a key that is already present replaces its metadata
   * and keeps its id. Metadata is copied (structured clone), so later changes by the caller do
   * not leak into the store.
   */
  async add(key: string, metadata?: Record<string, unknown>): Promise<string> {
    const hash = await hashApiKey(checkKey(key, 'add'))
    if (metadata !== undefined && (metadata === null || typeof metadata !== 'object')) {
      throw new TypeError('MemoryApiKeyStore.add: metadata must be an object')
    }
    const copy = metadata === undefined ? undefined : structuredClone(metadata)
    const existing = this.#byHash.get(hash)
    const id = existing?.id ?? crypto.randomUUID()
    this.#byHash.set(hash, copy === undefined ? { id } : { id, metadata: copy })
    return id
  }

  /** Removes a key; resolves `true` when it was present. */
  async remove(key: string): Promise<boolean> {
    return this.#byHash.delete(await hashApiKey(checkKey(key, 'remove')))
  }

  /** Resolves the key's `{ id, metadata? }` (a fresh copy), or `null` for an unknown key. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    const entry = this.#byHash.get(await hashApiKey(key))
    return entry ? info(entry) : null
  }

  /** Forgets every key. */
  async destroy(): Promise<void> {
    this.#byHash.clear()
  }
}
