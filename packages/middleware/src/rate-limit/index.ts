export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './memory-store'
export { clientIpKey, type RateLimitOptions, rateLimit } from './rate-limit'
export type { RateLimitInfo, RateLimitStore } from './store'
