/**
 * NonceStore conformance: what every replay store behind httpSignature, webhook and DPoP must
 * show, whatever backs it (memory, Redis, PostgreSQL, Durable Objects, Deno KV). Call it with a
 * factory that returns a fresh store:
 *
 *   nonceStoreConformance('MemoryNonceStore', () => new MemoryNonceStore())
 *
 * Expiry is checked with real time (records of a few hundred milliseconds), never fake timers,
 * so stores that keep time outside the process are held to the same contract. The race starts
 * every claim together and judges by the results.
 */
import type { NonceStore } from '@palisade/middleware/http-signature'
import { describe, expect, it } from 'vitest'
import { freshKey as freshNonce, sleep, useStore } from './harness'

/** How a conformance block gets and releases its stores. */
export interface NonceConformanceOptions<S> {
  /** Called after each test with the store the factory returned (delete keys, drop tables). */
  release?: (store: S) => unknown
  /** Lifetime, in milliseconds, of the expiry check's record. Default `400`. */
  ttlMs?: number
}

/** Registers one vitest `describe` block of NonceStore checks. */
export function nonceStoreConformance<S extends NonceStore>(
  name: string,
  makeStore: () => S | Promise<S>,
  options?: NonceConformanceOptions<S>,
): void {
  const ttlMs = options?.ttlMs ?? 400
  describe(`NonceStore conformance: ${name}`, () => {
    const store = useStore(makeStore, options)

    it('grants the first claim of a nonce and refuses the second within its lifetime', async () => {
      const nonce = freshNonce('first')
      expect(await store().claim(nonce, 60_000)).toBe(true)
      expect(await store().claim(nonce, 60_000)).toBe(false)
      expect(await store().claim(nonce, 60_000)).toBe(false)
    })

    it('keeps nonces apart, long ones (held as their hash) included', async () => {
      const a = freshNonce('a')
      const long = `${freshNonce('long')}:${'x'.repeat(400)}`
      expect(await store().claim(a, 60_000)).toBe(true)
      expect(await store().claim(`${a}b`, 60_000)).toBe(true)
      expect(await store().claim(long, 60_000)).toBe(true)
      expect(await store().claim(long, 60_000)).toBe(false)
      expect(await store().claim(`${long}y`, 60_000)).toBe(true)
    })

    it('grants a nonce again once its record has expired', async () => {
      const nonce = freshNonce('expiry')
      expect(await store().claim(nonce, ttlMs)).toBe(true)
      expect(await store().claim(nonce, ttlMs)).toBe(false)
      await sleep(ttlMs * 2 + 100)
      expect(await store().claim(nonce, ttlMs)).toBe(true)
      expect(await store().claim(nonce, ttlMs)).toBe(false)
    })

    it('of 50 concurrent claims of one nonce, grants exactly one', async () => {
      const nonce = freshNonce('race')
      const results = await Promise.all(
        Array.from({ length: 50 }, () => store().claim(nonce, 60_000)),
      )
      expect(results.filter((r) => r === true)).toHaveLength(1)
    })

    it('refuses bad arguments with a TypeError naming the store', async () => {
      const bad: Array<[unknown, unknown]> = [
        ['', 1_000],
        ['x'.repeat(513), 1_000],
        [42, 1_000],
        ['n', 0],
        ['n', -5],
        ['n', 1.5],
        ['n', Number.NaN],
        ['n', '1000'],
      ]
      for (const [nonce, ttl] of bad) {
        await expect(store().claim(nonce as string, ttl as number)).rejects.toThrow(TypeError)
        await expect(store().claim(nonce as string, ttl as number)).rejects.toThrow(/nonce|ttlMs/)
      }
    })
  })
}
