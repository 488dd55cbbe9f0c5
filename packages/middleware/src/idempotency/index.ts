export { type IdempotencyOptions, idempotency } from './idempotency'
export { MemoryIdempotencyStore, type MemoryIdempotencyStoreOptions } from './memory-store'
export type {
  IdempotencyBegin,
  IdempotencyStore,
  IdempotentResponse,
} from './store'
