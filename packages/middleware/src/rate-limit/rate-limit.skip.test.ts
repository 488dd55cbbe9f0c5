import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fromSocket } from '../../test/rate-limit-app'
import {
  MemoryRateLimitStore,
  type RateLimitAlgorithm,
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
} from './index'

function appWith(options: RateLimitOptions) {
  const app = new Hono()
  app.use(rateLimit(options))
  app.get('/', (c) => c.text('ok'))
  app.get('/missing', (c) => c.text('nope', 404))
  app.get('/throws', () => {
    throw new HTTPException(401, { message: 'no' })
  })
  app.get('/crash', () => {
    throw new Error('boom')
  })
  return app
}

const hit = (app: Hono, path = '/', headers: Record<string, string> = {}) =>
  app.request(path, { headers }, fromSocket('203.0.113.9'))

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const ALGORITHMS: RateLimitAlgorithm[] = ['fixed-window', 'sliding-window', 'token-bucket']

describe('rateLimit: skip', () => {
  it('neither counts nor limits a skipped request, and sends it no headers', async () => {
    const app = appWith({ max: 1, skip: (c) => c.req.header('x-internal') === '1' })
    for (let i = 0; i < 5; i++) {
      const res = await hit(app, '/', { 'x-internal': '1' })
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBeNull()
    }
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
    expect((await hit(app, '/', { 'x-internal': '1' })).status).toBe(200)
  })

  it('accepts an async skip', async () => {
    const app = appWith({ max: 1, skip: async () => true })
    for (let i = 0; i < 3; i++) expect((await hit(app)).status).toBe(200)
  })

  it('awaits an async skip that resolves false: the request is counted and limited', async () => {
    const app = appWith({ max: 1, skip: async () => false })
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
  })

  it('rejects a skip that is not a function', () => {
    expect(() => rateLimit({ skip: true as never })).toThrow(
      /^rateLimit: "skip" must be a function/,
    )
  })
})

describe('rateLimit: skipFailedRequests', () => {
  it.each(ALGORITHMS)(
    '%s: failed responses (4xx, 5xx, thrown errors) give their count back',
    async (algorithm) => {
      vi.spyOn(console, 'error').mockImplementation(() => {})
      const app = appWith({ max: 2, algorithm, skipFailedRequests: true })
      for (let i = 0; i < 3; i++) {
        expect((await hit(app, '/missing')).status).toBe(404)
        expect((await hit(app, '/throws')).status).toBe(401)
        expect((await hit(app, '/crash')).status).toBe(500)
      }
      expect((await hit(app)).status).toBe(200)
      expect((await hit(app)).status).toBe(200)
      expect((await hit(app)).status).toBe(429)
    },
  )

  it('fixed window: a 429 is a failed request too, so a client that backs off is not locked out', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemoryRateLimitStore()
    const app = appWith({ max: 1, skipFailedRequests: true, store })
    await hit(app)
    for (let i = 0; i < 5; i++) expect((await hit(app)).status).toBe(429)
    expect((await store.increment('203.0.113.9', 60_000)).count).toBe(2)
    store.destroy()
  })

  it('still counts successful requests', async () => {
    const app = appWith({ max: 2, skipFailedRequests: true })
    await hit(app)
    await hit(app)
    expect((await hit(app)).status).toBe(429)
  })
})

describe('rateLimit: skipSuccessfulRequests', () => {
  it.each(ALGORITHMS)(
    '%s: only failures count (a login limiter that forgives successes)',
    async (algorithm) => {
      const app = appWith({ max: 2, algorithm, skipSuccessfulRequests: true })
      for (let i = 0; i < 5; i++) expect((await hit(app)).status).toBe(200)
      expect((await hit(app, '/missing')).status).toBe(404)
      expect((await hit(app, '/missing')).status).toBe(404)
      expect((await hit(app, '/missing')).status).toBe(429)
      expect((await hit(app)).status).toBe(429)
    },
  )

  it('does not refund a request whose window ended before it finished', async () => {
    vi.useFakeTimers({ now: 0 })
    const inner = new MemoryRateLimitStore()
    const decrement = vi.fn(inner.decrement.bind(inner))
    const store: RateLimitStore = { increment: inner.increment.bind(inner), decrement }
    let handlerTakes = 0
    const app = new Hono()
    app.use(rateLimit({ max: 5, windowMs: 1_000, skipSuccessfulRequests: true, store }))
    app.get('/', (c) => {
      vi.setSystemTime(Date.now() + handlerTakes)
      return c.text('ok')
    })
    const request = () => app.request('/', {}, fromSocket('203.0.113.9'))
    handlerTakes = 500 // counted at 0, done at 500: inside the window [0, 1000), refunded
    await request()
    expect(decrement).toHaveBeenCalledTimes(1)
    vi.setSystemTime(900)
    handlerTakes = 200 // counted at 900, done at 1100: the window is gone, no refund
    await request()
    expect(decrement).toHaveBeenCalledTimes(1)
    // The refund would have landed in the next window and handed out a free request.
    expect((await inner.increment('203.0.113.9', 1_000)).count).toBe(1)
    inner.destroy()
  })

  it('reports a failing refund through onStoreError and still answers', async () => {
    const onStoreError = vi.fn()
    const inner = new MemoryRateLimitStore()
    const store: RateLimitStore = {
      increment: (key, ms) => inner.increment(key, ms),
      decrement: async () => {
        throw new Error('refund failed')
      },
    }
    const app = appWith({ skipSuccessfulRequests: true, store, onStoreError })
    expect((await hit(app)).status).toBe(200)
    expect(onStoreError).toHaveBeenCalledTimes(1)
    inner.destroy()
  })

  it.each([
    ['skipFailedRequests', { skipFailedRequests: true }],
    ['skipSuccessfulRequests', { skipSuccessfulRequests: true }],
  ])('throws at construction when %s meets a store without decrement', (name, flags) => {
    const legacy: RateLimitStore = { increment: async () => ({ count: 1, ttl: 1 }) }
    expect(() => rateLimit({ ...flags, store: legacy })).toThrow(
      new RegExp(`^rateLimit: ${name} needs a store with decrement`),
    )
  })
})

describe('rateLimit: max as a function', () => {
  it('takes the limit from the request, sync or async', async () => {
    const app = appWith({
      max: async (c) => (c.req.header('x-plan') === 'pro' ? 3 : 1),
      keyGenerator: (c) => c.req.header('x-user') ?? 'anon',
    })
    expect((await hit(app, '/', { 'x-user': 'free' })).status).toBe(200)
    expect((await hit(app, '/', { 'x-user': 'free' })).status).toBe(429)
    const pro = { 'x-user': 'pro', 'x-plan': 'pro' }
    for (let i = 0; i < 3; i++) {
      const res = await hit(app, '/', pro)
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('3')
      expect(res.headers.get('ratelimit-policy')).toBe('3;w=60')
    }
    expect((await hit(app, '/', pro)).status).toBe(429)
  })

  it('works with the sliding window and the token bucket', async () => {
    for (const algorithm of ['sliding-window', 'token-bucket'] as const) {
      const app = appWith({ max: () => 2, algorithm })
      expect((await hit(app)).status).toBe(200)
      expect((await hit(app)).status).toBe(200)
      expect((await hit(app)).status).toBe(429)
    }
  })

  it.each([0, -1, 1.5, Number.NaN, '5', undefined])(
    'fails the request (500, not a silent pass) when max(c) returns %s',
    async (bad) => {
      const errors: unknown[] = []
      const app = appWith({ max: () => bad as number })
      app.onError((error, c) => {
        errors.push(error)
        return c.text('error', 500)
      })
      expect((await hit(app)).status).toBe(500)
      expect(String(errors[0])).toMatch(/rateLimit: max\(c\) must be a positive integer/)
    },
  )
})
