/**
 * Cloudflare Workers stores for `rateLimit`, `sessions`, `apiKey`, `concurrencyLimit`, `idempotency` and the
 * replay checks (`DurableObjectNonceStore`), on
 * Durable Objects (strongly consistent, one object per key). Export `PalisadeStoreObject` from the
 * Worker, bind it, and give the stores the binding or a resolver (`(c) => c.env.PALISADE`).
 * Web-standard code only: no platform global, no Cloudflare import.
 */
export type { DurableObjectApiKeyStoreOptions } from './api-key-store'
export { DurableObjectApiKeyStore } from './api-key-store'
export type { DurableObjectConcurrencyStoreOptions } from './concurrency-store'
export { DurableObjectConcurrencyStore } from './concurrency-store'
export type { DurableObjectStateLike, DurableObjectStorageLike } from './durable-object'
export { PalisadeStoreObject } from './durable-object'
export type { DurableObjectIdempotencyStoreOptions } from './idempotency-store'
export { DurableObjectIdempotencyStore } from './idempotency-store'
export type {
  DurableObjectNamespaceLike,
  DurableObjectNamespaceResolver,
  DurableObjectStoreOptions,
  DurableObjectStubLike,
} from './namespace'
export type { DurableObjectNonceStoreOptions } from './nonce-store'
export { DurableObjectNonceStore } from './nonce-store'
export type { DurableObjectRateLimitStoreOptions } from './rate-limit-store'
export { DurableObjectRateLimitStore } from './rate-limit-store'
export type { DurableObjectSessionStoreOptions } from './session-store'
export { DurableObjectSessionStore } from './session-store'
