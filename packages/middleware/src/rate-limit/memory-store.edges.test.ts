// MemoryRateLimitStore at its edges: its option errors, a read that holds nothing, the sweep a
// first `consume` starts, refunds that must not land (an old window, an empty count, no bucket),
// and what `destroy` resets.

import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryRateLimitStore } from './memory-store'

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const consume = (store: MemoryRateLimitStore, key: string, cost: number, windowMs = 1_000) =>
  store.consume(key, { algorithm: 'fixed-window', limits: [{ max: 2, windowMs }], cost })

describe('MemoryRateLimitStore: options', () => {
  it('refuses options that are not an object, and says which option is wrong', () => {
    for (const bad of [null, 'fast', 5]) {
      expect(() => new MemoryRateLimitStore(bad as never)).toThrow(
        new TypeError('MemoryRateLimitStore: options must be an object'),
      )
    }
    for (const bad of [0, -1, 1.5, '1000']) {
      expect(() => new MemoryRateLimitStore({ sweepIntervalMs: bad as never })).toThrow(
        new TypeError('MemoryRateLimitStore: "sweepIntervalMs" must be a positive integer'),
      )
    }
    for (const bad of [0, -1, 1.5, '10']) {
      expect(() => new MemoryRateLimitStore({ maxKeys: bad as never })).toThrow(
        new TypeError('MemoryRateLimitStore: "maxKeys" must be a positive integer'),
      )
    }
    expect(new MemoryRateLimitStore({ sweepIntervalMs: 1, maxKeys: 1 }).size).toBe(0)
  })

  it('sweeps at the interval it was given', async () => {
    vi.useFakeTimers({ now: 0 })
    const setSpy = vi.spyOn(globalThis, 'setInterval')
    const store = new MemoryRateLimitStore({ sweepIntervalMs: 250 })
    await store.increment('a', 60_000)
    expect(setSpy.mock.calls.map((call) => call[1])).toEqual([250])
    store.destroy()
  })
})

describe('MemoryRateLimitStore: consume', () => {
  it('a first consume starts the sweep at its first window (clamped), once', async () => {
    vi.useFakeTimers({ now: 0 })
    const setSpy = vi.spyOn(globalThis, 'setInterval')
    const store = new MemoryRateLimitStore()
    await consume(store, 'a', 1, 5_000)
    await consume(store, 'b', 1, 5_000)
    expect(setSpy.mock.calls.map((call) => call[1])).toEqual([5_000])
    vi.advanceTimersByTime(5_000)
    expect(store.size).toBe(0)
    store.destroy()
  })

  it('a read (cost 0) of a fresh key holds nothing; a refusal without a block neither', async () => {
    const store = new MemoryRateLimitStore({ now: () => 0 })
    expect(await consume(store, 'reader', 0)).toEqual({
      allowed: true,
      limits: [{ count: 0, ttl: 1_000 }],
      blockedMs: 0,
    })
    expect(store.size).toBe(0)
    expect((await consume(store, 'big', 5)).allowed).toBe(false)
    expect(store.size).toBe(0)
    expect((await consume(store, 'one', 1)).allowed).toBe(true)
    expect(store.size).toBe(1)
    store.destroy()
  })
})

describe('MemoryRateLimitStore: refunds that must not land', () => {
  const fixed = { algorithm: 'fixed-window', windowMs: 1_000, max: 2 } as const
  const sliding = { algorithm: 'sliding-window', windowMs: 1_000, max: 2 } as const
  const bucket = { algorithm: 'token-bucket', windowMs: 1_000, max: 2 } as const

  it('a fixed count never goes below zero', async () => {
    const store = new MemoryRateLimitStore({ now: () => 0 })
    await store.increment('k', 1_000)
    await store.decrement('k', fixed)
    await store.decrement('k', fixed)
    expect((await store.increment('k', 1_000)).count).toBe(1)
    store.destroy()
  })

  it('a sliding request of an earlier window is not given back, nor one of an empty window', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ now: () => now })
    await store.slidingWindow('k', 1_000, 2)
    await store.slidingWindow('k', 1_000, 2)
    now = 1_000
    // Counted in window 0; window 1 has begun: the previous window weighs in full, 2 of 2.
    await store.decrement('k', sliding)
    expect(await store.slidingWindow('k', 1_000, 2)).toEqual({ count: 3, ttl: 1_000 })
    now = 2_500
    await store.slidingWindow('fresh', 1_000, 2)
    await store.decrement('fresh', sliding)
    await store.decrement('fresh', sliding)
    // One taken, one given back, the second refund found nothing: 0 + 1.
    expect(await store.slidingWindow('fresh', 1_000, 2)).toEqual({ count: 1, ttl: 500 })
    store.destroy()
  })

  it('a bucket refund refills to now first, and a key with no bucket gets none', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ now: () => now })
    await store.decrement('none', bucket)
    expect(store.size).toBe(0)
    await store.tokenBucket('k', 1_000, 2)
    await store.tokenBucket('k', 1_000, 2)
    now = 250
    // 0 tokens + 250 ms of refill (half a token) + one given back: 1.5 tokens, 1 whole.
    await store.decrement('k', bucket)
    expect(await store.tokenBucket('k', 1_000, 2)).toEqual({ count: 2, ttl: 250 })
    store.destroy()
  })
})

describe('MemoryRateLimitStore: destroy', () => {
  it('lets the next full store scan for room at once', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({
      now: () => now,
      maxKeys: 1,
      sweepIntervalMs: 3_600_000,
    })
    await store.increment('a', 60_000)
    // Full, nothing expired: overflow; the next scan is due at 1 s.
    expect((await store.increment('b', 60_000)).count).toBe(1)
    store.destroy()
    await store.increment('c', 10)
    now = 100
    // 'c' has expired; the store is full; a scan right away gives 'd' its own counter.
    await store.increment('d', 60_000)
    expect((await store.increment('d', 60_000)).count).toBe(2)
    expect(store.size).toBe(1)
    store.destroy()
  })

  it('stops the sweep: the store holds no timer, and starts one again when used', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemoryRateLimitStore()
    await store.increment('a', 5_000)
    store.destroy()
    expect(vi.getTimerCount()).toBe(0)
    store.destroy()
    await store.increment('a', 5_000)
    expect(vi.getTimerCount()).toBe(1)
    store.destroy()
  })
})

describe('MemoryRateLimitStore: argument errors and the sweep', () => {
  it('names the method an argument error comes from', async () => {
    const store = new MemoryRateLimitStore()
    await expect(store.increment('a', 0)).rejects.toThrow(
      new TypeError('MemoryRateLimitStore.increment: windowMs must be a positive integer, got 0'),
    )
    const max = (method: string) =>
      new TypeError(
        `MemoryRateLimitStore.${method}: max must be a positive integer with max × windowMs a safe integer`,
      )
    await expect(store.slidingWindow('a', 1_000, 0)).rejects.toThrow(max('slidingWindow'))
    await expect(store.tokenBucket('a', 1_000, 0)).rejects.toThrow(max('tokenBucket'))
    store.destroy()
  })

  it('keeps sweeping while keys remain, and stops once none do', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemoryRateLimitStore({ sweepIntervalMs: 1_000 })
    await store.increment('short', 1_000)
    await store.increment('long', 3_000)
    vi.advanceTimersByTime(1_000)
    expect(store.size).toBe(1)
    expect(vi.getTimerCount()).toBe(1)
    vi.advanceTimersByTime(2_000)
    expect(store.size).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
    store.destroy()
  })
})
