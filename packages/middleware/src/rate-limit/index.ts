export { clientIpKey } from './client-ip-key'
export { forgetRefusals } from './deny-cache'
export type { RateLimitHeaders } from './headers'
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './memory-store'
export { type RateLimitOptions, rateLimit } from './rate-limit'
export type {
  RateLimitAlgorithm,
  RateLimitHit,
  RateLimitInfo,
  RateLimitStore,
} from './store'
