/**
 * Hostile keys and numbers, for every store behind rateLimit and concurrencyLimit: keys with a
 * NUL byte, lone surrogates, 6,000 and 200,000 characters (PostgreSQL refuses NUL in text and
 * rows above its index size; Deno KV and Durable Objects bound their keys), and costs and limits
 * at and beyond 2^53 (PostgreSQL's bigint, Lua's doubles). A store must hold each key apart from
 * every other, or refuse a number with a TypeError before the backend sees it; it must never fail
 * on the backend, because a failing store lets the request through under `failOpen`.
 */
import { type ConcurrencyStore, concurrencyLimit } from '@palisade/middleware/concurrency-limit'
import { type RateLimitStore, rateLimit } from '@palisade/middleware/rate-limit'
import { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

type Factory<S> = () => S | Promise<S>

/** Keys no backend can hold as text as they are, and ones that look alike once encoded. */
export const HOSTILE_KEYS: readonly string[] = [
  'k',
  'k\0',
  'k\0x',
  '\0',
  '\uD800',
  '\uDC00',
  '\uFFFD',
  `k${'\uD800'}x`,
  'x'.repeat(6_000),
  `${'x'.repeat(6_000)}y`,
  `${'\0'.repeat(3_000)}é`,
  'z'.repeat(200_000),
]

/** The store of the current test, made before and released after each. */
function useStore<S>(make: Factory<S>, release?: (store: S) => unknown): () => S {
  let current: S | undefined
  beforeEach(async () => {
    current = await make()
  })
  afterEach(async () => {
    if (current !== undefined) await release?.(current)
    current = undefined
  })
  return () => {
    if (current === undefined) throw new Error('store used outside a test')
    return current
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const silent = { onStoreError: () => {} }

/** Hostile keys and numbers against a RateLimitStore (consume checks when it has consume). */
export function rateLimitHostileConformance<S extends RateLimitStore>(
  name: string,
  makeStore: Factory<S>,
  options: { release?: (store: S) => unknown } = {},
): void {
  describe(`RateLimitStore hostile keys and numbers: ${name}`, () => {
    const store = useStore(makeStore, options.release)

    it('counts every hostile key apart from the others, and resets one alone', async () => {
      for (const key of HOSTILE_KEYS) expect((await store().increment(key, 60_000)).count).toBe(1)
      for (const key of HOSTILE_KEYS) expect((await store().increment(key, 60_000)).count).toBe(2)
      const s = store()
      if (s.reset === undefined) return
      await s.reset('k\0')
      expect((await s.increment('k\0', 60_000)).count).toBe(1)
      expect((await s.increment('k', 60_000)).count).toBe(3)
      expect((await s.increment('k\0x', 60_000)).count).toBe(3)
    })

    it('limits a hostile key behind rateLimit with failOpen: the second request is refused', async () => {
      for (const key of HOSTILE_KEYS.slice(1)) {
        const app = new Hono()
        app.use(
          rateLimit({ max: 1, store: store(), keyGenerator: () => key, failOpen: true, ...silent }),
        )
        app.get('/', (c) => c.text('ok'))
        expect((await app.request('/')).status).toBe(200)
        expect((await app.request('/')).status).toBe(429)
      }
    })

    it('every algorithm and consume take hostile keys', async () => {
      const s = store()
      const key = `${'\0'.repeat(10)}${'w'.repeat(7_000)}`
      if (s.slidingWindow) {
        expect((await s.slidingWindow(key, 60_000, 5)).count).toBe(1)
        expect((await s.slidingWindow(key, 60_000, 5)).count).toBe(2)
      }
      if (s.tokenBucket) {
        expect((await s.tokenBucket(key, 60_000, 5)).count).toBe(1)
        expect((await s.tokenBucket(key, 60_000, 5)).count).toBe(2)
      }
      if (s.decrement)
        await s.decrement(key, { algorithm: 'token-bucket', windowMs: 60_000, max: 5 })
      if (s.consume) {
        const request = {
          algorithm: 'fixed-window',
          limits: [{ max: 2, windowMs: 60_000 }],
          cost: 1,
        } as const
        expect((await s.consume(key, request)).allowed).toBe(true)
        expect((await s.consume(key, request)).allowed).toBe(true)
        expect((await s.consume(key, request)).allowed).toBe(false)
        expect((await s.consume(`${key}x`, request)).allowed).toBe(true)
      }
    })

    it('refuses a cost far above max, of any size up to 2^53, without failing, for every algorithm', async () => {
      const s = store()
      if (!s.consume) return
      const cap = Math.floor(Number.MAX_SAFE_INTEGER / 60_000)
      for (const algorithm of ['fixed-window', 'sliding-window', 'token-bucket'] as const) {
        for (const [max, cost] of [
          [10, Number.MAX_SAFE_INTEGER],
          [10, 2 ** 40],
          [cap, Number.MAX_SAFE_INTEGER],
        ] as const) {
          const key = `${algorithm}:${max}:${cost}`
          const limits = [{ max, windowMs: 60_000 }]
          const verdict = await s.consume(key, { algorithm, limits, cost })
          expect(verdict.allowed).toBe(false)
          expect(verdict.limits[0]?.count).toBeGreaterThan(max)
          // The refused cost took nothing: the whole budget is still there.
          expect((await s.consume(key, { algorithm, limits, cost: max })).allowed).toBe(true)
          // (A bucket of `cap` refills thousands of tokens a millisecond: only the small one is empty.)
          if (max === 10) {
            expect((await s.consume(key, { algorithm, limits, cost: 1 })).allowed).toBe(false)
          }
        }
      }
    })

    it('refuses numbers beyond 2^53, negative or fractional with a TypeError', async () => {
      const s = store()
      if (!s.consume) return
      const limits = [{ max: 10, windowMs: 60_000 }]
      for (const cost of [1e19, 2 ** 53, -1, 1.5, Number.NaN]) {
        await expect(s.consume('k', { algorithm: 'fixed-window', limits, cost })).rejects.toThrow(
          TypeError,
        )
      }
      for (const bad of [[{ max: 1e19, windowMs: 60_000 }], [{ max: 10, windowMs: 1e19 }]]) {
        await expect(
          s.consume('k', { algorithm: 'fixed-window', limits: bad, cost: 1 }),
        ).rejects.toThrow(TypeError)
      }
      // max × windowMs past 2^53: the sliding window and the bucket compute with that product and
      // refuse it; a fixed window counts whole units and holds it (a large monthly quota).
      const wide = [{ max: 2 ** 40, windowMs: 2 ** 20 }]
      for (const algorithm of ['sliding-window', 'token-bucket'] as const) {
        await expect(s.consume('k', { algorithm, limits: wide, cost: 1 })).rejects.toThrow(
          TypeError,
        )
      }
      const held = await s.consume('wide', { algorithm: 'fixed-window', limits: wide, cost: 1 })
      expect(held.allowed).toBe(true)
      expect(held.limits[0]?.count).toBe(1)
    })

    it('never lets a 1e19 cost through rateLimit with failOpen', async () => {
      const s = store()
      if (!s.consume) return
      const app = new Hono()
      app.use(rateLimit({ max: 100, store: s, cost: () => 1e19, failOpen: true, ...silent }))
      app.get('/', (c) => c.text('ok'))
      app.onError((error, c) => c.text(String(error), 500))
      const res = await app.request('/')
      expect(res.status).toBe(500)
      expect(await res.text()).toMatch(/cost\(c\)" must be at most 2\^53/)
      await sleep(0)
    })
  })
}

/** Hostile keys and numbers against a ConcurrencyStore. */
export function concurrencyHostileConformance<S extends ConcurrencyStore>(
  name: string,
  makeStore: Factory<S>,
  options: { release?: (store: S) => unknown } = {},
): void {
  describe(`ConcurrencyStore hostile keys and numbers: ${name}`, () => {
    const store = useStore(makeStore, options.release)

    it('holds one slot per hostile key, apart from every other key, renewed and released', async () => {
      for (const key of HOSTILE_KEYS) {
        expect(await store().acquire(key, 'a', 1, 60_000)).toEqual({ acquired: true, inFlight: 1 })
      }
      for (const key of HOSTILE_KEYS) {
        expect((await store().acquire(key, 'b', 1, 60_000)).acquired).toBe(false)
        expect(await store().renew(key, 'a', 60_000)).toBe(true)
      }
      await store().release('k\0', 'a')
      expect((await store().acquire('k\0', 'b', 1, 60_000)).acquired).toBe(true)
      expect((await store().acquire('k', 'b', 1, 60_000)).acquired).toBe(false)
      for (const key of HOSTILE_KEYS) await store().release(key, 'a')
    })

    it('takes max up to 2^53 − 1 and refuses beyond with a TypeError', async () => {
      expect(await store().acquire('big', 'a', Number.MAX_SAFE_INTEGER, 60_000)).toEqual({
        acquired: true,
        inFlight: 1,
      })
      await store().release('big', 'a')
      for (const max of [2 ** 53, 1e19]) {
        await expect(store().acquire('big', 'a', max, 60_000)).rejects.toThrow(TypeError)
      }
    })

    it('limits a hostile key behind concurrencyLimit with failOpen: 4 at once under max 1 admit one', async () => {
      const key = `${'\0'.repeat(5)}${'x'.repeat(6_000)}`
      let open!: () => void
      const gate = new Promise<void>((resolve) => {
        open = resolve
      })
      let entered!: () => void
      const inside = new Promise<void>((resolve) => {
        entered = resolve
      })
      const app = new Hono()
      app.use(
        concurrencyLimit({ max: 1, store: store(), key: () => key, failOpen: true, ...silent }),
      )
      app.get('/', async (c) => {
        entered()
        await gate
        return c.text('ok')
      })
      const first = app.request('/')
      await inside
      const others = await Promise.all([app.request('/'), app.request('/'), app.request('/')])
      expect(others.map((r) => r.status)).toEqual([429, 429, 429])
      open()
      expect(await (await first).text()).toBe('ok')
    })
  })
}
