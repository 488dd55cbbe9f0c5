/**
 * Store conformance suite: the behaviour every RateLimitStore, SessionStore and ApiKeyStore must
 * show, whatever it is backed by. Each function registers one vitest `describe` block; call it
 * from a test file with a factory that returns a fresh, empty store:
 *
 *   rateLimitStoreConformance('MemoryRateLimitStore', () => new MemoryRateLimitStore(), {
 *     release: (store) => store.destroy(),
 *   })
 *
 * The checks use real time (short windows, one-second sessions), never fake timers, so stores
 * that keep time outside the process (Redis) are held to the same contract.
 */

import type { ApiKeyStore, ManagedApiKeyStore } from '@palisade/middleware/api-key'
import {
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
} from '@palisade/middleware/rate-limit'
import { type SessionData, type SessionStore, sessions } from '@palisade/middleware/sessions'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type Factory, sleep, useStore } from './harness'
import { RACED_SAVES, type RaceOutcome } from './session-race'

/** How a conformance block gets and releases its stores. */
export interface ConformanceOptions<S> {
  /** Called after each test with the store `makeStore` returned (stop timers, delete keys). */
  release?: (store: S) => unknown
}

/** Registers `before/afterEach` hooks and returns a getter for the current test's store. */

/** Options of {@link rateLimitStoreConformance}. */
export interface RateLimitConformanceOptions<S> extends ConformanceOptions<S> {
  /** Whether the store implements the optional `reset(key)`. Default `true`. */
  reset?: boolean
  /**
   * The optional methods the store implements: `slidingWindow`, `tokenBucket`, `decrement`,
   * `consume`. Declared, so the suite picks each capability's tests (or, for a missing one, the
   * check that rateLimit refuses the options needing it at construction) when it is collected.
   * Default none; a test checks that the declaration matches the store's methods.
   */
  capabilities?: readonly RateLimitCapability[]
}

/** An optional RateLimitStore method the conformance suite checks when declared. */
export type RateLimitCapability = 'slidingWindow' | 'tokenBucket' | 'decrement' | 'consume'

/**
 * RateLimitStore behaviour: counting, fixed windows that reset, `ttl` in milliseconds that counts
 * down, atomic increments under concurrency, isolated keys, and `reset`.
 */
export function rateLimitStoreConformance<S extends RateLimitStore>(
  name: string,
  makeStore: Factory<S>,
  options?: RateLimitConformanceOptions<S>,
): void {
  describe(`RateLimitStore conformance: ${name}`, () => {
    const store = useStore(makeStore, options)

    it('counts requests for a key from 1 upwards', async () => {
      const counts: number[] = []
      for (let i = 0; i < 5; i++) counts.push((await store().increment('client', 60_000)).count)
      expect(counts).toEqual([1, 2, 3, 4, 5])
    })

    it('reports ttl in milliseconds, close to windowMs on the first request', async () => {
      const { ttl } = await store().increment('client', 60_000)
      expect(ttl).toBeGreaterThan(59_000)
      expect(ttl).toBeLessThanOrEqual(60_000)
    })

    it('counts ttl down within a window instead of restarting it on every request', async () => {
      const first = await store().increment('client', 60_000)
      await sleep(60)
      const second = await store().increment('client', 60_000)
      expect(second.count).toBe(2)
      expect(second.ttl).toBeLessThan(first.ttl)
      expect(second.ttl).toBeGreaterThan(first.ttl - 5_000)
    })

    it('starts a new window at count 1 once windowMs has passed', async () => {
      for (let i = 0; i < 3; i++) await store().increment('client', 200)
      await sleep(320)
      const next = await store().increment('client', 200)
      expect(next.count).toBe(1)
      expect(next.ttl).toBeGreaterThan(100)
      expect(next.ttl).toBeLessThanOrEqual(200)
    })

    it('gives 100 concurrent increments of one key the distinct counts 1..100', async () => {
      const results = await Promise.all(
        Array.from({ length: 100 }, () => store().increment('burst', 60_000)),
      )
      const counts = results.map((r) => r.count).sort((a, b) => a - b)
      expect(counts).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
      expect((await store().increment('burst', 60_000)).count).toBe(101)
    })

    it('keeps concurrent increments of many keys apart', async () => {
      const keys = Array.from({ length: 10 }, (_, i) => `client-${i}`)
      const results = await Promise.all(
        keys.flatMap((key) =>
          Array.from({ length: 20 }, async () => ({
            key,
            count: (await store().increment(key, 60_000)).count,
          })),
        ),
      )
      for (const key of keys) {
        const counts = results
          .filter((r) => r.key === key)
          .map((r) => r.count)
          .sort((a, b) => a - b)
        expect(counts).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      }
    })

    it.each([
      ['a key and a longer key sharing its start', '10.0.0.1', '10.0.0.10'],
      ['a key and the same key with a separator appended', 'user:1', 'user:1:'],
      ['keys differing only in case', 'Client', 'client'],
      ['a glob character and a plain key', '*', 'x'],
      ['non-ASCII keys', 'ключ', 'ключи'],
      ['IPv6 and its IPv4-looking suffix', '::ffff:1.2.3.4', '1.2.3.4'],
    ])('isolates %s', async (_label, a, b) => {
      for (let i = 0; i < 3; i++) await store().increment(a, 60_000)
      expect((await store().increment(b, 60_000)).count).toBe(1)
      expect((await store().increment(a, 60_000)).count).toBe(4)
    })

    it('keeps separate windows for keys with different windowMs', async () => {
      await store().increment('short', 200)
      await store().increment('long', 60_000)
      await sleep(320)
      expect((await store().increment('short', 200)).count).toBe(1)
      expect((await store().increment('long', 60_000)).count).toBe(2)
    })

    if (options?.reset !== false) {
      it('reset(key) restarts that key at count 1 and leaves other keys alone', async () => {
        const s = store()
        expect(s.reset).toBeTypeOf('function')
        for (let i = 0; i < 3; i++) await s.increment('login', 60_000)
        await s.increment('other', 60_000)
        await s.reset?.('login')
        await s.reset?.('never-seen')
        expect((await s.increment('login', 60_000)).count).toBe(1)
        expect((await s.increment('other', 60_000)).count).toBe(2)
      })
    }
  })
  rateLimitAlgorithmConformance(name, makeStore, options)
  rateLimitConsumeConformance(name, makeStore, options)
}

/**
 * `consume(key, request)`: cost units, several limits checked and taken together (all or none),
 * blocks after a refusal, reads with cost 0, atomic under concurrency, for every algorithm. A
 * store that does not declare it is checked to be refused by rateLimit at construction for each
 * option that needs it.
 */
function rateLimitConsumeConformance<S extends RateLimitStore>(
  name: string,
  makeStore: Factory<S>,
  options?: RateLimitConformanceOptions<S>,
): void {
  describe(`RateLimitStore consume: ${name}`, () => {
    const store = useStore(makeStore, options)
    if (!(options?.capabilities ?? []).includes('consume')) {
      it.each<[string, RateLimitOptions]>([
        ['cost', { cost: 2 }],
        ['limits', { limits: [{ max: 1, windowMs: 1_000 }] }],
        ['blockDurationMs', { blockDurationMs: 1_000 }],
      ])('rateLimit refuses %s with this store at construction', (_option, extra) => {
        expect(() => rateLimit({ store: store(), ...extra })).toThrow(TypeError)
      })
      return
    }

    type Algorithm = 'fixed-window' | 'sliding-window' | 'token-bucket'
    const consume = (
      key: string,
      algorithm: Algorithm,
      limits: { max: number; windowMs: number }[],
      cost = 1,
      blockMs = 0,
    ) => {
      const s = store()
      if (!s.consume) throw new Error('no consume')
      return s.consume(key, { algorithm, limits, cost, blockMs })
    }
    const counts = (v: { limits: { count: number }[] }) => v.limits.map((l) => l.count)

    it('fixed window: takes cost units, refuses what does not fit without recording it', async () => {
      const limits = [{ max: 10, windowMs: HOUR }]
      const seen = []
      for (let i = 0; i < 4; i++) seen.push(await consume('k', 'fixed-window', limits, 3))
      expect(seen.map((v) => v.allowed)).toEqual([true, true, true, false])
      expect(seen.map((v) => counts(v)[0])).toEqual([3, 6, 9, 12])
      const last = await consume('k', 'fixed-window', limits, 1)
      expect(last.allowed).toBe(true)
      expect(counts(last)).toEqual([10])
      expect(last.limits[0]?.ttl).toBeGreaterThan(HOUR - 60_000)
      expect(last.blockedMs).toBe(0)
    })

    it('fixed window: a large max over a long window (a monthly quota of 10 million)', async () => {
      // max × windowMs is past 2^53: only the sliding window and the bucket form that product.
      const limits = [{ max: 10_000_000, windowMs: 31 * 24 * HOUR }]
      const first = await consume('quota', 'fixed-window', limits, 9_999_999)
      expect(first.allowed).toBe(true)
      expect((await consume('quota', 'fixed-window', limits, 1)).allowed).toBe(true)
      const over = await consume('quota', 'fixed-window', limits, 1)
      expect(over.allowed).toBe(false)
      expect(counts(over)).toEqual([10_000_001])
      expect(counts(await consume('quota', 'fixed-window', limits, 0))).toEqual([10_000_000])
      await expect(consume('quota', 'sliding-window', limits, 1)).rejects.toThrow(/max/)
    })

    it.each<Algorithm>(['fixed-window', 'sliding-window', 'token-bucket'])(
      '%s: several limits pass together or nothing is taken from any',
      async (algorithm) => {
        const limits = [
          { max: 2, windowMs: 60_000 },
          { max: 5, windowMs: HOUR },
        ]
        expect((await consume('m', algorithm, limits)).allowed).toBe(true)
        expect((await consume('m', algorithm, limits)).allowed).toBe(true)
        const refused = await consume('m', algorithm, limits)
        expect(refused.allowed).toBe(false)
        expect(counts(refused)).toEqual([3, 3])
        expect(refused.limits[0]?.ttl).toBeGreaterThan(0)
        // Read without taking: the hour still holds 2, not 3.
        const read = await consume('m', algorithm, limits, 0)
        expect(counts(read)).toEqual([2, 2])
      },
    )

    it.each<Algorithm>(['fixed-window', 'sliding-window', 'token-bucket'])(
      '%s: cost 0 reads a fresh key without recording anything',
      async (algorithm) => {
        const limits = [{ max: 3, windowMs: HOUR }]
        for (let i = 0; i < 3; i++) {
          const read = await consume('fresh', algorithm, limits, 0)
          expect(read.allowed).toBe(true)
          expect(counts(read)).toEqual([0])
        }
        expect(counts(await consume('fresh', algorithm, limits, 1))).toEqual([1])
      },
    )

    it.each<Algorithm>(['fixed-window', 'sliding-window', 'token-bucket'])(
      '%s: lets exactly max of 30 concurrent calls through',
      async (algorithm) => {
        const limits = [
          { max: 10, windowMs: HOUR },
          { max: 50, windowMs: 2 * HOUR },
        ]
        const results = await Promise.all(
          Array.from({ length: 30 }, () => consume('burst', algorithm, limits)),
        )
        expect(results.filter((r) => r.allowed)).toHaveLength(10)
        expect(counts(await consume('burst', algorithm, limits, 0))).toEqual([10, 10])
      },
    )

    it('token bucket and sliding window take cost units', async () => {
      const limits = [{ max: 5, windowMs: HOUR }]
      for (const algorithm of ['token-bucket', 'sliding-window'] as const) {
        const seen = []
        for (let i = 0; i < 3; i++) seen.push(await consume(`c-${algorithm}`, algorithm, limits, 2))
        expect(seen.map((v) => v.allowed)).toEqual([true, true, false])
        expect(seen.map((v) => counts(v)[0])).toEqual([2, 4, 6])
      }
      // The bucket holds one token; two come back after two refills of HOUR / 5.
      const refused = await consume('c-token-bucket', 'token-bucket', limits, 2)
      expect(refused.limits[0]?.ttl).toBeGreaterThan(HOUR / 5 - 5_000)
      expect(refused.limits[0]?.ttl).toBeLessThanOrEqual(HOUR / 5)
    })

    it('blockMs: a refusal blocks the key until the block ends, past its window', async () => {
      // The block is long against the 350 ms the test waits inside it, and every bound below is
      // taken from the time that really passed, so a slow machine cannot make it fail or pass.
      const BLOCK = 2_000
      const limits = [{ max: 1, windowMs: 200 }]
      expect((await consume('b', 'fixed-window', limits, 1, BLOCK)).allowed).toBe(true)
      const refused = await consume('b', 'fixed-window', limits, 1, BLOCK)
      const refusedAt = Date.now()
      expect(refused.allowed).toBe(false)
      // Set and reported by the same call.
      expect(refused.blockedMs).toBeGreaterThan(BLOCK - 100)
      expect(refused.blockedMs).toBeLessThanOrEqual(BLOCK)
      await sleep(350)
      const askedAt = Date.now()
      const still = await consume('b', 'fixed-window', limits, 1, BLOCK)
      expect(still.allowed).toBe(false)
      expect(still.blockedMs).toBeGreaterThan(0)
      // At least the time waited has come off the block (a few ms of clock rounding allowed).
      expect(still.blockedMs).toBeLessThanOrEqual(refused.blockedMs - (askedAt - refusedAt) + 5)
      await sleep(still.blockedMs + 100)
      expect((await consume('b', 'fixed-window', limits, 1, BLOCK)).allowed).toBe(true)
    })

    it('keeps its state apart from increment() and other keys', async () => {
      const s = store()
      for (let i = 0; i < 3; i++) await s.increment('shared', HOUR)
      const limits = [{ max: 1, windowMs: HOUR }]
      expect(counts(await consume('shared', 'fixed-window', limits))).toEqual([1])
      const refused = await consume('shared', 'fixed-window', limits, 1, HOUR)
      expect(refused.blockedMs).toBeGreaterThan(0)
      expect((await consume('other', 'fixed-window', limits)).allowed).toBe(true)
      expect((await s.increment('shared', HOUR)).count).toBe(4)
    })

    if (options?.reset !== false) {
      it('reset(key) clears its counts and its block', async () => {
        const limits = [{ max: 1, windowMs: HOUR }]
        await consume('blocked', 'fixed-window', limits, 1, HOUR)
        const refused = await consume('blocked', 'fixed-window', limits, 1, HOUR)
        expect(refused.blockedMs).toBeGreaterThan(0)
        await store().reset?.('blocked')
        const after = await consume('blocked', 'fixed-window', limits, 1, HOUR)
        expect(after.allowed).toBe(true)
        expect(after.blockedMs).toBe(0)
      })
    }
  })
}

/** Sleeps until `offset` ms into the next `windowMs`-aligned window (sliding windows align so). */
async function nextWindow(windowMs: number, offset: number): Promise<void> {
  await sleep(windowMs - (Date.now() % windowMs) + offset)
}

const HOUR = 3_600_000

/**
 * The optional capabilities of a RateLimitStore, each checked only when the store declares it
 * (`capabilities`: `slidingWindow`, `tokenBucket`, `decrement`), chosen when the suite is
 * collected; for a capability it lacks, the suite checks that rateLimit refuses the option that
 * needs it at construction, so a store that only counts fixed windows still passes. Sliding
 * windows align to multiples of `windowMs` since the epoch, as in @upstash/ratelimit; the tests
 * wait for a window start where timing matters.
 */
function rateLimitAlgorithmConformance<S extends RateLimitStore>(
  name: string,
  makeStore: Factory<S>,
  options?: RateLimitConformanceOptions<S>,
): void {
  describe(`RateLimitStore algorithms: ${name}`, () => {
    const store = useStore(makeStore, options)
    const sliding = (key: string, windowMs: number, max: number) => {
      const s = store()
      if (!s.slidingWindow) throw new Error('no slidingWindow')
      return s.slidingWindow(key, windowMs, max)
    }
    const bucket = (key: string, windowMs: number, max: number) => {
      const s = store()
      if (!s.tokenBucket) throw new Error('no tokenBucket')
      return s.tokenBucket(key, windowMs, max)
    }
    const caps = new Set(options?.capabilities ?? [])
    // The rateLimit options that need each optional store method.
    const NEEDS: Record<'slidingWindow' | 'tokenBucket' | 'decrement', RateLimitOptions> = {
      slidingWindow: { algorithm: 'sliding-window' },
      tokenBucket: { algorithm: 'token-bucket' },
      decrement: { skipFailedRequests: true },
    }

    it('declares exactly the optional methods it has', () => {
      const s = store()
      for (const method of ['slidingWindow', 'tokenBucket', 'decrement', 'consume'] as const) {
        expect(typeof s[method] === 'function', method).toBe(caps.has(method))
      }
    })

    for (const method of ['slidingWindow', 'tokenBucket', 'decrement'] as const) {
      if (caps.has(method)) continue
      // A store without the method: rateLimit() refuses the option that needs it when it is
      // called, never on a request.
      it(`without ${method}(), rateLimit refuses ${JSON.stringify(NEEDS[method])} at construction`, () => {
        expect(() => rateLimit({ store: store(), ...NEEDS[method] })).toThrow(TypeError)
      })
    }
    /** `it` for the tests of the capabilities the store declares; nothing otherwise. */
    const when =
      (...methods: RateLimitCapability[]) =>
      (title: string, fn: () => Promise<void>, timeout?: number) => {
        if (methods.every((m) => caps.has(m))) it(title, fn, timeout)
      }

    const slidingIt = when('slidingWindow')
    slidingIt('sliding window: counts to max, then rejects without recording', async () => {
      const counts: number[] = []
      for (let i = 0; i < 5; i++) counts.push((await sliding('client', HOUR, 3)).count)
      // Rejected requests are not recorded: the fourth and fifth both report max + 1.
      expect(counts).toEqual([1, 2, 3, 4, 4])
    })

    slidingIt('sliding window: ttl is the time left in the current window', async () => {
      const before = Date.now()
      const { ttl } = await sliding('client', HOUR, 3)
      const after = Date.now()
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(HOUR)
      // The store read its clock between `before` and `after` (one machine, one clock): the time
      // left in the window lies between what was left then, whatever the call took.
      const left = (t: number) => HOUR - (t % HOUR)
      if (Math.floor(before / HOUR) === Math.floor(after / HOUR)) {
        expect(ttl).toBeGreaterThanOrEqual(left(after) - 5)
        expect(ttl).toBeLessThanOrEqual(left(before) + 5)
      }
    })

    slidingIt(
      'sliding window: a full previous window still weighs on the start of the next one',
      async () => {
        await nextWindow(1_000, 20)
        for (let i = 0; i < 4; i++) expect((await sliding('w', 1_000, 4)).count).toBe(i + 1)
        await nextWindow(1_000, 100)
        // About 90% of the previous window overlaps: floor(4 × 0.9) = 3 of its requests count.
        // The exact share depends on when the store reads its clock, somewhere in the call.
        const before = Date.now() % 1_000
        const { count } = await sliding('w', 1_000, 4)
        const after = Date.now() % 1_000
        const possible = new Set<number>()
        for (let e = before; e <= (after < before ? 999 : after); e++) {
          possible.add(Math.floor((4 * (1_000 - e)) / 1_000) + 1)
        }
        expect(possible).toContain(count)
        // A fixed window would count this request as the first of a fresh window.
        if (after >= before && after < 750) expect(count).toBeGreaterThan(1)
        await sleep(2_000)
        expect((await sliding('w', 1_000, 4)).count).toBe(1)
      },
      10_000,
    )

    slidingIt('sliding window: lets exactly max of 30 concurrent requests through', async () => {
      const results = await Promise.all(
        Array.from({ length: 30 }, () => sliding('burst', HOUR, 10)),
      )
      expect(
        results
          .filter((r) => r.count <= 10)
          .map((r) => r.count)
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
    })

    slidingIt(
      'sliding window: keeps its state apart from the fixed window of the same key',
      async () => {
        for (let i = 0; i < 3; i++) await store().increment('shared', HOUR)
        expect((await sliding('shared', HOUR, 10)).count).toBe(1)
        expect((await store().increment('shared', HOUR)).count).toBe(4)
      },
    )

    const bucketIt = when('tokenBucket')
    bucketIt(
      'token bucket: a new bucket holds max tokens; an empty one rejects without recording',
      async () => {
        const results = []
        for (let i = 0; i < 5; i++) results.push(await bucket('client', 60_000, 3))
        expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4, 4])
        // One token comes back every windowMs / max = 20 s.
        const retry = results[3]?.ttl ?? 0
        expect(retry).toBeGreaterThan(19_000)
        expect(retry).toBeLessThanOrEqual(20_000)
      },
    )

    bucketIt(
      'token bucket: refills max tokens per windowMs, evenly',
      async () => {
        // 2 tokens per 2 s: one every second.
        expect((await bucket('r', 2_000, 2)).count).toBe(1)
        expect((await bucket('r', 2_000, 2)).count).toBe(2)
        expect((await bucket('r', 2_000, 2)).count).toBe(3)
        await sleep(1_100)
        expect((await bucket('r', 2_000, 2)).count).toBe(2)
        expect((await bucket('r', 2_000, 2)).count).toBe(3)
        await sleep(2_100)
        // Refilled to capacity, never beyond it.
        expect((await bucket('r', 2_000, 2)).count).toBe(1)
        expect((await bucket('r', 2_000, 2)).count).toBe(2)
        expect((await bucket('r', 2_000, 2)).count).toBe(3)
      },
      10_000,
    )

    bucketIt('token bucket: lets exactly max of 30 concurrent requests through', async () => {
      const results = await Promise.all(Array.from({ length: 30 }, () => bucket('burst', HOUR, 10)))
      expect(results.filter((r) => r.count <= 10)).toHaveLength(10)
      expect(results.filter((r) => r.count > 10)).toHaveLength(20)
    })

    bucketIt(
      'token bucket: keeps its state apart from other keys and the other algorithms',
      async () => {
        for (let i = 0; i < 3; i++) await bucket('a', HOUR, 3)
        await store().increment('b', HOUR)
        expect((await bucket('b', HOUR, 3)).count).toBe(1)
        expect((await bucket('a', HOUR, 3)).count).toBe(4)
      },
    )

    const refundIt = when('decrement')
    refundIt('decrement gives a fixed-window request back, never below zero', async () => {
      const s = store()
      for (let i = 0; i < 3; i++) await s.increment('f', HOUR)
      const hit = { algorithm: 'fixed-window', windowMs: HOUR, max: 10 } as const
      await s.decrement?.('f', hit)
      expect((await s.increment('f', HOUR)).count).toBe(3)
      await s.decrement?.('never-seen', hit)
      await s.decrement?.('never-seen', hit)
      expect((await s.increment('never-seen', HOUR)).count).toBe(1)
    })

    when('decrement', 'slidingWindow')(
      'decrement gives a sliding-window request back',
      async () => {
        const s = store()
        for (let i = 0; i < 3; i++) await sliding('s', HOUR, 3)
        expect((await sliding('s', HOUR, 3)).count).toBe(4)
        await s.decrement?.('s', { algorithm: 'sliding-window', windowMs: HOUR, max: 3 })
        expect((await sliding('s', HOUR, 3)).count).toBe(3)
        await s.decrement?.('fresh', { algorithm: 'sliding-window', windowMs: HOUR, max: 3 })
        expect((await sliding('fresh', HOUR, 3)).count).toBe(1)
      },
    )

    when('decrement', 'tokenBucket')('decrement puts a token back, never above max', async () => {
      const s = store()
      const hit = { algorithm: 'token-bucket', windowMs: HOUR, max: 2 } as const
      await bucket('t', HOUR, 2)
      await bucket('t', HOUR, 2)
      expect((await bucket('t', HOUR, 2)).count).toBe(3)
      await s.decrement?.('t', hit)
      expect((await bucket('t', HOUR, 2)).count).toBe(2)
      // A refund on a full (or unknown) bucket adds nothing.
      await s.decrement?.('full', hit)
      await bucket('full', HOUR, 2)
      await s.decrement?.('full', hit)
      await s.decrement?.('full', hit)
      expect((await bucket('full', HOUR, 2)).count).toBe(1)
      expect((await bucket('full', HOUR, 2)).count).toBe(2)
      expect((await bucket('full', HOUR, 2)).count).toBe(3)
    })

    // The conformance test above only refunds a key the store has never seen. Here the key
    // exists at zero (its only request given back): a second refund must leave it at zero, or
    // the key lets more than max requests through in its window.
    refundIt('a refund on an existing fixed-window key at zero keeps it at zero', async () => {
      const s = store()
      const hit = { algorithm: 'fixed-window', windowMs: HOUR, max: 3 } as const
      await s.increment('z', HOUR)
      for (let i = 0; i < 3; i++) await s.decrement?.('z', hit)
      const counts: number[] = []
      for (let i = 0; i < 4; i++) counts.push((await s.increment('z', HOUR)).count)
      // max (3) requests fit, the fourth is over: a negative count would have let it pass.
      expect(counts).toEqual([1, 2, 3, 4])
    })

    when('decrement', 'slidingWindow')(
      'a refund on an existing sliding-window key at zero keeps it at zero',
      async () => {
        const s = store()
        const hit = { algorithm: 'sliding-window', windowMs: HOUR, max: 3 } as const
        expect((await sliding('z', HOUR, 3)).count).toBe(1)
        for (let i = 0; i < 3; i++) await s.decrement?.('z', hit)
        const counts: number[] = []
        for (let i = 0; i < 5; i++) counts.push((await sliding('z', HOUR, 3)).count)
        expect(counts).toEqual([1, 2, 3, 4, 4])
      },
    )

    // skipFailedRequests through rateLimit on this store. The deny cache is off: it would hide a
    // wrong refund from this process, but another process on the same store would see it.
    const refundAlgorithms: Array<[RateLimitOptions['algorithm'], RateLimitCapability[]]> = [
      ['fixed-window', ['decrement']],
      ['sliding-window', ['decrement', 'slidingWindow']],
      ['token-bucket', ['decrement', 'tokenBucket']],
    ]
    const refundingApp = (algorithm: RateLimitOptions['algorithm']) => {
      const app = new Hono()
      app.use(
        rateLimit({
          store: store(),
          algorithm,
          max: 2,
          windowMs: HOUR,
          skipFailedRequests: true,
          denyCache: false,
          keyGenerator: () => 'refunds',
        }),
      )
      app.get('/ok', (c) => c.text('ok'))
      app.get('/fail', (c) => c.text('bad', 400))
      return app
    }
    for (const [algorithm, needs] of refundAlgorithms) {
      when(...needs)(
        `skipFailedRequests (${algorithm}): a 429 never refunds an earlier success, so requests after the limit all stay refused`,
        async () => {
          const app = refundingApp(algorithm)
          const statuses: number[] = []
          for (let i = 0; i < 12; i++) statuses.push((await app.request('/ok')).status)
          // Were each 429 to give a request back, every other request would pass.
          expect(statuses).toEqual([200, 200, ...Array(10).fill(429)])
        },
      )
      when(...needs)(
        `skipFailedRequests (${algorithm}): a failed request is given back once, not twice`,
        async () => {
          const app = refundingApp(algorithm)
          const statuses: number[] = []
          for (const path of ['/ok', '/fail', '/ok', '/ok', '/ok']) {
            statuses.push((await app.request(path)).status)
          }
          expect(statuses).toEqual([200, 400, 200, 429, 429])
        },
      )
    }

    if (options?.reset !== false) {
      when('slidingWindow', 'tokenBucket')(
        'reset(key) forgets the key under every algorithm',
        async () => {
          const s = store()
          await s.increment('k', HOUR)
          await sliding('k', HOUR, 5)
          await bucket('k', HOUR, 5)
          await s.reset?.('k')
          expect((await s.increment('k', HOUR)).count).toBe(1)
          expect((await sliding('k', HOUR, 5)).count).toBe(1)
          expect((await bucket('k', HOUR, 5)).count).toBe(1)
        },
      )
    }
  })
}

const richData: SessionData = {
  userId: 42,
  name: 'Zoë “quoted” \\ back\nslash',
  emoji: '🦊',
  ratio: -0.125,
  admin: false,
  nothing: null,
  empty: '',
  roles: ['reader', 'writer'],
  nested: { deep: { list: [1, { two: 2 }, [3]] } },
  big: 'x'.repeat(10_000),
}

/** Options of {@link sessionStoreConformance}. */
export interface SessionConformanceOptions<S> extends ConformanceOptions<S> {
  /**
   * Whether the store implements the optional atomic `update(id, apply, maxAge)`; its contract
   * is then checked too, including that concurrent updates lose nothing. Default `false`.
   */
  update?: boolean
}

/**
 * SessionStore behaviour: get/set/destroy, full overwrite, a JSON round trip that returns copies,
 * expiry after `maxAge` seconds (renewed by every `set`), isolated ids; concurrent requests on
 * one session through `sessions()` keep each other's keys; and, with `update: true`, the atomic
 * `update` contract.
 */
export function sessionStoreConformance<S extends SessionStore>(
  name: string,
  makeStore: Factory<S>,
  options?: SessionConformanceOptions<S>,
): void {
  describe(`SessionStore conformance: ${name}`, () => {
    const store = useStore(makeStore, options)

    it('returns null for an unknown id', async () => {
      expect(await store().get('no-such-session')).toBeNull()
    })

    it('round-trips JSON data unchanged: nesting, arrays, unicode, numbers, null, 10 KB strings', async () => {
      await store().set('s1', richData, 3600)
      expect(await store().get('s1')).toEqual(richData)
    })

    it('stores a snapshot: mutating the object after set or after get changes nothing stored', async () => {
      const data: SessionData = { visits: 1, cart: ['apple'] }
      await store().set('s1', data, 3600)
      data.visits = 99
      ;(data.cart as string[]).push('pear')
      const read = await store().get('s1')
      expect(read).toEqual({ visits: 1, cart: ['apple'] })
      if (read) read.visits = 1000
      expect(await store().get('s1')).toEqual({ visits: 1, cart: ['apple'] })
    })

    it('replaces the whole value on set: fields missing from the new data are gone', async () => {
      await store().set('s1', { a: 1, b: 2 }, 3600)
      await store().set('s1', { a: 3 }, 3600)
      expect(await store().get('s1')).toEqual({ a: 3 })
    })

    it('destroy removes the session and ignores unknown ids', async () => {
      await store().set('s1', { a: 1 }, 3600)
      await store().destroy('s1')
      await store().destroy('never-existed')
      expect(await store().get('s1')).toBeNull()
    })

    it('keeps sessions apart: writing or destroying one leaves the other', async () => {
      await store().set('s1', { who: 'one' }, 3600)
      await store().set('s2', { who: 'two' }, 3600)
      await store().destroy('s1')
      expect(await store().get('s2')).toEqual({ who: 'two' })
    })

    it('expires a session once maxAge seconds have passed', async () => {
      await store().set('short', { a: 1 }, 1)
      await store().set('long', { a: 2 }, 3600)
      expect(await store().get('short')).toEqual({ a: 1 })
      await sleep(1_150)
      expect(await store().get('short')).toBeNull()
      expect(await store().get('long')).toEqual({ a: 2 })
    })

    it('renews the lifetime on every set', async () => {
      await store().set('s1', { n: 1 }, 1)
      await sleep(600)
      await store().set('s1', { n: 2 }, 1)
      await sleep(600)
      expect(await store().get('s1')).toEqual({ n: 2 })
    })

    it('keeps both keys when two requests on one session save concurrently (sessions middleware)', async () => {
      const app = new Hono()
      app.use(sessions({ secret: 'conformance-secret-0123456789abcdef', store: store() }))
      let release: () => void = () => {}
      let held = Promise.resolve()
      // A barrier instead of a sleep: the test waits until both requests have loaded.
      let arrived = 0
      let bothLoaded: () => void = () => {}
      const loaded = new Promise<void>((resolve) => {
        bothLoaded = resolve
      })
      app.post('/set/:k', async (c) => {
        const session = c.get('session')
        if (++arrived === 3) bothLoaded()
        await held
        session.set(c.req.param('k'), true)
        return c.text('ok')
      })
      app.get('/', (c) => c.json(c.get('session').toJSON()))
      const first = await app.request('/set/user', { method: 'POST' })
      const cookie = (first.headers.getSetCookie()[0] ?? '').split(';')[0] as string
      held = new Promise((resolve) => {
        release = resolve
      })
      const headers = { cookie }
      const a = app.request('/set/cart', { method: 'POST', headers })
      const b = app.request('/set/theme', { method: 'POST', headers })
      await loaded // both requests have loaded the same data (the first request was the login)
      release()
      expect((await a).status).toBe(200)
      expect((await b).status).toBe(200)
      expect(await (await app.request('/', { headers })).json()).toEqual({
        user: true,
        cart: true,
        theme: true,
      })
    })

    if (options?.update) {
      const update = (
        id: string,
        apply: (d: SessionData | null) => SessionData | null,
        s = 3600,
      ) => {
        const fn = store().update
        if (typeof fn !== 'function') throw new Error(`${name} has no update()`)
        return fn.call(store(), id, apply, s)
      }

      it('update applies the change to the stored data and returns what it wrote', async () => {
        await store().set('s1', { a: 1, b: 2 }, 3600)
        const written = await update('s1', (cur) => ({ ...cur, b: 3, c: 4 }))
        expect(written).toEqual({ a: 1, b: 3, c: 4 })
        expect(await store().get('s1')).toEqual({ a: 1, b: 3, c: 4 })
      })

      it('update passes null for a missing session, and null back writes nothing (no revival)', async () => {
        let seen: unknown = 'not called'
        expect(
          await update('missing', (cur) => {
            seen = cur
            return null
          }),
        ).toBeNull()
        expect(seen).toBeNull()
        expect(await store().get('missing')).toBeNull()
      })

      it('update never revives an expired session', async () => {
        await store().set('short', { a: 1 }, 1)
        await sleep(1_150)
        expect(await update('short', (cur) => (cur === null ? null : { ...cur, b: 2 }))).toBeNull()
        expect(await store().get('short')).toBeNull()
      })

      it('update returning {} deletes the session', async () => {
        await store().set('s1', { a: 1 }, 3600)
        expect(await update('s1', () => ({}))).toEqual({})
        expect(await store().get('s1')).toBeNull()
      })

      it('update renews the lifetime to the given maxAge', async () => {
        await store().set('s1', { n: 1 }, 1)
        await sleep(600)
        await update('s1', (cur) => cur, 2)
        await sleep(600)
        expect(await store().get('s1')).toEqual({ n: 1 })
      })

      it('20 concurrent updates of one session lose none (atomic read-modify-write)', async () => {
        await store().set('counter', { n: 0 }, 3600)
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            update('counter', (cur) =>
              cur === null ? null : { ...cur, n: (cur.n as number) + 1, [`k${i}`]: i },
            ),
          ),
        )
        const data = (await store().get('counter')) as Record<string, number>
        expect(data.n).toBe(20)
        expect(Object.keys(data)).toHaveLength(21)
      })
    }

    it('stores 50 sessions written concurrently', async () => {
      const ids = Array.from({ length: 50 }, (_, i) => `c${i}`)
      await Promise.all(ids.map((id, i) => store().set(id, { i }, 3600)))
      const read = await Promise.all(ids.map((id) => store().get(id)))
      expect(read).toEqual(ids.map((_, i) => ({ i })))
    })
  })
}

/**
 * A logout racing each of {@link RACED_SAVES} on a real store (see ./session-race.ts): the logout
 * lands after the save has read the session and before it writes, and must win. `race` runs the
 * races (often inside another runtime) and returns their outcomes.
 */
export function logoutRaceConformance(
  name: string,
  race: () => Promise<Record<string, RaceOutcome>>,
): void {
  describe(`sessions on ${name}: a destroy wins over every concurrent write`, () => {
    let outcomes: Promise<Record<string, RaceOutcome>> | undefined
    it.each(RACED_SAVES)(
      'a logout landing between the read and the write of POST %s stays a logout',
      async (path) => {
        outcomes ??= race()
        const outcome = (await outcomes)[path] as RaceOutcome
        expect(outcome.status).toBe(200)
        // The logged-out session is gone, and no copy of it lives on under a new ID.
        expect(outcome.after).toEqual({})
        expect(outcome.underNewCookie ?? {}).toEqual({})
      },
    )
  })
}

/** Options of {@link apiKeyStoreConformance}. */
export interface ApiKeyConformanceOptions<S> extends ConformanceOptions<S> {
  /**
   * Everything the store holds, as text (for Redis: every key and value under its prefix). When
   * given, a test proves that no plain key is stored; a store whose state is private (a memory
   * store with `#fields`) must prove it in its own unit tests instead.
   */
  dump?: (store: S) => Promise<string>
}

/**
 * ApiKeyStore (managed) behaviour: add → validate → remove, ids, metadata, near-miss keys,
 * and that only hashes of keys are stored.
 */
export function apiKeyStoreConformance<S extends ManagedApiKeyStore & ApiKeyStore>(
  name: string,
  makeStore: Factory<S>,
  options?: ApiKeyConformanceOptions<S>,
): void {
  describe(`ApiKeyStore conformance: ${name}`, () => {
    const store = useStore(makeStore, options)
    const key = 'pk_live_7Hq2xV9sLm4Rt8Wz1Yb6Nc3Kd5Fg0Ja'

    it('returns null for a key that was never added', async () => {
      expect(await store().validate(key)).toBeNull()
    })

    it('add returns an id; validate resolves the key to that id and its metadata', async () => {
      const metadata = { owner: 'billing', scopes: ['read', 'write'], tier: 3 }
      const id = await store().add(key, metadata)
      expect(id).toBeTypeOf('string')
      expect(id.length).toBeGreaterThan(0)
      expect(await store().validate(key)).toEqual({ id, metadata })
    })

    it('resolves a key added without metadata to its id alone', async () => {
      const id = await store().add(key)
      const info = await store().validate(key)
      expect(info?.id).toBe(id)
      expect(info?.metadata).toBeUndefined()
    })

    it('gives different keys different ids and keeps their metadata apart', async () => {
      const idA = await store().add('key-a-0123456789', { name: 'a' })
      const idB = await store().add('key-b-0123456789', { name: 'b' })
      expect(idA).not.toBe(idB)
      expect(await store().validate('key-a-0123456789')).toEqual({
        id: idA,
        metadata: { name: 'a' },
      })
      expect(await store().validate('key-b-0123456789')).toEqual({
        id: idB,
        metadata: { name: 'b' },
      })
    })

    it.each([
      ['with a character appended', `${key}x`],
      ['missing its last character', key.slice(0, -1)],
      ['in upper case', key.toUpperCase()],
      ['with a leading space', ` ${key}`],
      ['with a trailing newline', `${key}\n`],
      ['empty', ''],
    ])('rejects the key %s', async (_label, presented) => {
      await store().add(key)
      expect(await store().validate(presented)).toBeNull()
    })

    it('remove returns true once, after which the key is invalid', async () => {
      await store().add(key)
      expect(await store().remove(key)).toBe(true)
      expect(await store().validate(key)).toBeNull()
      expect(await store().remove(key)).toBe(false)
      expect(await store().remove('never-added')).toBe(false)
    })

    it('removing one key leaves the others valid', async () => {
      const keep = await store().add('keep-me-0123456789')
      await store().add('drop-me-0123456789')
      await store().remove('drop-me-0123456789')
      expect((await store().validate('keep-me-0123456789'))?.id).toBe(keep)
    })

    it('adding a key again keeps its id and replaces its metadata', async () => {
      const id = await store().add(key, { plan: 'free', seats: 1 })
      expect(await store().add(key, { plan: 'pro' })).toBe(id)
      expect(await store().validate(key)).toEqual({ id, metadata: { plan: 'pro' } })
      expect(await store().add(key)).toBe(id)
      expect(await store().validate(key)).toEqual({ id })
    })

    it('accepts a key again after it was removed and re-added', async () => {
      await store().add(key, { v: 1 })
      await store().remove(key)
      const id = await store().add(key, { v: 2 })
      expect(await store().validate(key)).toEqual({ id, metadata: { v: 2 } })
    })

    const dump = options?.dump
    if (dump) {
      it('stores hashes only: the plain key appears nowhere in what the store holds', async () => {
        await store().add(key, { owner: 'billing' })
        await store().add('second-secret-key-0123456789')
        const dumped = await dump(store())
        expect(dumped).toContain('billing')
        expect(dumped).not.toContain(key)
        expect(dumped).not.toContain('second-secret-key-0123456789')
      })
    }

    it('validates 50 keys added concurrently', async () => {
      const keys = Array.from({ length: 50 }, (_, i) => `concurrent-key-${i}-abcdef`)
      const ids = await Promise.all(keys.map((k, i) => store().add(k, { i })))
      const infos = await Promise.all(keys.map((k) => store().validate(k)))
      expect(infos).toEqual(ids.map((id, i) => ({ id, metadata: { i } })))
    })
  })
}
