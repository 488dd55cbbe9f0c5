/**
 * Redis (and Redis Cluster) stores for rate limits, sessions and API keys, through any client.
 *
 * @module @palisade/middleware/redis
 */
export * from '@palisade/middleware/redis'
