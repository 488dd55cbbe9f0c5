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
      /^MemoryConcurrencyStore: "now" must be a function$/,
    )
    expect(() => new MemoryConcurrencyStore(null as never)).toThrow(
      /^MemoryConcurrencyStore: options must be an object$/,
    )
    expect(() => new MemoryConcurrencyStore(7 as never)).toThrow(
      /^MemoryConcurrencyStore: options must be an object$/,
    )
  })

  it('names the method and the argument when refusing bad arguments', async () => {
    const store = new MemoryConcurrencyStore()
    const long = 'l'.repeat(129)
    await expect(store.acquire(1 as never, 'l', 1, 1_000)).rejects.toThrow(
      /^MemoryConcurrencyStore\.acquire: key must be a string$/,
    )
    await expect(store.acquire('k', long, 1, 1_000)).rejects.toThrow(
      /^MemoryConcurrencyStore\.acquire: lease must be a string of 1 to 128 characters$/,
    )
    await expect(store.acquire('k', 7 as never, 1, 1_000)).rejects.toThrow(/lease must be/)
    for (const max of ['2', 2 ** 53, 0, -1]) {
      await expect(store.acquire('k', 'l', max as number, 1_000)).rejects.toThrow(
        `MemoryConcurrencyStore.acquire: max must be a positive integer, got ${String(max)}`,
      )
    }
    for (const leaseMs of ['9', 2 ** 53, 0, 1.5]) {
      await expect(store.acquire('k', 'l', 1, leaseMs as number)).rejects.toThrow(
        `MemoryConcurrencyStore.acquire: leaseMs must be a positive integer, got ${String(leaseMs)}`,
      )
    }
    await expect(store.renew('k', '', 1_000)).rejects.toThrow(
      /^MemoryConcurrencyStore\.renew: lease must be/,
    )
    await expect(store.renew(null as never, 'l', 1_000)).rejects.toThrow(
      /^MemoryConcurrencyStore\.renew: key must be a string$/,
    )
    await expect(store.renew('k', 'l', 0)).rejects.toThrow(
      /^MemoryConcurrencyStore\.renew: leaseMs must be a positive integer, got 0$/,
    )
    await expect(store.release('k', long)).rejects.toThrow(
      /^MemoryConcurrencyStore\.release: lease must be/,
    )
    await expect(store.release(undefined as never, 'l')).rejects.toThrow(
      /^MemoryConcurrencyStore\.release: key must be a string$/,
    )
    // The edges that are allowed: a 128-character lease, the empty key, the largest max, a 1 ms
    // lease. The lease renewed is a long one: a 1 ms lease may have run out before the renew on
    // a loaded machine (it did once in CI).
    const longest = 'l'.repeat(128)
    expect(await store.acquire('', longest, 2 ** 53 - 1, 60_000)).toEqual({
      acquired: true,
      inFlight: 1,
    })
    expect(await store.acquire('one-ms', 'l', 1, 1)).toEqual({ acquired: true, inFlight: 1 })
    expect(await store.renew('', longest, 1)).toBe(true)
  })

  it('sweeps every key a minute after the last sweep, not before', async () => {
    let now = 0
    const store = new MemoryConcurrencyStore({ now: () => now })
    await store.acquire('first', 'l', 1, 10) // sweeps (nothing), next sweep at 60 000
    await store.acquire('old', 'l', 1, 10)
    now = 59_999
    await store.acquire('fresh', 'l', 1, 100_000)
    expect(store.size).toBe(3)
    now = 60_000
    await store.acquire('fresh', 'l', 1, 100_000)
    expect(store.size).toBe(1)
    // The next sweep is a minute after this one.
    await store.acquire('old', 'l', 1, 10)
    now = 119_999
    await store.acquire('fresh', 'l', 1, 100_000)
    expect(store.size).toBe(2)
    now = 120_000
    await store.acquire('fresh', 'l', 1, 100_000)
    expect(store.size).toBe(1)
  })

  it('keeps the keys whose leases are live through a sweep: a held slot still counts', async () => {
    let now = 0
    const store = new MemoryConcurrencyStore({ now: () => now })
    await store.acquire('held', 'a', 1, 1_000_000)
    now = 60_000
    await store.acquire('other', 'a', 1, 1_000)
    expect(store.size).toBe(2)
    expect(await store.acquire('held', 'b', 1, 1_000)).toEqual({ acquired: false, inFlight: 1 })
  })

  it('drops the expired leases of a key it is asked for, and keeps the live ones', async () => {
    let now = 0
    const store = new MemoryConcurrencyStore({ now: () => now })
    await store.acquire('k', 'a', 3, 100)
    await store.acquire('k', 'b', 3, 200)
    now = 150
    expect(await store.acquire('k', 'c', 3, 100)).toEqual({ acquired: true, inFlight: 2 })
    expect(await store.acquire('k', 'd', 2, 100)).toEqual({ acquired: false, inFlight: 2 })
    // A held lease asking again keeps its one slot even at the limit, and its expiry moves on.
    expect(await store.acquire('k', 'b', 2, 100)).toEqual({ acquired: true, inFlight: 2 })
    now = 240
    expect(await store.renew('k', 'b', 100)).toBe(true)
    expect(await store.renew('k', 'c', 100)).toBe(true)
  })

  it('renews from now: a renewed lease expires leaseMs after the renewal', async () => {
    let now = 0
    const store = new MemoryConcurrencyStore({ now: () => now })
    await store.acquire('k', 'a', 1, 100)
    now = 99
    expect(await store.renew('k', 'a', 50)).toBe(true)
    now = 148
    expect((await store.acquire('k', 'b', 1, 100)).acquired).toBe(false)
    now = 149
    expect(await store.acquire('k', 'b', 1, 100)).toEqual({ acquired: true, inFlight: 1 })
  })

  it('forgets a key whose last lease expired when renewing it, and answers false for unknown keys', async () => {
    let now = 0
    const store = new MemoryConcurrencyStore({ now: () => now })
    expect(await store.renew('nobody', 'l', 100)).toBe(false)
    await store.acquire('k', 'a', 2, 100)
    await store.acquire('k', 'b', 2, 300)
    now = 100
    expect(await store.renew('k', 'a', 100)).toBe(false)
    expect(store.size).toBe(1)
    now = 300
    expect(await store.renew('k', 'b', 100)).toBe(false)
    expect(store.size).toBe(0)
    expect(await store.renew('k', 'other', 100)).toBe(false)
  })

  it('keeps a key while another lease holds it, and forgets it with its last release', async () => {
    const store = new MemoryConcurrencyStore()
    await store.release('nobody', 'l')
    await store.acquire('k', 'a', 2, 1_000)
    await store.acquire('k', 'b', 2, 1_000)
    await store.release('k', 'a')
    expect(store.size).toBe(1)
    expect(await store.renew('k', 'b', 1_000)).toBe(true)
    await store.release('k', 'b')
    expect(store.size).toBe(0)
  })

  it('forgets every lease on destroy and stays usable', async () => {
    const store = new MemoryConcurrencyStore()
    await store.acquire('k', 'a', 1, 1_000)
    await store.acquire('j', 'a', 1, 1_000)
    store.destroy()
    expect(store.size).toBe(0)
    expect(await store.acquire('k', 'b', 1, 1_000)).toEqual({ acquired: true, inFlight: 1 })
  })
})
