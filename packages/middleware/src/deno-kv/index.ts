/**
 * Deno KV stores for `rateLimit`, `sessions`, `apiKey`, `concurrencyLimit`, `idempotency` and the replay
 * checks (`DenoKvNonceStore`), for Deno Deploy
 * and Deno apps with several instances. Give each store an open handle (`await Deno.openKv()`)
 * or a resolver that returns it (or the promise of it); the package reads no `Deno` global.
 */
export type { DenoKvApiKeyStoreOptions } from './api-key-store'
export { DenoKvApiKeyStore } from './api-key-store'
export type { DenoKvConcurrencyStoreOptions } from './concurrency-store'
export { DenoKvConcurrencyStore } from './concurrency-store'
export type { DenoKvIdempotencyStoreOptions } from './idempotency-store'
export { DenoKvIdempotencyStore } from './idempotency-store'
export type {
  DenoKvAtomicLike,
  DenoKvEntryLike,
  DenoKvKey,
  DenoKvLike,
  DenoKvListLike,
  DenoKvResolver,
  DenoKvStoreOptions,
} from './kv'
export type { DenoKvNonceStoreOptions } from './nonce-store'
export { DenoKvNonceStore } from './nonce-store'
export type { DenoKvRateLimitStoreOptions } from './rate-limit-store'
export { DenoKvRateLimitStore } from './rate-limit-store'
export type { DenoKvSessionStoreOptions } from './session-store'
export { DenoKvSessionStore } from './session-store'
