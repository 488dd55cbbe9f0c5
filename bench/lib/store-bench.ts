/**
 * The store benchmark routine, runtime-agnostic (no Node API): it runs inside Node for the memory
 * and Redis stores, inside workerd for the Durable Object store and inside Deno for Deno KV
 * (tests/cloudflare/worker.ts and tests/deno-kv/server.ts expose it as `GET /bench`), so each
 * store is timed where it really runs, without an extra hop.
 */
import type { RateLimitStore } from '@palisade/middleware/rate-limit'
import { rateLimit } from '@palisade/middleware/rate-limit'
import { Hono } from 'hono'

/** What one store measured. Times in milliseconds. */
export interface StoreBenchResult {
  /** Increments measured one after another (latency) and with `concurrency` in flight. */
  n: number
  concurrency: number
  p50Ms: number
  p99Ms: number
  /** Increments per second, one at a time. */
  sequentialPerSec: number
  /** Increments per second with `concurrency` in flight over 100 keys. */
  concurrentPerSec: number
  /** Extra time per request of `rateLimit({ store })` over the same app without it. */
  rateLimitOverheadMs: number
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0

/** Times `store` with a unique key space `tag`; `now` is the runtime's clock in ms. */
export async function benchStore(
  store: RateLimitStore,
  tag: string,
  n: number,
  concurrency: number,
  now: () => number = () => performance.now(),
): Promise<StoreBenchResult> {
  const windowMs = 600_000
  for (let i = 0; i < 50; i++) await store.increment(`${tag}:warm`, windowMs)

  const latencies: number[] = []
  let started = now()
  for (let i = 0; i < n; i++) {
    const t = now()
    await store.increment(`${tag}:seq`, windowMs)
    latencies.push(now() - t)
  }
  const sequentialMs = now() - started
  latencies.sort((a, b) => a - b)

  let next = 0
  started = now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++
        await store.increment(`${tag}:c${i % 100}`, windowMs)
      }
    }),
  )
  const concurrentMs = now() - started

  // rateLimit's cost per request: the same app with and without it, interleaved in rounds.
  const bare = new Hono()
  bare.get('/', (c) => c.text('ok'))
  const limited = new Hono()
  limited.use(
    '/',
    rateLimit({ max: 1_000_000_000, windowMs, store, keyGenerator: () => `${tag}:rl` }),
  )
  limited.get('/', (c) => c.text('ok'))
  const requests = Math.max(50, Math.floor(n / 4))
  let bareMs = 0
  let limitedMs = 0
  for (let round = 0; round < 4; round++) {
    for (const [app, add] of [
      [bare, (ms: number) => (bareMs += ms)],
      [limited, (ms: number) => (limitedMs += ms)],
    ] as const) {
      const t = now()
      for (let i = 0; i < requests / 4; i++) await (await app.request('/')).text()
      add(now() - t)
    }
  }

  return {
    n,
    concurrency,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    sequentialPerSec: (n / sequentialMs) * 1000,
    concurrentPerSec: (n / concurrentMs) * 1000,
    rateLimitOverheadMs: (limitedMs - bareMs) / requests,
  }
}
