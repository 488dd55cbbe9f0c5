/**
 * Redis-backed stores for `rateLimit`, `sessions` and `apiKey`, for apps that run more than one
 * instance. No Redis client is a dependency: each store takes a `sendCommand` function, and
 * `fromIoredis` / `fromNodeRedis` adapt the two common clients in one line.
 */
export type { RedisApiKeyStoreOptions } from '../api-key/redis-store'
export { RedisApiKeyStore } from '../api-key/redis-store'
export type { RedisRateLimitStoreOptions } from '../rate-limit/redis-store'
export { RedisRateLimitStore } from '../rate-limit/redis-store'
export type { RedisSessionStoreOptions } from '../sessions/redis-store'
export { RedisSessionStore } from '../sessions/redis-store'
export type { IoredisLike, NodeRedisLike, RedisCommand, RedisStoreOptions } from './command'
export { fromIoredis, fromNodeRedis } from './command'
