/** What a valid key resolves to; stored in the context under `contextKey`. */
export interface ApiKeyInfo {
  id: string
  metadata?: Record<string, unknown>
}

/** Lookup behind `apiKey`: resolves a presented key, or `null` when it is not valid. */
export interface ApiKeyStore {
  validate(key: string): Promise<ApiKeyInfo | null>
}

/**
 * A store that can also be administered. Implementations keep only a hash of each key, never the
 * key itself. `add` returns the new key's id; `remove` returns whether a key was removed.
 */
export interface ManagedApiKeyStore extends ApiKeyStore {
  add(key: string, metadata?: Record<string, unknown>): Promise<string>
  remove(key: string): Promise<boolean>
}
