import { describe, expect, it } from 'vitest'
import { MemoryConcurrencyStore } from './memory-store'

describe('MemoryConcurrencyStore', () => {
  it('holds a key only while it has leases: many distinct released keys leave nothing behind', async () => {
    const store = new MemoryConcurrencyStore()
    for (let i = 0; i < 10_000; i++) {
      await store.acquire(`client-${i}`, 'l', 1, 60_000)
      await store.release(`client-${i}`, 'l')
    }
    expect(store.size).toBe(0)
  })

  it('drops the keys of abandoned leases once they expire, on a later acquire', async () => {
    let now = 0
    const store = new MemoryConcurrencyStore({ now: () => now })
    for (let i = 0; i < 1_000; i++) await store.acquire(`abandoned-${i}`, 'l', 1, 1_000)
    expect(store.size).toBe(1_000)
    // The sweep runs at most once a minute, from acquire.
    now = 61_000
    await store.acquire('fresh', 'l', 1, 1_000)
    expect(store.size).toBe(1)
  })

  it('counts a lease as expired from its expiry on, by its own clock', async () => {
    let now = 0
    const store = new MemoryConcurrencyStore({ now: () => now })
    await store.acquire('k', 'a', 1, 100)
    now = 99
    expect((await store.acquire('k', 'b', 1, 100)).acquired).toBe(false)
    now = 100
    expect(await store.acquire('k', 'b', 1, 100)).toEqual({ acquired: true, inFlight: 1 })
  })

  it('does not revive an expired lease on renew, when no acquire dropped it first', async () => {
    let now = 0
    const store = new MemoryConcurrencyStore({ now: () => now })
    await store.acquire('k', 'stale', 1, 100)
    now = 100
    expect(await store.renew('k', 'stale', 100)).toBe(false)
    expect(await store.acquire('k', 'next', 1, 100)).toEqual({ acquired: true, inFlight: 1 })
  })

  it('refuses bad options', () => {
    expect(() => new MemoryConcurrencyStore({ now: 5 as never })).toThrow(
      /"now" must be a function/,
    )
    expect(() => new MemoryConcurrencyStore(null as never)).toThrow(TypeError)
  })
})
