import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryRateLimitStore, rateLimit } from './index'

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

describe('MemoryRateLimitStore: sliding window', () => {
  it('weights the previous window by the part of it still inside the last windowMs', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ now: () => now })
    for (let i = 1; i <= 10; i++) expect((await store.slidingWindow('k', 1_000, 10)).count).toBe(i)
    expect(await store.slidingWindow('k', 1_000, 10)).toEqual({ count: 11, ttl: 1_000 })
    now = 1_250 // 75% of the previous window still counts: floor(10 × 0.75) = 7
    expect(await store.slidingWindow('k', 1_000, 10)).toEqual({ count: 8, ttl: 750 })
    expect((await store.slidingWindow('k', 1_000, 10)).count).toBe(9)
    expect((await store.slidingWindow('k', 1_000, 10)).count).toBe(10)
    expect((await store.slidingWindow('k', 1_000, 10)).count).toBe(11)
    now = 1_900 // 10% of the previous window: floor(10 × 0.1) = 1, plus 3 in this one
    expect((await store.slidingWindow('k', 1_000, 10)).count).toBe(5)
    now = 3_000 // two windows on: nothing left
    expect((await store.slidingWindow('k', 1_000, 10)).count).toBe(1)
    store.destroy()
  })

  it('blocks the burst at a window boundary that a fixed window lets through', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ now: () => now })
    await store.increment('f', 1_000) // the fixed window runs from 0 to 1,000
    now = 999
    for (let i = 0; i < 5; i++) await store.slidingWindow('s', 1_000, 5)
    for (let i = 0; i < 4; i++) await store.increment('f', 1_000)
    now = 1_000
    // Fixed: a fresh window, five more at once (ten within 2 ms). Sliding: still full.
    expect((await store.increment('f', 1_000)).count).toBe(1)
    expect((await store.slidingWindow('s', 1_000, 5)).count).toBe(6)
    store.destroy()
  })
})

describe('MemoryRateLimitStore: token bucket', () => {
  it('refills one token every windowMs / max and reports the wait for the next one', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ now: () => now })
    expect(await store.tokenBucket('k', 1_000, 4)).toEqual({ count: 1, ttl: 250 })
    for (let i = 0; i < 3; i++) await store.tokenBucket('k', 1_000, 4)
    expect(await store.tokenBucket('k', 1_000, 4)).toEqual({ count: 5, ttl: 250 })
    now = 100
    expect(await store.tokenBucket('k', 1_000, 4)).toEqual({ count: 5, ttl: 150 })
    now = 250
    expect(await store.tokenBucket('k', 1_000, 4)).toEqual({ count: 4, ttl: 250 })
    now = 10_000 // long idle: full again, never fuller
    for (let i = 1; i <= 4; i++) expect((await store.tokenBucket('k', 1_000, 4)).count).toBe(i)
    expect((await store.tokenBucket('k', 1_000, 4)).count).toBe(5)
    store.destroy()
  })

  it('keeps exact arithmetic for limits that do not divide the window', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ now: () => now })
    for (let i = 0; i < 3; i++) await store.tokenBucket('k', 1_000, 3)
    // One token per 333.33 ms: not yet at 333 ms, exactly there at 334 ms (rounded up).
    now = 333
    expect((await store.tokenBucket('k', 1_000, 3)).count).toBe(4)
    now = 334
    expect((await store.tokenBucket('k', 1_000, 3)).count).toBe(3)
    store.destroy()
  })

  it('rejects a max whose product with windowMs is not a safe integer', async () => {
    const store = new MemoryRateLimitStore()
    await expect(store.tokenBucket('k', 1e12, 1e6)).rejects.toThrow(/safe integer/)
    await expect(store.slidingWindow('k', 1_000, 0)).rejects.toThrow(TypeError)
  })
})

describe('MemoryRateLimitStore: bounded keys', () => {
  it('never holds more than maxKeys keys, however many distinct keys arrive in one window', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemoryRateLimitStore({ maxKeys: 1_000 })
    for (let i = 0; i < 50_000; i++) await store.increment(`attacker-${i}`, 60_000)
    for (let i = 0; i < 50_000; i++) await store.slidingWindow(`s-${i}`, 60_000, 10)
    for (let i = 0; i < 50_000; i++) await store.tokenBucket(`t-${i}`, 60_000, 10)
    // 1,000 own keys plus one shared overflow counter per algorithm.
    expect(store.size).toBeLessThanOrEqual(1_003)
    store.destroy()
  })

  it('holds at most 100,000 keys by default', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemoryRateLimitStore()
    for (let i = 0; i < 150_000; i++) await store.increment(`k-${i}`, 60_000)
    expect(store.size).toBeLessThanOrEqual(100_001)
    store.destroy()
  })

  it('keeps a victim counter when a flood of new keys fills the store: no reset by eviction', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ now: () => now, maxKeys: 100 })
    for (let i = 0; i < 5; i++) await store.increment('victim-login', 60_000)
    for (let i = 0; i < 10_000; i++) await store.increment(`junk-${i}`, 60_000)
    now = 30_000
    expect((await store.increment('victim-login', 60_000)).count).toBe(6)
  })

  it('counts new keys that find the store full together, so they are limited, not exempt', async () => {
    const store = new MemoryRateLimitStore({ now: () => 0, maxKeys: 2 })
    await store.increment('a', 60_000)
    await store.increment('b', 60_000)
    expect((await store.increment('c', 60_000)).count).toBe(1)
    expect((await store.increment('d', 60_000)).count).toBe(2)
    expect((await store.increment('e', 60_000)).count).toBe(3)
    expect((await store.increment('a', 60_000)).count).toBe(2)
  })

  it('gives keys their own counter again once expired ones are swept to make room', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({
      now: () => now,
      maxKeys: 2,
      sweepIntervalMs: 3_600_000,
    })
    await store.increment('a', 1_000)
    await store.increment('b', 1_000)
    now = 1_000
    expect((await store.increment('c', 1_000)).count).toBe(1)
    expect((await store.increment('d', 1_000)).count).toBe(1)
    expect(store.size).toBe(2)
    store.destroy()
  })

  it('scans the full store for room at most once a second', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({
      now: () => now,
      maxKeys: 2,
      sweepIntervalMs: 3_600_000,
    })
    await store.increment('a', 10)
    await store.increment('b', 60_000)
    await store.increment('c', 60_000) // full, nothing expired: overflow, next scan at 1 s
    now = 500 // 'a' has expired, but the store does not scan again yet
    expect((await store.increment('d', 60_000)).count).toBe(2)
    now = 1_000
    expect((await store.increment('e', 60_000)).count).toBe(1)
    store.destroy()
  })

  it('rejects a maxKeys that is not a positive integer', () => {
    expect(() => new MemoryRateLimitStore({ maxKeys: 0 })).toThrow(
      /^MemoryRateLimitStore: "maxKeys"/,
    )
    expect(() => new MemoryRateLimitStore({ maxKeys: 1.5 })).toThrow(TypeError)
  })
})

describe('MemoryRateLimitStore: subclasses', () => {
  it('a subclass that overrides increment is counted through its own method by rateLimit', async () => {
    const keys: string[] = []
    class Audited extends MemoryRateLimitStore {
      override async increment(key: string, windowMs: number) {
        keys.push(key)
        return super.increment(key, windowMs)
      }
    }
    const app = new Hono()
    app.use(rateLimit({ max: 2, store: new Audited() }))
    app.get('/', (c) => c.text('ok'))
    const env = { incoming: { socket: { remoteAddress: '203.0.113.9' } } }
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push((await app.request('/', {}, env)).status)
    expect(statuses).toEqual([200, 200, 429])
    expect(keys).toEqual(['203.0.113.9', '203.0.113.9', '203.0.113.9'])
  })

  it('rateLimit on the default store counts a key long enough to be hashed first', async () => {
    const app = new Hono()
    const long = 'k'.repeat(5000)
    app.use(rateLimit({ max: 1, keyGenerator: () => long }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(200)
    const refused = await app.request('/')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
  })
})
