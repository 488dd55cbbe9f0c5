/**
 * The in-memory stores against the conformance suite. MemoryApiKeyStore keeps its map in a
 * private field, so its hashes-only property is proven in its own unit tests, not by a dump here.
 */
import { MemoryApiKeyStore } from '@palisade/middleware/api-key'
import { MemoryConcurrencyStore } from '@palisade/middleware/concurrency-limit'
import { MemoryNonceStore } from '@palisade/middleware/http-signature'
import { MemoryIdempotencyStore } from '@palisade/middleware/idempotency'
import { MemoryRateLimitStore } from '@palisade/middleware/rate-limit'
import { MemorySessionStore } from '@palisade/middleware/sessions'
import { apiKeyLifecycleConformance } from './api-key-lifecycle-conformance'
import { concurrencyStoreConformance } from './concurrency-conformance'
import {
  apiKeyStoreConformance,
  rateLimitStoreConformance,
  sessionStoreConformance,
} from './conformance'
import { denyCacheResetConformance } from './deny-cache-conformance'
import { concurrencyHostileConformance, rateLimitHostileConformance } from './hostile-conformance'
import { idempotencyStoreConformance } from './idempotency-conformance'
import { nonceStoreConformance } from './nonce-conformance'

nonceStoreConformance('MemoryNonceStore', () => new MemoryNonceStore(), {
  release: (store) => store.destroy(),
})

rateLimitStoreConformance('MemoryRateLimitStore', () => new MemoryRateLimitStore(), {
  release: (store) => store.destroy(),
  capabilities: ['slidingWindow', 'tokenBucket', 'decrement', 'consume'],
})

// A store written against the first RateLimitStore interface (increment and reset only): the
// fixed-window contract still applies, and each algorithm check becomes a check that rateLimit
// refuses the option the store cannot serve.
rateLimitStoreConformance(
  'a fixed-window-only store',
  () => {
    const inner = new MemoryRateLimitStore()
    return {
      inner,
      increment: (key: string, windowMs: number) => inner.increment(key, windowMs),
      reset: (key: string) => inner.reset(key),
    }
  },
  { release: (store) => store.inner.destroy() },
)

sessionStoreConformance('MemorySessionStore', () => new MemorySessionStore(), {
  release: (store) => store.destroy_(),
  update: true,
})

apiKeyStoreConformance('MemoryApiKeyStore', () => new MemoryApiKeyStore(), {
  release: (store) => store.destroy(),
})

concurrencyStoreConformance('MemoryConcurrencyStore', () => new MemoryConcurrencyStore(), {
  release: (store) => store.destroy(),
})

rateLimitHostileConformance('MemoryRateLimitStore', () => new MemoryRateLimitStore(), {
  release: (store) => store.destroy(),
})
denyCacheResetConformance('MemoryRateLimitStore', () => new MemoryRateLimitStore(), {
  release: (store) => store.destroy(),
})
concurrencyHostileConformance('MemoryConcurrencyStore', () => new MemoryConcurrencyStore(), {
  release: (store) => store.destroy(),
})

idempotencyStoreConformance('MemoryIdempotencyStore', () => new MemoryIdempotencyStore(), {
  release: (store) => store.destroy(),
})

apiKeyLifecycleConformance('MemoryApiKeyStore', () => new MemoryApiKeyStore(), {
  release: (store) => store.destroy(),
  peer: (store) => store,
})
