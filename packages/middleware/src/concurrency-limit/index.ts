export { type ConcurrencyLimitOptions, concurrencyLimit } from './concurrency-limit'
export { MemoryConcurrencyStore, type MemoryConcurrencyStoreOptions } from './memory-store'
export type { ConcurrencyStore } from './store'
