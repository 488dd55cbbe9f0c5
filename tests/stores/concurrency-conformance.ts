/**
 * ConcurrencyStore conformance: the behaviour every store behind `concurrencyLimit` must show,
 * whatever it is backed by (memory, Redis, Redis Cluster, PostgreSQL, Durable Objects, Deno KV).
 * Call it from a test file with a factory that returns a fresh, empty store:
 *
 *   concurrencyStoreConformance('MemoryConcurrencyStore', () => new MemoryConcurrencyStore(), {
 *     release: (store) => store.destroy(),
 *   })
 *
 * Expiry is checked with real time (leases of a few hundred milliseconds), never fake timers, so
 * stores that keep time outside the process are held to the same contract. Races are started
 * together and judged by their results, never by sleeping and assuming.
 */

import { type ConcurrencyStore, concurrencyLimit } from '@palisade/middleware/concurrency-limit'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type Factory, freshKey, sleep, useStore } from './harness'

/** How a conformance block gets and releases its stores. */
export interface ConcurrencyConformanceOptions<S> {
  /** Called after each test with the store the factory returned (stop timers, delete keys). */
  release?: (store: S) => unknown
  /**
   * Lease length, in milliseconds, of the expiry checks. Default `500`. A store whose clock is
   * coarse (a remote round trip of tens of milliseconds) may ask for more.
   */
  leaseMs?: number
}

/**
 * Registers one vitest `describe` block of ConcurrencyStore checks: slots up to `max`, release,
 * idempotent acquire, isolated keys, atomic acquire under a race, lease expiry (the killed
 * instance), renew, and argument checks; then the same store behind `concurrencyLimit`.
 */
export function concurrencyStoreConformance<S extends ConcurrencyStore>(
  name: string,
  makeStore: Factory<S>,
  options?: ConcurrencyConformanceOptions<S>,
): void {
  const leaseMs = options?.leaseMs ?? 500
  describe(`ConcurrencyStore conformance: ${name}`, () => {
    const store = useStore(makeStore, options)

    it('grants up to max slots per key and refuses the next, reporting the leases held', async () => {
      const key = freshKey('max')
      const results = []
      for (const lease of ['a', 'b', 'c', 'd']) {
        results.push(await store().acquire(key, lease, 3, 60_000))
      }
      expect(results.map((r) => r.acquired)).toEqual([true, true, true, false])
      expect(results.map((r) => r.inFlight)).toEqual([1, 2, 3, 3])
    })

    it('gives a released slot to the next request, once', async () => {
      const key = freshKey('release')
      await store().acquire(key, 'a', 2, 60_000)
      await store().acquire(key, 'b', 2, 60_000)
      expect((await store().acquire(key, 'c', 2, 60_000)).acquired).toBe(false)
      await store().release(key, 'a')
      expect(await store().acquire(key, 'c', 2, 60_000)).toEqual({ acquired: true, inFlight: 2 })
      expect((await store().acquire(key, 'd', 2, 60_000)).acquired).toBe(false)
    })

    it('treats releasing an unknown or already released lease as a no-op', async () => {
      const key = freshKey('noop')
      await store().release(key, 'never-held')
      await store().release(freshKey('empty'), 'never-held')
      await store().acquire(key, 'a', 2, 60_000)
      await store().acquire(key, 'b', 2, 60_000)
      await store().release(key, 'a')
      // A second release of `a` must not free `b`'s slot.
      await store().release(key, 'a')
      expect(await store().acquire(key, 'c', 2, 60_000)).toEqual({ acquired: true, inFlight: 2 })
      expect((await store().acquire(key, 'd', 2, 60_000)).acquired).toBe(false)
    })

    it('is idempotent for the same lease id: a retried acquire takes no second slot', async () => {
      const key = freshKey('idem')
      expect(await store().acquire(key, 'a', 2, 60_000)).toEqual({ acquired: true, inFlight: 1 })
      expect(await store().acquire(key, 'a', 2, 60_000)).toEqual({ acquired: true, inFlight: 1 })
      expect(await store().acquire(key, 'b', 2, 60_000)).toEqual({ acquired: true, inFlight: 2 })
      // Held already: still acquired even though the key is full.
      expect(await store().acquire(key, 'a', 2, 60_000)).toEqual({ acquired: true, inFlight: 2 })
      expect((await store().acquire(key, 'c', 2, 60_000)).acquired).toBe(false)
    })

    it('keeps keys apart, including keys with hash-tag braces, colons and non-ASCII', async () => {
      const base = freshKey('iso')
      const keys = [base, `${base}:other`, `{${base}}`, `${base}}{x`, `${base}:ü✓`]
      for (const key of keys) {
        expect(await store().acquire(key, 'a', 1, 60_000)).toEqual({ acquired: true, inFlight: 1 })
      }
      for (const key of keys) {
        expect((await store().acquire(key, 'b', 1, 60_000)).acquired).toBe(false)
      }
      await store().release(keys[2] as string, 'a')
      expect((await store().acquire(keys[2] as string, 'b', 1, 60_000)).acquired).toBe(true)
      expect((await store().acquire(keys[0] as string, 'b', 1, 60_000)).acquired).toBe(false)
    })

    it('gives exactly max of 60 simultaneous acquires a slot', async () => {
      const key = freshKey('race')
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => store().acquire(key, `lease-${i}`, 7, 60_000)),
      )
      expect(results.filter((r) => r.acquired)).toHaveLength(7)
      for (const r of results) expect(r.inFlight).toBeLessThanOrEqual(7)
    })

    it('frees slots whose leases expired without a release (a killed instance)', async () => {
      const key = freshKey('expire')
      await store().acquire(key, 'crashed-1', 2, leaseMs)
      await store().acquire(key, 'crashed-2', 2, leaseMs)
      expect((await store().acquire(key, 'next', 2, leaseMs)).acquired).toBe(false)
      await sleep(leaseMs + 100)
      expect(await store().acquire(key, 'next', 2, leaseMs)).toEqual({
        acquired: true,
        inFlight: 1,
      })
      // The expired leases are gone for good: renewing one now fails, releasing is a no-op.
      expect(await store().renew(key, 'crashed-1', leaseMs)).toBe(false)
      await store().release(key, 'crashed-2')
      expect(await store().acquire(key, 'other', 2, leaseMs)).toEqual({
        acquired: true,
        inFlight: 2,
      })
    })

    it('answers false when renewing an expired lease with no acquire in between, and does not revive it', async () => {
      // No acquire runs between the expiry and the renewal: an acquire would drop the expired
      // lease itself, and hide a renew that brings it back.
      const key = freshKey('renew-expired')
      await store().acquire(key, 'stale', 1, leaseMs)
      await sleep(leaseMs + 100)
      expect(await store().renew(key, 'stale', 60_000)).toBe(false)
      expect(await store().acquire(key, 'next', 1, 60_000)).toEqual({
        acquired: true,
        inFlight: 1,
      })
    })

    it('keeps a renewed lease past its first expiry', async () => {
      const key = freshKey('renew')
      await store().acquire(key, 'long', 1, leaseMs)
      await sleep(leaseMs * 0.5)
      expect(await store().renew(key, 'long', leaseMs * 3)).toBe(true)
      await sleep(leaseMs * 0.7)
      // 1.2 × leaseMs after the acquire: held only thanks to the renewal. The renewal is long
      // (3 × leaseMs) so a stall on a loaded machine cannot end it before the last check.
      expect(await store().acquire(key, 'other', 1, leaseMs)).toEqual({
        acquired: false,
        inFlight: 1,
      })
      expect(await store().renew(key, 'long', leaseMs)).toBe(true)
    })

    it('answers false when renewing a released or unknown lease, and does not revive it', async () => {
      const key = freshKey('renew-gone')
      expect(await store().renew(key, 'never', 60_000)).toBe(false)
      await store().acquire(key, 'a', 1, 60_000)
      await store().release(key, 'a')
      expect(await store().renew(key, 'a', 60_000)).toBe(false)
      expect(await store().acquire(key, 'b', 1, 60_000)).toEqual({ acquired: true, inFlight: 1 })
    })

    it('rejects invalid arguments with a TypeError', async () => {
      const key = freshKey('args')
      const s = store() as unknown as {
        acquire(...args: unknown[]): Promise<unknown>
        renew(...args: unknown[]): Promise<unknown>
      }
      await expect(s.acquire(key, 'a', 0, 1000)).rejects.toThrow(TypeError)
      await expect(s.acquire(key, 'a', 1.5, 1000)).rejects.toThrow(TypeError)
      await expect(s.acquire(key, 'a', 1, 0)).rejects.toThrow(TypeError)
      await expect(s.acquire(key, '', 1, 1000)).rejects.toThrow(TypeError)
      await expect(s.renew(key, 'a', -1)).rejects.toThrow(TypeError)
    })

    it('limits in-flight requests behind concurrencyLimit and hands the slots back', async () => {
      const inner = store()
      // Counts finished releases, so the test waits for them instead of sleeping.
      const released: Promise<void>[] = []
      const s: ConcurrencyStore = {
        acquire: (...args) => inner.acquire(...args),
        renew: (...args) => inner.renew(...args),
        release: (...args) => {
          const done = inner.release(...args)
          released.push(done)
          return done
        },
      }
      const key = freshKey('app')
      let open!: () => void
      const gate = new Promise<void>((resolve) => {
        open = resolve
      })
      let entered = 0
      let allIn!: () => void
      const admitted = new Promise<void>((resolve) => {
        allIn = resolve
      })
      const app = new Hono()
      app.use(concurrencyLimit({ max: 2, store: s, key: () => key, leaseMs: 60_000 }))
      app.get('/', async (c) => {
        if (++entered === 2) allIn()
        await gate
        return c.text('done')
      })
      const slow = [app.request('/'), app.request('/')]
      await admitted
      const refused = await app.request('/')
      expect(refused.status).toBe(429)
      expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/)
      open()
      const answers = await Promise.all(slow)
      expect(answers.map((r) => r.status)).toEqual([200, 200])
      // The slots are freed once the bodies are out.
      expect(await Promise.all(answers.map((r) => r.text()))).toEqual(['done', 'done'])
      expect(released).toHaveLength(2)
      await Promise.all(released)
      expect(await inner.acquire(key, 'after-1', 2, 60_000)).toEqual({
        acquired: true,
        inFlight: 1,
      })
      expect(await inner.acquire(key, 'after-2', 2, 60_000)).toEqual({
        acquired: true,
        inFlight: 2,
      })
    })
  })
}
