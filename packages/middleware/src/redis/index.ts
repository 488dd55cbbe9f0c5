/**
 * Redis-backed stores for `rateLimit`, `concurrencyLimit`, `idempotency`, `sessions`, `apiKey` and the replay checks (`RedisNonceStore`), for apps that run more than one
 * instance, on one Redis server or a Redis Cluster. No Redis client is a dependency: each store
 * takes a `sendCommand` function, and `fromIoredis` / `fromNodeRedis` / `fromNodeRedisCluster`
 * adapt the common clients in one line.
 */
export type { RedisApiKeyStoreOptions } from './api-key-store'
export { RedisApiKeyStore } from './api-key-store'
export type {
  IoredisLike,
  NodeRedisClusterLike,
  NodeRedisLike,
  RedisCommand,
  RedisStoreOptions,
} from './client'
export { fromIoredis, fromNodeRedis, fromNodeRedisCluster } from './client'
export {
  RedisConcurrencyStore,
  type RedisConcurrencyStoreOptions,
} from './concurrency-store'
export {
  RedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
} from './idempotency-store'
export { RedisNonceStore, type RedisNonceStoreOptions } from './nonce-store'
export type { RedisRateLimitStoreOptions } from './rate-limit-store'
export { RedisRateLimitStore } from './rate-limit-store'
export type { RedisSessionStoreOptions } from './session-store'
export { RedisSessionStore } from './session-store'
