import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { hitFrom as hit, limitedApp } from '../../test/rate-limit-app'
import {
  MemoryRateLimitStore,
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
} from './index'

const appWith = (options: RateLimitOptions) => limitedApp(options)

afterEach(() => {
  vi.useRealTimers()
})

describe('rateLimit: algorithm', () => {
  it('uses a fixed window by default', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith({ max: 2, windowMs: 1_000 })
    vi.setSystemTime(999)
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
    vi.setSystemTime(1_999)
    expect((await hit(app)).status).toBe(200)
  })

  it('sliding-window: a burst at the end of one window still counts at the start of the next', async () => {
    vi.useFakeTimers({ now: 999 })
    const app = appWith({ max: 4, windowMs: 1_000, algorithm: 'sliding-window' })
    for (let i = 0; i < 4; i++) expect((await hit(app)).status).toBe(200)
    vi.setSystemTime(1_000)
    const res = await hit(app)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
    vi.setSystemTime(1_500) // half the previous window left: floor(4 × 0.5) = 2 count
    expect((await hit(app)).status).toBe(200)
    const second = await hit(app)
    expect(second.status).toBe(200)
    expect(second.headers.get('ratelimit-remaining')).toBe('0')
    expect((await hit(app)).status).toBe(429)
  })

  it('sliding-window: rejected requests are not counted, so a client that keeps retrying gets back in', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith({ max: 2, windowMs: 1_000, algorithm: 'sliding-window' })
    await hit(app)
    await hit(app)
    for (let i = 0; i < 50; i++) expect((await hit(app)).status).toBe(429)
    vi.setSystemTime(2_000)
    expect((await hit(app)).status).toBe(200)
  })

  it('token-bucket: allows a burst of max, then one request per windowMs / max', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith({ max: 5, windowMs: 10_000, algorithm: 'token-bucket' })
    for (let i = 0; i < 5; i++) {
      const res = await hit(app)
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-remaining')).toBe(String(4 - i))
    }
    const rejected = await hit(app)
    expect(rejected.status).toBe(429)
    expect(rejected.headers.get('retry-after')).toBe('2')
    expect(rejected.headers.get('ratelimit-policy')).toBe('5;w=10')
    vi.setSystemTime(2_000)
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
  })

  it.each(['sliding-window', 'token-bucket'] as const)(
    '%s lets exactly 10 of 50 concurrent requests through',
    async (algorithm) => {
      const app = appWith({ max: 10, algorithm })
      const statuses = await Promise.all(Array.from({ length: 50 }, () => hit(app)))
      expect(statuses.filter((r) => r.status === 200)).toHaveLength(10)
      expect(statuses.filter((r) => r.status === 429)).toHaveLength(40)
    },
  )

  it('keeps two algorithms on one store and one key apart', async () => {
    const store = new MemoryRateLimitStore()
    const app = new Hono()
    app.use(rateLimit({ max: 1, store }))
    app.use(rateLimit({ max: 5, store, algorithm: 'token-bucket' }))
    app.get('/', (c) => c.text('ok'))
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
    store.destroy()
  })

  it('a fixed-window-only store still works for the default algorithm', async () => {
    const inner = new MemoryRateLimitStore()
    const legacy: RateLimitStore = { increment: (key, ms) => inner.increment(key, ms) }
    const app = appWith({ max: 1, store: legacy })
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
    inner.destroy()
  })

  it.each([
    ['sliding-window', /algorithm 'sliding-window' needs a store with slidingWindow/],
    ['token-bucket', /algorithm 'token-bucket' needs a store with tokenBucket/],
  ] as const)(
    'throws a TypeError at construction when the store cannot do %s',
    (algorithm, message) => {
      const legacy: RateLimitStore = { increment: async () => ({ count: 1, ttl: 1 }) }
      expect(() => rateLimit({ algorithm, store: legacy })).toThrow(TypeError)
      expect(() => rateLimit({ algorithm, store: legacy })).toThrow(message)
    },
  )

  it('rejects an unknown algorithm at construction', () => {
    expect(() => rateLimit({ algorithm: 'leaky-bucket' as never })).toThrow(
      /^rateLimit: "algorithm" must be one of 'fixed-window', 'sliding-window', 'token-bucket'/,
    )
  })

  it('rejects a token bucket whose max × windowMs is not a safe integer', () => {
    expect(() => rateLimit({ algorithm: 'token-bucket', max: 1e7, windowMs: 1e12 })).toThrow(
      /safe integer/,
    )
  })

  it('treats a store whose algorithm method throws as a store failure (503)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const broken: RateLimitStore = {
      increment: async () => ({ count: 1, ttl: 1 }),
      slidingWindow: async () => {
        throw new Error('down')
      },
    }
    const app = appWith({ algorithm: 'sliding-window', store: broken })
    expect((await hit(app)).status).toBe(503)
    vi.restoreAllMocks()
  })
})
