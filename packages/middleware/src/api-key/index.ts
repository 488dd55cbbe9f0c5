import type { ApiKeyInfo } from './store'

export { type ApiKeyOptions, apiKey } from './api-key'
export {
  API_KEY_BODY_LENGTH,
  API_KEY_CHECKSUM_LENGTH,
  generateApiKey,
  isWellFormedApiKey,
} from './format'
export { apiKeyLimit, type CreateApiKeyOptions, createApiKey } from './lifecycle'
export { MemoryApiKeyStore } from './memory-store'
export type {
  ApiKeyFields,
  ApiKeyInfo,
  ApiKeyLifecycleStore,
  ApiKeyStore,
  ManagedApiKeyStore,
  RotateApiKeyOptions,
} from './store'

declare module 'hono' {
  interface ContextVariableMap {
    /** The validated key's `{ id, metadata? }`, set by `apiKey` (default `contextKey`). */
    apiKey: ApiKeyInfo
  }
}
