import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryRateLimitStore } from './index'

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('MemoryRateLimitStore', () => {
  it('counts per key within a fixed window and reports ttl in milliseconds', async () => {
    let now = 1_000
    const store = new MemoryRateLimitStore({ now: () => now })
    expect(await store.increment('a', 10_000)).toEqual({ count: 1, ttl: 10_000 })
    now += 2_500
    expect(await store.increment('a', 10_000)).toEqual({ count: 2, ttl: 7_500 })
    expect(await store.increment('b', 10_000)).toEqual({ count: 1, ttl: 10_000 })
    now += 7_500
    expect(await store.increment('a', 10_000)).toEqual({ count: 1, ttl: 10_000 })
    store.destroy()
  })

  it('never gives two concurrent increments the same count', async () => {
    const store = new MemoryRateLimitStore()
    const results = await Promise.all(Array.from({ length: 100 }, () => store.increment('k', 1000)))
    expect(new Set(results.map((r) => r.count)).size).toBe(100)
    store.destroy()
  })

  it('reset forgets one key', async () => {
    const store = new MemoryRateLimitStore()
    await store.increment('a', 1000)
    await store.increment('b', 1000)
    await store.reset('a')
    expect(store.size).toBe(1)
    expect((await store.increment('a', 1000)).count).toBe(1)
    store.destroy()
  })

  it('holds none of 100,000 distinct keys once two windows have passed', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemoryRateLimitStore()
    for (let i = 0; i < 100_000; i++) await store.increment(`key-${i}`, 60_000)
    expect(store.size).toBe(100_000)
    vi.advanceTimersByTime(2 * 60_000)
    expect(store.size).toBe(0)
    store.destroy()
  })

  it('drops an expired window when its key is seen again, before any sweep', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ now: () => now, sweepIntervalMs: 3_600_000 })
    await store.increment('a', 100)
    now = 100
    expect((await store.increment('a', 100)).count).toBe(1)
    store.destroy()
  })

  it('starts its sweep on first use, unrefs it, and stops it when empty', async () => {
    vi.useFakeTimers({ now: 0 })
    const setSpy = vi.spyOn(globalThis, 'setInterval')
    const store = new MemoryRateLimitStore()
    expect(setSpy).not.toHaveBeenCalled()
    await store.increment('a', 5_000)
    expect(setSpy).toHaveBeenCalledTimes(1)
    expect(setSpy.mock.calls[0]?.[1]).toBe(5_000)
    const handle = setSpy.mock.results[0]?.value as { hasRef?: () => boolean }
    expect(handle.hasRef?.()).toBe(false)
    expect(vi.getTimerCount()).toBe(1)
    vi.advanceTimersByTime(5_000)
    expect(store.size).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
    store.destroy()
  })

  it('clamps the automatic sweep interval to 1–60 seconds', async () => {
    vi.useFakeTimers({ now: 0 })
    const setSpy = vi.spyOn(globalThis, 'setInterval')
    const short = new MemoryRateLimitStore()
    await short.increment('a', 10)
    const long = new MemoryRateLimitStore()
    await long.increment('a', 3_600_000)
    expect(setSpy.mock.calls.map((call) => call[1])).toEqual([1_000, 60_000])
    short.destroy()
    long.destroy()
  })

  it('destroy releases the timer and forgets every key', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemoryRateLimitStore()
    await store.increment('a', 60_000)
    store.destroy()
    expect(vi.getTimerCount()).toBe(0)
    expect(store.size).toBe(0)
  })

  it('rejects a non-positive windowMs and a bad sweepIntervalMs', async () => {
    const store = new MemoryRateLimitStore()
    await expect(store.increment('a', 0)).rejects.toThrow(TypeError)
    await expect(store.increment('a', Number.NaN)).rejects.toThrow(TypeError)
    expect(() => new MemoryRateLimitStore({ sweepIntervalMs: 0 })).toThrow(TypeError)
  })
})
