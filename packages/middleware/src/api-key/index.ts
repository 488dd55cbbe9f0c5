import type { ApiKeyInfo } from './store'

export { type ApiKeyOptions, apiKey } from './api-key'
export { MemoryApiKeyStore } from './memory-store'
export type { ApiKeyInfo, ApiKeyStore, ManagedApiKeyStore } from './store'

declare module 'hono' {
  interface ContextVariableMap {
    /** The validated key's `{ id, metadata? }`, set by `apiKey` (default `contextKey`). */
    apiKey: ApiKeyInfo
  }
}
