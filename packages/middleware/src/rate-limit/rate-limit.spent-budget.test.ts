/**
 * A spent budget refuses every request, a free one included; the deny cache remembers only
 * refusals nothing could pass, and forgets a key its store resets; costs and limits stay within
 * what every store can count (2^53 − 1).
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { forgetRefusals } from '../internal/stores/deny-caches'
import {
  MemoryRateLimitStore,
  type RateLimitAlgorithm,
  type RateLimitStore,
  rateLimit,
} from './index'

/** An app limited by `rateLimit(options)` whose cost is the `x-cost` header (absent: 1). */
function costApp(options: Parameters<typeof rateLimit>[0]) {
  const app = new Hono()
  app.use(
    rateLimit({
      keyGenerator: () => 'k',
      cost: (c) => Number(c.req.header('x-cost') ?? 1),
      ...options,
    }),
  )
  app.get('/', (c) => c.text('ok'))
  return (cost: number) => app.request('/', { headers: { 'x-cost': String(cost) } })
}

/** The memory store behind a plain object, so rateLimit turns its deny cache on by default. */
function sharedLike() {
  const inner = new MemoryRateLimitStore()
  let calls = 0
  const store: RateLimitStore = {
    increment: (k, w) => {
      calls++
      return inner.increment(k, w)
    },
    tokenBucket: (k, w, m) => inner.tokenBucket(k, w, m),
    consume: (k, r) => {
      calls++
      return inner.consume(k, r)
    },
    async reset(k) {
      await inner.reset(k)
      await forgetRefusals(store, k)
    },
  }
  return { store, inner, calls: () => calls }
}

describe('rateLimit: a spent budget', () => {
  for (const algorithm of ['fixed-window', 'sliding-window', 'token-bucket'] as const) {
    it(`refuses a free request (cost 0) once the budget is spent (${algorithm})`, async () => {
      const hit = costApp({ max: 20, windowMs: 60_000, algorithm })
      // Free while units are left: a cost-0 request reads, and passes.
      expect((await hit(0)).status).toBe(200)
      expect((await hit(20)).status).toBe(200)
      const res = await hit(0)
      expect(res.status).toBe(429)
      expect(res.headers.get('RateLimit-Remaining')).toBe('0')
      expect(Number(res.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1)
      expect((await hit(1)).status).toBe(429)
    })
  }

  it('refuses a free request with several limits when any one is spent', async () => {
    const app = new Hono()
    app.use(
      rateLimit({
        keyGenerator: () => 'k',
        limits: [
          { max: 2, windowMs: 1_000 },
          { max: 100, windowMs: 60_000 },
        ],
        cost: (c) => Number(c.req.header('x-cost')),
      }),
    )
    app.get('/', (c) => c.text('ok'))
    const hit = (cost: number) => app.request('/', { headers: { 'x-cost': String(cost) } })
    expect((await hit(2)).status).toBe(200)
    expect((await hit(0)).status).toBe(429)
  })

  it('counts a static cost: 0 as a read that a spent budget refuses too', async () => {
    const store = new MemoryRateLimitStore()
    await store.consume('k', {
      algorithm: 'fixed-window',
      limits: [{ max: 3, windowMs: 60_000 }],
      cost: 3,
    })
    const app = new Hono()
    app.use(rateLimit({ max: 3, windowMs: 60_000, cost: 0, store, keyGenerator: () => 'k' }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(429)
  })
})

describe('rateLimit: the deny cache', () => {
  it('does not keep a fixed-window refusal of a costly request while a cheaper one can pass', async () => {
    const { store } = sharedLike()
    const hit = costApp({ max: 10, windowMs: 60_000, store })
    expect((await hit(7)).status).toBe(200)
    expect((await hit(5)).status).toBe(429)
    // 3 units are left: a request for 3 passes, from the store, not refused from the cache.
    expect((await hit(3)).status).toBe(200)
    expect((await hit(1)).status).toBe(429)
  })

  it('keeps a refusal nothing can pass, and answers it without the store', async () => {
    const { store, calls } = sharedLike()
    const hit = costApp({ max: 10, windowMs: 60_000, store })
    expect((await hit(10)).status).toBe(200)
    expect((await hit(1)).status).toBe(429)
    const before = calls()
    expect((await hit(1)).status).toBe(429)
    expect(calls()).toBe(before)
  })

  for (const [algorithm, options] of [
    ['fixed-window', {}],
    ['token-bucket', {}],
    ['fixed-window', { cost: 1 }],
  ] as Array<[RateLimitAlgorithm, object]>) {
    it(`forgets a key its store resets (${algorithm} ${JSON.stringify(options)})`, async () => {
      for (const key of ['k', 'x'.repeat(500)]) {
        const store = new MemoryRateLimitStore()
        const app = new Hono()
        app.use(
          rateLimit({
            max: 1,
            windowMs: 60_000,
            algorithm,
            store,
            denyCache: true,
            keyGenerator: () => key,
            ...options,
          }),
        )
        app.get('/', (c) => c.text('ok'))
        expect((await app.request('/')).status).toBe(200)
        expect((await app.request('/')).status).toBe(429)
        await store.reset(key)
        expect((await app.request('/')).status).toBe(200)
      }
    })
  }

  it('forgets a key reset on the store for every middleware in front of it', async () => {
    const { store } = sharedLike()
    const app = new Hono()
    app.use('/a', rateLimit({ max: 1, store, keyGenerator: () => 'k' }))
    app.use('/b', rateLimit({ max: 1, store, keyGenerator: () => 'k', algorithm: 'token-bucket' }))
    app.get('/*', (c) => c.text('ok'))
    for (const path of ['/a', '/b']) expect((await app.request(path)).status).toBe(200)
    for (const path of ['/a', '/b']) expect((await app.request(path)).status).toBe(429)
    await store.reset?.('k')
    for (const path of ['/a', '/b']) expect((await app.request(path)).status).toBe(200)
  })
})

describe('rateLimit: numbers beyond 2^53', () => {
  it.each<[string, Parameters<typeof rateLimit>[0], RegExp]>([
    ['cost 1e19', { cost: 1e19 }, /"cost" must be at most 2\^53/],
    ['cost 2^53', { cost: 2 ** 53 }, /"cost" must be at most 2\^53/],
    ['max 1e19', { max: 1e19 }, /"max" × "windowMs" must be a safe integer/],
    ['max × windowMs above 2^53', { max: 2 ** 40, windowMs: 2 ** 20 }, /safe integer/],
    ['limits max 1e19', { limits: [{ max: 1e19, windowMs: 1_000 }] }, /limits\[0\]\.max/],
    ['windowMs 1e19', { windowMs: 1e19 }, /"windowMs" must be at most 2\^53/],
    ['blockDurationMs 1e19', { blockDurationMs: 1e19 }, /"blockDurationMs" must be at most/],
  ])('refuses %s at construction with a TypeError', (_, options, message) => {
    expect(() => rateLimit(options)).toThrow(TypeError)
    expect(() => rateLimit(options)).toThrow(message)
  })

  it('fails a request whose cost(c) or max(c) is beyond 2^53 (500), never lets it through', async () => {
    for (const options of [
      { cost: () => 1e19 },
      { max: () => 1e19 },
      { cost: () => -1 },
      { cost: () => 0.5 },
    ]) {
      const app = new Hono()
      app.use(rateLimit({ ...options, failOpen: true, onStoreError: () => {} }))
      app.get('/', (c) => c.text('ok'))
      app.onError((_, c) => c.text('failed', 500))
      expect((await app.request('/')).status).toBe(500)
    }
  })
})

describe('rateLimit: the documented x-max-tokens cost', () => {
  /** The cost function of docs/middleware/rate-limit.md, as written there. */
  const maxTokens = (c: { req: { header(name: string): string | undefined } }) => {
    const header = c.req.header('x-max-tokens')
    if (header === undefined) return 1_000
    if (!/^[1-9][0-9]{0,5}$/.test(header) || Number(header) > 100_000) {
      throw new HTTPException(400, {
        message: 'x-max-tokens must be a whole number from 1 to 100000',
      })
    }
    return Number(header)
  }

  it('answers 400 to an empty, zero, negative, fractional or huge header, and charges a missing one 1,000', async () => {
    const app = new Hono()
    app.use(
      rateLimit({
        keyGenerator: () => 'k',
        limits: [
          { max: 20_000, windowMs: 1_000 },
          { max: 100_000, windowMs: 3_600_000 },
        ],
        cost: maxTokens,
      }),
    )
    app.post('/v1/complete', (c) => c.text('…'))
    const post = (value?: string) =>
      app.request('/v1/complete', {
        method: 'POST',
        headers: value === undefined ? {} : { 'x-max-tokens': value },
      })
    for (const bad of ['', '0', '-5', '1.5', '1e3', '0x10', '100001', '9'.repeat(30)]) {
      expect((await post(bad)).status).toBe(400)
    }
    const res = await post()
    expect(res.status).toBe(200)
    expect(res.headers.get('RateLimit-Remaining')).toBe('19000')
  })
})
