import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { serveOnLoopback } from '../../test/node-server'
import {
  MemoryRateLimitStore,
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
} from './index'

/** `env` as @hono/node-server passes it: the socket's address is the connection address. */
const fromSocket = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } })

function appWith(options: RateLimitOptions = {}) {
  const app = new Hono()
  app.use(rateLimit(options))
  app.get('/', (c) => c.text('ok'))
  app.get('/boom', () => {
    throw new Error('boom')
  })
  return app
}

const hit = (app: Hono, ip = '203.0.113.9', init: RequestInit = {}, path = '/') =>
  app.request(path, init, fromSocket(ip))

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('rateLimit: counting', () => {
  it('lets request number max pass and rejects max + 1 with 429 and message', async () => {
    const app = appWith({ max: 3 })
    for (let i = 0; i < 3; i++) expect((await hit(app)).status).toBe(200)
    const res = await hit(app)
    expect(res.status).toBe(429)
    expect(await res.text()).toBe('Too many requests')
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
  })

  it('allows 60 requests per minute by default', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith()
    for (let i = 0; i < 60; i++) expect((await hit(app)).status).toBe(200)
    const res = await hit(app)
    expect(res.status).toBe(429)
    expect(res.headers.get('ratelimit-policy')).toBe('60;w=60')
    vi.setSystemTime(60_000)
    expect((await hit(app)).status).toBe(200)
  })

  it('lets exactly 10 of 50 concurrent requests through against max: 10', async () => {
    const app = appWith({ max: 10 })
    const statuses = await Promise.all(Array.from({ length: 50 }, () => hit(app)))
    const counts = statuses.reduce<Record<number, number>>((acc, r) => {
      acc[r.status] = (acc[r.status] ?? 0) + 1
      return acc
    }, {})
    expect(counts).toEqual({ 200: 10, 429: 40 })
  })

  it('starts a new window after windowMs', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith({ max: 1, windowMs: 1000 })
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
    vi.setSystemTime(999)
    expect((await hit(app)).status).toBe(429)
    vi.setSystemTime(1000)
    expect((await hit(app)).status).toBe(200)
  })

  it('refuses through a rejected promise, not a synchronous throw, when called directly', async () => {
    // The usual limiter runs without an async frame; a caller that chains on its promise (a
    // wrapper, a custom composition) must still see the 429 as a rejection.
    const limiter = rateLimit({ max: 1, keyGenerator: () => 'k' })
    const seen: string[] = []
    const app = new Hono()
    app.use(async (c, next) => {
      let answer: Promise<unknown> | undefined
      try {
        answer = limiter(c, next) as Promise<unknown>
      } catch {
        seen.push('threw')
        return c.text('threw', 500)
      }
      seen.push(answer instanceof Promise ? 'promise' : 'other')
      await answer.then(
        () => seen.push('passed'),
        (err: { getResponse?: () => Response }) => {
          seen.push('rejected')
          c.res = (err.getResponse as () => Response)()
        },
      )
    })
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(200)
    expect((await app.request('/')).status).toBe(429)
    expect(seen).toEqual(['promise', 'passed', 'promise', 'rejected'])
  })

  it('uses a custom message', async () => {
    const app = appWith({ max: 1, message: 'Slow down' })
    await hit(app)
    expect(await (await hit(app)).text()).toBe('Slow down')
  })

  it('counts per keyGenerator key, which may be async', async () => {
    const app = appWith({ max: 1, keyGenerator: async (c) => c.req.header('x-user') ?? 'anon' })
    expect((await app.request('/', { headers: { 'x-user': 'a' } })).status).toBe(200)
    expect((await app.request('/', { headers: { 'x-user': 'b' } })).status).toBe(200)
    expect((await app.request('/', { headers: { 'x-user': 'a' } })).status).toBe(429)
  })

  it('keeps separate middleware instances on separate default stores', async () => {
    const app = new Hono()
    app.use('/a', rateLimit({ max: 1 }))
    app.use('/b', rateLimit({ max: 1 }))
    app.get('/a', (c) => c.text('a'))
    app.get('/b', (c) => c.text('b'))
    expect((await hit(app, '1.2.3.4', {}, '/a')).status).toBe(200)
    expect((await hit(app, '1.2.3.4', {}, '/b')).status).toBe(200)
  })

  it('shares counts through a store passed in, and reset() forgets a key', async () => {
    const store = new MemoryRateLimitStore()
    const app = appWith({ max: 1, store })
    expect((await hit(app, '10.0.0.1')).status).toBe(200)
    expect((await hit(app, '10.0.0.1')).status).toBe(429)
    await store.reset('10.0.0.1')
    expect((await hit(app, '10.0.0.1')).status).toBe(200)
    store.destroy()
  })

  it('does not run the handler for a rejected request', async () => {
    const handler = vi.fn((c) => c.text('ok'))
    const app = new Hono()
    app.use(rateLimit({ max: 1 }))
    app.get('/', handler)
    await hit(app)
    await hit(app)
    expect(handler).toHaveBeenCalledTimes(1)
  })
})

describe('rateLimit: headers', () => {
  it('sends the draft-6 headers on every passing response', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith({ max: 5, windowMs: 30_000 })
    const first = await hit(app)
    expect(
      Object.fromEntries([...first.headers].filter(([k]) => k.startsWith('ratelimit'))),
    ).toEqual({
      'ratelimit-limit': '5',
      'ratelimit-remaining': '4',
      'ratelimit-reset': '30',
      'ratelimit-policy': '5;w=30',
    })
    vi.setSystemTime(10_500)
    const second = await hit(app)
    expect(second.headers.get('ratelimit-remaining')).toBe('3')
    expect(second.headers.get('ratelimit-reset')).toBe('20')
  })

  it('sends Retry-After in seconds and Remaining 0 on a 429', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith({ max: 1, windowMs: 90_000 })
    await hit(app)
    vi.setSystemTime(30_000)
    const res = await hit(app)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('60')
    expect(res.headers.get('ratelimit-remaining')).toBe('0')
    expect(res.headers.get('ratelimit-reset')).toBe('60')
    expect(res.headers.get('ratelimit-limit')).toBe('1')
  })

  it('rounds a sub-second window up in the policy and never sends Retry-After: 0', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith({ max: 1, windowMs: 500 })
    expect((await hit(app)).headers.get('ratelimit-policy')).toBe('1;w=1')
    vi.setSystemTime(499)
    expect((await hit(app)).headers.get('retry-after')).toBe('1')
  })

  it('adds the headers to an error response from the handler', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const app = appWith({ max: 5 })
    const res = await hit(app, '1.1.1.1', {}, '/boom')
    expect(res.status).toBe(500)
    expect(res.headers.get('ratelimit-remaining')).toBe('4')
  })

  it('adds the headers to a Response the handler built itself', async () => {
    const app = new Hono()
    app.use(rateLimit({ max: 2 }))
    app.get('/', () => new Response('raw', { headers: { 'x-own': '1' } }))
    const res = await hit(app)
    expect(res.headers.get('ratelimit-limit')).toBe('2')
    expect(res.headers.get('x-own')).toBe('1')
  })

  it("writes the headers into the handler's Response in place, without rebuilding it", async () => {
    const app = new Hono()
    const own = new Response('raw')
    let seen: Response | undefined
    app.use(async (c, next) => {
      await next()
      seen = c.res
    })
    app.use(rateLimit({ max: 2 }))
    app.get('/', () => own)
    const res = await hit(app)
    expect(seen).toBe(own)
    expect(res.headers.get('ratelimit-remaining')).toBe('1')
    expect(await res.text()).toBe('raw')
  })

  it('adds the headers to a response whose headers are immutable', async () => {
    const app = new Hono()
    app.use(rateLimit({ max: 2 }))
    app.get('/', () => Response.redirect('https://example.com/next', 302))
    const res = await hit(app)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('https://example.com/next')
    expect(res.headers.get('ratelimit-limit')).toBe('2')
  })
})

describe('rateLimit on @hono/node-server: errors inside it', () => {
  it('a synchronous throw of a layer inside and a throwing handler reach onError, and the answer has the headers', async () => {
    const app = new Hono()
    app.onError((err, c) => c.json({ error: err.message }, 500))
    app.use(rateLimit({ max: 10, keyGenerator: () => 'k' }))
    // Not async, as the usual path is not: Hono's compose must still hand the throw to onError.
    app.use('/sync/*', () => {
      throw new Error('sync layer')
    })
    app.get('/handler/*', () => {
      throw new Error('handler')
    })
    const served = await serveOnLoopback(app)
    try {
      for (const [path, error] of [
        ['/sync/x', 'sync layer'],
        ['/handler/x', 'handler'],
      ]) {
        const res = await fetch(`${served.base}${path}`)
        expect(res.status).toBe(500)
        expect(await res.json()).toEqual({ error })
        expect(res.headers.get('ratelimit-limit')).toBe('10')
        expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d$/)
        expect(res.headers.get('ratelimit-reset')).toMatch(/^\d+$/)
        expect(res.headers.get('ratelimit-policy')).toBe('10;w=60')
      }
    } finally {
      await served.close()
    }
  })
})

describe('rateLimit on @hono/node-server: the general path writes the same draft-6 headers', () => {
  it('cost 3 and two limits, into the lightweight response and over a handler that set its own RateLimit headers', async () => {
    const app = new Hono()
    // A plain c.text() answer keeps node-server's header record (the record path); one with its
    // own headers is a standard Response (the Headers path). Both must carry the same fields.
    const handler = (c: import('hono').Context) =>
      c.req.query('own') === undefined
        ? c.text('ok')
        : c.text('ok', 200, { 'RateLimit-Remaining': 'mine', 'X-Kept': 'yes' })
    app.use('/cost/*', rateLimit({ max: 10, cost: () => 3, keyGenerator: () => 'k' }))
    app.use(
      '/two/*',
      rateLimit({
        limits: [
          { max: 5, windowMs: 1_000 },
          { max: 100, windowMs: 3_600_000 },
        ],
        keyGenerator: () => 'k',
      }),
    )
    app.get('/cost/x', handler)
    app.get('/two/x', handler)
    const served = await serveOnLoopback(app)
    try {
      const header = (res: Response) =>
        Object.fromEntries(
          [...res.headers].filter(([name]) => name.startsWith('ratelimit') || name === 'x-kept'),
        )
      // path, query, then the fields: limit, remaining, reset, policy.
      const cases = [
        ['/cost/x', '', ['10', '7', '60', '10;w=60']],
        ['/two/x', '', ['5', '4', '1', '5;w=1, 100;w=3600']],
        ['/cost/x', '?own', ['10', '4', '60', '10;w=60']],
        ['/two/x', '?own', ['5', '3', '1', '5;w=1, 100;w=3600']],
      ] as const
      for (const [path, own, [limit, remaining, reset, policy]] of cases) {
        const res = await fetch(`${served.base}${path}${own}`)
        expect(res.status).toBe(200)
        expect(header(res)).toEqual({
          'ratelimit-limit': limit,
          'ratelimit-remaining': remaining,
          'ratelimit-reset': reset,
          'ratelimit-policy': policy,
          ...(own ? { 'x-kept': 'yes' } : {}),
        })
      }
    } finally {
      await served.close()
    }
  })
})

describe('rateLimit: client keys and spoofing', () => {
  it('ignores X-Forwarded-For when the runtime exposes the connection address', async () => {
    const app = appWith({ max: 2 })
    for (let i = 0; i < 5; i++) {
      const res = await hit(app, '198.51.100.1', { headers: { 'X-Forwarded-For': `10.0.0.${i}` } })
      expect(res.status).toBe(i < 2 ? 200 : 429)
    }
  })

  it('without a connection address, keys on the right-most X-Forwarded-For entry only', async () => {
    const app = appWith({ max: 2 })
    for (let i = 0; i < 5; i++) {
      // The client controls everything left of what the nearest proxy appended.
      const res = await app.request('/', {
        headers: { 'X-Forwarded-For': `6.6.6.${i}, 203.0.113.50` },
      })
      expect(res.status).toBe(i < 2 ? 200 : 429)
    }
    const other = await app.request('/', { headers: { 'X-Forwarded-For': '203.0.113.51' } })
    expect(other.status).toBe(200)
  })

  it('counts an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    const app = appWith({ max: 1 })
    expect((await hit(app, '::ffff:192.0.2.1')).status).toBe(200)
    expect((await hit(app, '192.0.2.1')).status).toBe(429)
  })

  it('keys IPv6 clients by /56, so rotating the interface id or the /64 does not help', async () => {
    const app = appWith({ max: 2 })
    const statuses = []
    for (let i = 1; i <= 4; i++) statuses.push((await hit(app, `2001:db8:1:${i}::${i}`)).status)
    expect(statuses).toEqual([200, 200, 429, 429])
    expect((await hit(app, '2001:db8:1:100::1')).status).toBe(200)
    expect((await hit(app, '2001:DB8:1:2:0:0:0:99')).status).toBe(429)
  })

  it('limits requests without any address together under one key instead of exempting them', async () => {
    const app = appWith({ max: 1 })
    expect((await app.request('/')).status).toBe(200)
    expect((await app.request('/', { headers: { 'X-Forwarded-For': 'garbage' } })).status).toBe(429)
  })
})

describe('rateLimit: store failures', () => {
  const broken: RateLimitStore = {
    increment: async () => {
      throw new Error('connection refused')
    },
  }

  it('fails closed with 503 by default and warns once per outage', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const app = appWith({ store: broken })
    for (let i = 0; i < 3; i++) {
      const res = await hit(app)
      expect(res.status).toBe(503)
      expect(await res.text()).toBe('Rate limit store unavailable')
    }
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^rateLimit: store failed.*connection refused/)
  })

  it('lets requests through with failOpen: true, without rate-limit headers', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const app = appWith({ store: broken, failOpen: true })
    const res = await hit(app)
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit-limit')).toBeNull()
  })

  it('warns again after the store recovered and failed anew', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    let down = true
    const memory = new MemoryRateLimitStore()
    const flaky: RateLimitStore = {
      increment: (key, ms) =>
        down ? Promise.reject(new Error('down')) : memory.increment(key, ms),
    }
    const app = appWith({ store: flaky, failOpen: true })
    await hit(app)
    await hit(app)
    down = false
    await hit(app)
    down = true
    await hit(app)
    expect(warn).toHaveBeenCalledTimes(2)
    memory.destroy()
  })

  it('calls onStoreError for every failure instead of warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const onStoreError = vi.fn()
    const app = appWith({ store: broken, onStoreError })
    await hit(app)
    await hit(app)
    expect(onStoreError).toHaveBeenCalledTimes(2)
    expect(onStoreError.mock.calls[0]?.[0]).toBeInstanceOf(Error)
    expect(warn).not.toHaveBeenCalled()
  })

  it('survives an onStoreError hook that throws', async () => {
    const app = appWith({
      store: broken,
      onStoreError: () => {
        throw new Error('hook broke')
      },
    })
    expect((await hit(app)).status).toBe(503)
  })

  it.each([
    [
      'a synchronous throw',
      () => {
        throw new Error('sync')
      },
    ],
    ['a malformed answer', async () => ({ count: Number.NaN, ttl: 1 })],
    ['no answer', async () => undefined],
  ])('treats %s from the store as a store failure', async (_, increment) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const app = appWith({ store: { increment } as unknown as RateLimitStore })
    expect((await hit(app)).status).toBe(503)
  })
})

describe('rateLimit: options', () => {
  it.each([
    ['max 0', { max: 0 }, /"max" must be a positive integer/],
    ['a fractional max', { max: 1.5 }, /"max"/],
    ['a string windowMs', { windowMs: '60s' }, /"windowMs"/],
    ['an empty message', { message: '' }, /"message"/],
    ['a store without increment', { store: {} }, /"store"/],
    ['a non-function keyGenerator', { keyGenerator: 'ip' }, /"keyGenerator"/],
    ['a non-boolean failOpen', { failOpen: 'yes' }, /"failOpen"/],
    ['a typo', { window: 1000 }, /unknown option "window"/],
  ])('throws a TypeError at construction for %s', (_, options, message) => {
    expect(() => rateLimit(options as unknown as RateLimitOptions)).toThrow(TypeError)
    expect(() => rateLimit(options as unknown as RateLimitOptions)).toThrow(message)
  })

  it('starts no timer at construction', () => {
    const spy = vi.spyOn(globalThis, 'setInterval')
    rateLimit()
    rateLimit({ store: new MemoryRateLimitStore() })
    expect(spy).not.toHaveBeenCalled()
  })
})
