import { afterEach, describe, expect, it } from 'vitest'
import { heapOccurrences, longKey, newMarker } from '../../test/heap'
import { MemoryRateLimitStore } from './index'

const stores: MemoryRateLimitStore[] = []
const newStore = (now?: () => number) => {
  const store = new MemoryRateLimitStore(now ? { now } : {})
  stores.push(store)
  return store
}
afterEach(() => {
  for (const store of stores.splice(0)) store.destroy()
})

describe('MemoryRateLimitStore with long keys', () => {
  it('does not keep the text of 300 keys of 200 KB (it held 60 MB of them)', async () => {
    const store = newStore()
    const marker = newMarker()
    const fill = async () => {
      for (let i = 0; i < 300; i++) {
        await store.increment(longKey(marker, i), 60_000)
        await store.slidingWindow(longKey(marker, i), 60_000, 5)
        await store.tokenBucket(longKey(marker, i), 60_000, 5)
        await store.consume(longKey(marker, i), {
          algorithm: 'fixed-window',
          limits: [{ max: 5, windowMs: 60_000 }],
          cost: 1,
        })
      }
    }
    await fill()
    expect(store.size).toBe(1_200)
    // The probe finds a long string the test holds on purpose, so a 0 below means "not held".
    const held = newMarker()
    const kept = longKey(held, 'kept')
    expect(await heapOccurrences(() => held + held)).toBeGreaterThan(0)
    expect(kept).toHaveLength(200_005)
    expect(await heapOccurrences(() => marker + marker)).toBe(0)
  })

  it('still counts each distinct long key apart, and the same long key together', async () => {
    const now = 0
    const store = newStore(() => now)
    const base = 'x'.repeat(200_000)
    const a = `${base}a`
    const b = `${base}b`
    const short = `sha256:${'0'.repeat(64)}`
    for (let i = 1; i <= 3; i++) expect((await store.increment(a, 1_000)).count).toBe(i)
    expect((await store.increment(b, 1_000)).count).toBe(1)
    expect((await store.increment(short, 1_000)).count).toBe(1)
    expect((await store.slidingWindow(a, 1_000, 2)).count).toBe(1)
    expect((await store.slidingWindow(a, 1_000, 2)).count).toBe(2)
    expect((await store.slidingWindow(a, 1_000, 2)).count).toBe(3) // refused
    expect((await store.slidingWindow(b, 1_000, 2)).count).toBe(1)
    expect((await store.tokenBucket(a, 1_000, 1)).count).toBe(1)
    expect((await store.tokenBucket(a, 1_000, 1)).count).toBe(2) // refused
    expect((await store.tokenBucket(b, 1_000, 1)).count).toBe(1)
    const request = {
      algorithm: 'fixed-window' as const,
      limits: [{ max: 1, windowMs: 1_000 }],
      cost: 1,
    }
    expect((await store.consume(a, request)).allowed).toBe(true)
    expect((await store.consume(a, request)).allowed).toBe(false)
    expect((await store.consume(b, request)).allowed).toBe(true)

    // decrement and reset find the same entry as the counting methods.
    await store.decrement(a, { algorithm: 'fixed-window', windowMs: 1_000, max: 3 })
    expect((await store.increment(a, 1_000)).count).toBe(3)
    await store.decrement(a, { algorithm: 'token-bucket', windowMs: 1_000, max: 1 })
    expect((await store.tokenBucket(a, 1_000, 1)).count).toBe(1)
    await store.reset(a)
    expect((await store.increment(a, 1_000)).count).toBe(1)
    expect((await store.consume(a, request)).allowed).toBe(true)
    expect((await store.increment(b, 1_000)).count).toBe(2)
  })
})
