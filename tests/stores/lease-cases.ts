/**
 * Concurrency-lease cases for the platform stores (Durable Objects, Deno KV), run against the
 * real store in its runtime through `remoteStore`. They stand in until the shared suite of the
 * `concurrencyLimit` branch (tests/stores/concurrency-conformance.ts) lands; wire that one then.
 * Expiry uses real time and a short lease; races are started together and judged by results.
 */

import { describe, expect, it } from 'vitest'
import type { ConcurrencyStore } from '../../packages/middleware/src/concurrency-limit/store'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Registers the lease cases for the store `make(prefix)` returns (a fresh prefix per test). */
export function leaseCases(
  name: string,
  make: () => ConcurrencyStore,
  options: { leaseMs?: number } = {},
): void {
  const leaseMs = options.leaseMs ?? 400
  describe(`concurrency leases: ${name}`, () => {
    it('gives exactly max of 60 simultaneous acquires a slot, and no count above max', async () => {
      const store = make()
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => store.acquire('race', `lease-${i}`, 7, 60_000)),
      )
      expect(results.filter((r) => r.acquired)).toHaveLength(7)
      for (const r of results) expect(r.inFlight).toBeLessThanOrEqual(7)
      expect(await store.acquire('race', 'late', 7, 60_000)).toEqual({
        acquired: false,
        inFlight: 7,
      })
    })

    it('frees a released slot for the next request, once; a second release is a no-op', async () => {
      const store = make()
      await store.acquire('k', 'a', 2, 60_000)
      await store.acquire('k', 'b', 2, 60_000)
      expect((await store.acquire('k', 'c', 2, 60_000)).acquired).toBe(false)
      await store.release('k', 'a')
      await store.release('k', 'a')
      await store.release('k', 'never-held')
      expect(await store.acquire('k', 'c', 2, 60_000)).toEqual({ acquired: true, inFlight: 2 })
      expect((await store.acquire('k', 'd', 2, 60_000)).acquired).toBe(false)
    })

    it('is idempotent for one lease id: a retried acquire takes no second slot', async () => {
      const store = make()
      expect(await store.acquire('k', 'a', 2, 60_000)).toEqual({ acquired: true, inFlight: 1 })
      expect(await store.acquire('k', 'a', 2, 60_000)).toEqual({ acquired: true, inFlight: 1 })
      expect(await store.acquire('k', 'b', 2, 60_000)).toEqual({ acquired: true, inFlight: 2 })
      // Held already: still acquired although the key is full.
      expect(await store.acquire('k', 'a', 2, 60_000)).toEqual({ acquired: true, inFlight: 2 })
      expect((await store.acquire('k', 'c', 2, 60_000)).acquired).toBe(false)
    })

    it('keeps keys apart', async () => {
      const store = make()
      for (const key of ['k', 'k:other', '{k}', 'k ü✓']) {
        expect(await store.acquire(key, 'a', 1, 60_000)).toEqual({ acquired: true, inFlight: 1 })
      }
      expect((await store.acquire('k', 'b', 1, 60_000)).acquired).toBe(false)
    })

    it('drops the leases of a killed instance once they expire, and the slots return', async () => {
      const store = make()
      // The "killed instance" takes both slots and never releases or renews them.
      await store.acquire('k', 'crashed-1', 2, leaseMs)
      await store.acquire('k', 'crashed-2', 2, leaseMs)
      expect((await store.acquire('k', 'next', 2, leaseMs)).acquired).toBe(false)
      await sleep(leaseMs + 150)
      expect(await store.acquire('k', 'next', 2, leaseMs)).toEqual({
        acquired: true,
        inFlight: 1,
      })
      // Gone for good: renewing one now fails and does not bring it back.
      expect(await store.renew('k', 'crashed-1', 60_000)).toBe(false)
      expect(await store.acquire('k', 'other', 2, 60_000)).toEqual({
        acquired: true,
        inFlight: 2,
      })
    })

    it('answers false when renewing an expired lease with no acquire in between, and does not revive it', async () => {
      const store = make()
      await store.acquire('k', 'stale', 1, leaseMs)
      await sleep(leaseMs + 150)
      expect(await store.renew('k', 'stale', 60_000)).toBe(false)
      expect(await store.acquire('k', 'next', 1, 60_000)).toEqual({ acquired: true, inFlight: 1 })
    })

    it('keeps a renewed lease past its first expiry', async () => {
      const store = make()
      await store.acquire('k', 'long', 1, leaseMs)
      await sleep(leaseMs * 0.6)
      expect(await store.renew('k', 'long', leaseMs * 3)).toBe(true)
      await sleep(leaseMs * 0.6)
      // 1.2 × leaseMs after the acquire: held only thanks to the renewal. The renewal is long
      // (3 × leaseMs) so a stall on a loaded machine cannot end it before the last check.
      expect(await store.acquire('k', 'other', 1, leaseMs)).toEqual({
        acquired: false,
        inFlight: 1,
      })
      expect(await store.renew('k', 'long', leaseMs)).toBe(true)
    })

    it('answers false when renewing a released or unknown lease, and does not revive it', async () => {
      const store = make()
      expect(await store.renew('k', 'never', 60_000)).toBe(false)
      await store.acquire('k', 'a', 1, 60_000)
      await store.release('k', 'a')
      expect(await store.renew('k', 'a', 60_000)).toBe(false)
      expect(await store.acquire('k', 'b', 1, 60_000)).toEqual({ acquired: true, inFlight: 1 })
    })

    it('rejects bad arguments before they reach the backend', async () => {
      const store = make() as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>
      for (const args of [
        ['k', 'a', 0, 1000],
        ['k', 'a', 1.5, 1000],
        ['k', 'a', 1, 0],
        ['k', '', 1, 1000],
        ['k', 'x'.repeat(129), 1, 1000],
      ]) {
        await expect(store.acquire?.(...args)).rejects.toThrow(TypeError)
        await expect(store.acquire?.(...args)).rejects.toThrow(/lease|max|leaseMs/)
      }
      await expect(store.renew?.('k', 'a', -1)).rejects.toThrow(TypeError)
    })
  })
}
