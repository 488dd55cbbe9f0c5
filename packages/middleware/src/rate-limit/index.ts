export { forgetRefusals } from '../internal/stores/deny-caches'
export { clientIpKey } from './client-ip-key'
export type { RateLimitHeaders } from './headers'
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './memory-store'
export { type RateLimitOptions, rateLimit } from './rate-limit'
export type {
  RateLimitAlgorithm,
  RateLimitHit,
  RateLimitInfo,
  RateLimitStore,
} from './store'
