/**
 * Redis-backed stores for `rateLimit`, `sessions` and `apiKey`, for apps that run more than one
 * instance, on one Redis server or a Redis Cluster. No Redis client is a dependency: each store
 * takes a `sendCommand` function, and `fromIoredis` / `fromNodeRedis` / `fromNodeRedisCluster`
 * adapt the common clients in one line.
 */
export type { RedisApiKeyStoreOptions } from '../api-key/redis-store'
export { RedisApiKeyStore } from '../api-key/redis-store'
export type { RedisRateLimitStoreOptions } from '../rate-limit/redis-store'
export { RedisRateLimitStore } from '../rate-limit/redis-store'
export type { RedisSessionStoreOptions } from '../sessions/redis-store'
export { RedisSessionStore } from '../sessions/redis-store'
export type {
  IoredisLike,
  NodeRedisClusterLike,
  NodeRedisLike,
  RedisCommand,
  RedisStoreOptions,
} from './command'
export { fromIoredis, fromNodeRedis, fromNodeRedisCluster } from './command'
