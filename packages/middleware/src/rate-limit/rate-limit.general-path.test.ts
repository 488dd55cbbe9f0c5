// The request path for every limiter that is not the usual one (request.ts, generalHandler): an
// async key, a remembered refusal with draft-8 headers, which answers count as failed for the
// refunds, what the sliding window and the token bucket give back, a cost above every max, and
// the answers a store's odd numbers give.

import { Context, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { heapOccurrences, longKey, newMarker } from '../../test/heap'
import { countingStore, hitFrom as hit, limitedApp } from '../../test/rate-limit-app'
import {
  MemoryRateLimitStore,
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
} from './index'

afterEach(() => {
  vi.useRealTimers()
})

const general = { skip: () => false }

describe('rateLimit: the general path', () => {
  it('awaits an async key: two keys, two counts', async () => {
    const app = limitedApp({
      ...general,
      max: 1,
      keyGenerator: async (c) => c.req.header('x-user') ?? 'anon',
    })
    const as = (user: string) => hit(app, undefined, '/', { 'x-user': user })
    expect((await as('ann')).status).toBe(200)
    expect((await as('bob')).status).toBe(200)
    expect((await as('ann')).status).toBe(429)
  })

  it.each([
    ['draft-6', 'ratelimit-remaining', '0'],
    ['draft-8', 'ratelimit', '"1-in-10sec"; r=0; t=10'],
  ] as const)(
    'answers a remembered refusal from the deny cache, %s headers',
    async (standardHeaders, header, value) => {
      vi.useFakeTimers({ now: 0 })
      const { store, calls } = countingStore()
      const app = limitedApp({ ...general, max: 1, windowMs: 10_000, store, standardHeaders })
      expect((await hit(app)).status).toBe(200)
      expect((await hit(app)).status).toBe(429)
      const cached = await hit(app)
      expect(cached.status).toBe(429)
      expect(cached.headers.get(header)).toBe(value)
      expect(cached.headers.get('retry-after')).toBe('10')
      expect(calls.count).toBe(2)
    },
  )

  it('skipSuccessfulRequests: a 400 is a failure (counted), a 399 a success (given back)', async () => {
    const app = new Hono()
    app.use(rateLimit({ max: 1, skipSuccessfulRequests: true, keyGenerator: () => 'k' }))
    app.get('/:status', (c) => c.body(null, Number(c.req.param('status')) as 200))
    const send = async (status: number) => (await app.request(`/${status}`)).status
    expect(await send(399)).toBe(399)
    expect(await send(399)).toBe(399)
    expect(await send(400)).toBe(400)
    expect(await send(399)).toBe(429)
  })

  it('skipFailedRequests: a handler that throws is a failure, given back', async () => {
    const app = new Hono()
    app.use(rateLimit({ max: 1, skipFailedRequests: true, keyGenerator: () => 'k' }))
    app.get('/throws', () => {
      throw new Error('handler broke')
    })
    app.get('/', (c) => c.text('ok'))
    // The handler's error becomes a 200 here, yet the request failed: not counted. (Refusals
    // keep their own answer.)
    app.onError((e, c) => (e instanceof HTTPException ? e.getResponse() : c.text('caught', 200)))
    expect((await app.request('/throws')).status).toBe(200)
    expect((await app.request('/throws')).status).toBe(200)
    expect((await app.request('/')).status).toBe(200)
    expect((await app.request('/')).status).toBe(429)
  })

  it.each(['sliding-window', 'token-bucket'] as const)(
    'skipFailedRequests, %s: a 429 recorded nothing, so nothing is given back',
    async (algorithm) => {
      const store = new MemoryRateLimitStore()
      const decrement = vi.spyOn(store, 'decrement')
      const app = limitedApp({ max: 2, algorithm, skipFailedRequests: true, store })
      expect((await hit(app)).status).toBe(200)
      expect((await hit(app)).status).toBe(200)
      for (let i = 0; i < 4; i++) expect((await hit(app)).status).toBe(429)
      expect(decrement).not.toHaveBeenCalled()
    },
  )

  it('a cost above every max is refused, and reports the room that is really left', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = limitedApp({
      max: 10,
      cost: (c) => Number(c.req.header('x-cost')),
      keyGenerator: () => 'k',
    })
    const send = (cost: number) => hit(app, undefined, '/', { 'x-cost': String(cost) })
    expect((await send(3)).headers.get('ratelimit-remaining')).toBe('7')
    const huge = await send(1_000_000)
    expect(huge.status).toBe(429)
    expect(huge.headers.get('ratelimit-remaining')).toBe('7')
    expect((await send(7)).status).toBe(200)
  })
})

describe("rateLimit: a store's odd numbers", () => {
  /** A store that answers every count with `info`. */
  const answering = (count: number, ttl: number): RateLimitStore => ({
    increment: async () => ({ count, ttl }),
  })

  it.each([
    ['the usual path', {}],
    ['the general path', general],
  ])(
    '%s: a ttl below zero resets in 0 s; a refusal retries after 1 s at least',
    async (_, extra) => {
      const passing = await hit(limitedApp({ max: 5, store: answering(1, -1_500), ...extra }))
      expect(passing.headers.get('ratelimit-reset')).toBe('0')
      const refused = await hit(limitedApp({ max: 5, store: answering(6, 0), ...extra }))
      expect(refused.status).toBe(429)
      expect(refused.headers.get('ratelimit-reset')).toBe('0')
      expect(refused.headers.get('retry-after')).toBe('1')
    },
  )

  it('a consume refusal whose limit ends now still says retry after 1 s', async () => {
    const store: RateLimitStore = {
      increment: async () => ({ count: 1, ttl: 1 }),
      consume: async () => ({ allowed: false, limits: [{ count: 2, ttl: 0 }], blockedMs: 0 }),
    }
    const res = await hit(limitedApp({ max: 1, cost: 1, store }))
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
  })
})

describe('rateLimit: the usual path fails as a promise', () => {
  it('a key function that throws is a rejected promise, never a synchronous throw', async () => {
    const mw = rateLimit({
      keyGenerator: () => {
        throw new Error('no key')
      },
    })
    const c = new Context(new Request('http://localhost/'))
    let result: unknown
    expect(() => {
      result = mw(c, async () => {})
    }).not.toThrow()
    await expect(result).rejects.toThrow('no key')
  })

  it('a refusal is a rejected promise too', async () => {
    const mw = rateLimit({ max: 1, keyGenerator: () => 'k' } satisfies RateLimitOptions)
    const c = () => new Context(new Request('http://localhost/'))
    await mw(c(), async () => {})
    let result: unknown
    expect(() => {
      result = mw(c(), async () => {})
    }).not.toThrow()
    await expect(result).rejects.toMatchObject({ status: 429 })
  })
})

describe('rateLimit: what each refusal is made of', () => {
  /** The app's answers with the Rejection's code beside the status. */
  function coded(options: RateLimitOptions) {
    const app = limitedApp(options)
    app.onError((e, c) =>
      e instanceof HTTPException
        ? c.text(`${(e as HTTPException & { code?: string }).code}`, e.status)
        : c.text(String(e), 500),
    )
    return async () => {
      const res = await hit(app)
      return `${res.status} ${await res.text()}`
    }
  }
  const down: RateLimitStore = {
    increment: async () => {
      throw new Error('down')
    },
  }

  it.each([
    ['the usual path', {}],
    ['the general path', general],
    ['draft-8', { standardHeaders: 'draft-8' as const }],
    ['consume', { cost: 1 }],
    ['consume, draft-8', { cost: 1, standardHeaders: 'draft-8' as const }],
  ])('%s: 429 rate_limited, from the store and from the deny cache', async (_, extra) => {
    const { store } = countingStore()
    const send = coded({ max: 1, store, ...extra })
    expect(await send()).toBe('200 ok')
    expect(await send()).toBe('429 rate_limited')
    expect(await send()).toBe('429 rate_limited')
  })

  it.each([
    ['the usual path', {}],
    ['the general path', general],
  ])('%s: 503 store_unavailable', async (_, extra) => {
    const send = coded({ store: down, onStoreError: () => {}, ...extra })
    expect(await send()).toBe('503 store_unavailable')
  })

  it('a cost(c) that is not a non-negative safe integer fails the request, naming cost(c)', async () => {
    for (const [cost, message] of [
      [1.5, 'TypeError: rateLimit: "cost(c)" must be a non-negative integer, got 1.5'],
      [2 ** 60, `TypeError: rateLimit: "cost(c)" must be at most 2^53 − 1, got ${2 ** 60}`],
    ] as const) {
      const send = coded({ cost: () => cost })
      expect(await send()).toBe(`500 ${message}`)
    }
  })
})

describe('rateLimit: a remembered refusal reports its first limit', () => {
  it('the limit that refused first, though a shorter one set how long it is remembered', async () => {
    vi.useFakeTimers({ now: 0 })
    const { store, calls } = countingStore()
    const app = limitedApp({
      limits: [
        { max: 3, windowMs: 1_000 },
        { max: 10, windowMs: 60_000 },
      ],
      cost: (c) => Number(c.req.header('x-cost')),
      store,
      keyGenerator: () => 'k',
    })
    const send = (cost: number) => hit(app, undefined, '/', { 'x-cost': String(cost) })
    for (const t of [0, 1_000, 2_000]) {
      vi.setSystemTime(t)
      expect((await send(3)).status).toBe(200)
    }
    // 9 of 10 in the minute, 3 of 3 in the second: 2 more overflow both. The second has no
    // unit left (remembered until its end); the minute has one left, yet its wait is longer.
    const refused = await send(2)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('ratelimit-limit')).toBe('10')
    expect(refused.headers.get('ratelimit-reset')).toBe('58')
    vi.setSystemTime(2_500)
    const cached = await send(2)
    expect(cached.status).toBe(429)
    expect(cached.headers.get('ratelimit-limit')).toBe('10')
    expect(cached.headers.get('ratelimit-reset')).toBe('58')
    expect(calls.count).toBe(4)
  })
})

describe('rateLimit: draft-8 without a deny cache', () => {
  it('holds no long key of a keyGenerator for its partition keys', async () => {
    const marker = newMarker()
    const app = limitedApp({
      max: 1,
      standardHeaders: 'draft-8',
      keyGenerator: (c) => longKey(marker, c.req.query('i') ?? ''),
    })
    for (let i = 0; i < 50; i++) expect((await hit(app, undefined, `/?i=${i}`)).status).toBe(200)
    expect(await heapOccurrences(() => marker + marker)).toBe(0)
  })
})
