/**
 * The exactness of `consume` under concurrency, for the stores that run in another runtime
 * (tests/cloudflare, tests/deno-kv): 50 concurrent calls against `max` 20 (and a looser second
 * limit) on one key, then a read with cost 0.
 */
import type { RateLimitAlgorithm, RateLimitStore } from '@palisade/middleware/rate-limit'

/** Runs the race on `store`; returns how many calls passed and what each limit holds after. */
export async function raceConsume(store: RateLimitStore, algorithm: RateLimitAlgorithm) {
  const request = {
    algorithm,
    limits: [
      { max: 20, windowMs: 3_600_000 },
      { max: 100, windowMs: 7_200_000 },
    ],
    cost: 1,
  }
  const verdicts = await Promise.all(
    Array.from({ length: 50 }, () => store.consume?.('race', request)),
  )
  const passed = verdicts.filter((v) => v?.allowed).length
  const read = await store.consume?.('race', { ...request, cost: 0 })
  return { passed, counts: read?.limits.map((l) => l.count) }
}
