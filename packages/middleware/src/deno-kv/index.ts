/**
 * Deno KV stores for `rateLimit`, `sessions` and `apiKey`, for Deno Deploy and Deno apps with
 * several instances. Give each store an open handle (`await Deno.openKv()`); the package reads no
 * `Deno` global.
 */
export type { DenoKvApiKeyStoreOptions } from './api-key-store'
export { DenoKvApiKeyStore } from './api-key-store'
export type {
  DenoKvAtomicLike,
  DenoKvEntryLike,
  DenoKvKey,
  DenoKvLike,
  DenoKvStoreOptions,
} from './kv'
export type { DenoKvRateLimitStoreOptions } from './rate-limit-store'
export { DenoKvRateLimitStore } from './rate-limit-store'
export type { DenoKvSessionStoreOptions } from './session-store'
export { DenoKvSessionStore } from './session-store'
