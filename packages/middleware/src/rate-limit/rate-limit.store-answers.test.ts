// The counting side (counter.ts) at its edges: every malformed store answer is a store failure,
// a refund lands only in the window it was counted in (the bucket has no window), and the deny
// cache forgets a refusal at its end or when the store resets the key.

import { Context, Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { countingStore, hitFrom as hit, limitedApp } from '../../test/rate-limit-app'
import {
  MemoryRateLimitStore,
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
} from './index'
import type { RateLimitVerdict } from './store'

afterEach(() => {
  vi.useRealTimers()
})

/** An app whose store answers `consume` with `verdict`, failing closed; its errors collected. */
function consumeApp(verdict: unknown, options: RateLimitOptions = {}) {
  const errors: unknown[] = []
  const store: RateLimitStore = {
    increment: async () => ({ count: 1, ttl: 1000 }),
    consume: async () => verdict as RateLimitVerdict,
  }
  const app = limitedApp({ store, cost: 1, onStoreError: (e) => errors.push(e), ...options })
  return { app, errors }
}

const ok = { count: 1, ttl: 1000 }

describe('rateLimit: a malformed consume verdict is a store failure', () => {
  it('a well-formed verdict passes', async () => {
    const { app, errors } = consumeApp({ allowed: true, limits: [ok], blockedMs: 0 })
    const res = await hit(app)
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit-remaining')).toBe('59')
    expect(errors).toEqual([])
  })

  it.each<[string, unknown]>([
    ['no verdict', undefined],
    ['null', null],
    ['allowed not a boolean', { allowed: 1, limits: [ok], blockedMs: 0 }],
    ['limits not an array', { allowed: true, limits: { 0: ok, length: 1 }, blockedMs: 0 }],
    ['one limit too few', { allowed: true, limits: [], blockedMs: 0 }],
    ['one limit too many', { allowed: true, limits: [ok, ok], blockedMs: 0 }],
    ['a null limit', { allowed: true, limits: [null], blockedMs: 0 }],
    [
      'a count that is NaN',
      { allowed: true, limits: [{ count: Number.NaN, ttl: 1 }], blockedMs: 0 },
    ],
    ['a ttl that is infinite', { allowed: true, limits: [{ count: 1, ttl: 1 / 0 }], blockedMs: 0 }],
    ['a count that is a string', { allowed: true, limits: [{ count: '1', ttl: 1 }], blockedMs: 0 }],
    ['no blockedMs', { allowed: true, limits: [ok] }],
    ['blockedMs NaN', { allowed: true, limits: [ok], blockedMs: Number.NaN }],
  ])('%s: 503, and the error says so', async (_, verdict) => {
    const { app, errors } = consumeApp(verdict)
    expect((await hit(app)).status).toBe(503)
    expect(errors).toEqual([new TypeError('store returned an invalid verdict')])
  })

  it('two limits need two answers', async () => {
    const limits = [
      { max: 5, windowMs: 1000 },
      { max: 50, windowMs: 60_000 },
    ]
    const two = consumeApp({ allowed: true, limits: [ok, ok], blockedMs: 0 }, { limits })
    expect((await hit(two.app)).status).toBe(200)
    const one = consumeApp({ allowed: true, limits: [ok], blockedMs: 0 }, { limits })
    expect((await hit(one.app)).status).toBe(503)
    // Every answer is checked, not only the first.
    const nan = { count: Number.NaN, ttl: 1 }
    const second = consumeApp({ allowed: true, limits: [ok, nan], blockedMs: 0 }, { limits })
    expect((await hit(second.app)).status).toBe(503)
  })
})

describe('rateLimit: a malformed single count is a store failure', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a count that is NaN', { count: Number.NaN, ttl: 1 }],
    ['no ttl', { count: 1 }],
    ['an infinite ttl', { count: 1, ttl: Number.POSITIVE_INFINITY }],
  ])('%s, from each algorithm: 503', async (_, info) => {
    for (const algorithm of ['fixed-window', 'sliding-window', 'token-bucket'] as const) {
      const errors: unknown[] = []
      const answer = async () => info as never
      const store = { increment: answer, slidingWindow: answer, tokenBucket: answer }
      const app = limitedApp({ store, algorithm, onStoreError: (e) => errors.push(e) })
      expect((await hit(app)).status).toBe(503)
      expect(errors).toEqual([new TypeError('store returned an invalid { count, ttl }')])
    }
  })
})

describe('rateLimit: refunds', () => {
  /** A memory store whose refunds are counted. */
  function refundingStore() {
    const store = new MemoryRateLimitStore()
    const decrement = vi.spyOn(store, 'decrement')
    return { store, decrement }
  }

  /** An app whose handler takes `?ms=` milliseconds (fake timers), limited by `options`. */
  function slowApp(options: RateLimitOptions) {
    const app = new Hono()
    app.use(rateLimit({ keyGenerator: () => 'slow', ...options }))
    app.get('/', async (c) => {
      await new Promise((resolve) => setTimeout(resolve, Number(c.req.query('ms'))))
      return c.text('done')
    })
    return async (ms: number) => {
      const res = app.request(`/?ms=${ms}`)
      await vi.advanceTimersByTimeAsync(ms)
      return (await res).status
    }
  }

  it('a refund when the window has ended is dropped (it would free a request of the next)', async () => {
    vi.useFakeTimers({ now: 0 })
    const { store, decrement } = refundingStore()
    const send = slowApp({ max: 5, windowMs: 1_000, skipSuccessfulRequests: true, store })
    // Counted at 0, done at 999: given back.
    expect(await send(999)).toBe(200)
    expect(decrement).toHaveBeenCalledTimes(1)
    // Counted at 999 in the window ending at 1000, done at 1999: not given back.
    expect(await send(1_000)).toBe(200)
    expect(decrement).toHaveBeenCalledTimes(1)
    // Counted at 1000 in a fresh window ending at 2000, done exactly at 2000: dropped.
    vi.setSystemTime(1_000)
    expect(await send(1_000)).toBe(200)
    expect(decrement).toHaveBeenCalledTimes(1)
  })

  it('a bucket has no window: its token comes back however long the handler took', async () => {
    vi.useFakeTimers({ now: 0 })
    const { store, decrement } = refundingStore()
    const send = slowApp({
      max: 1,
      windowMs: 1_000,
      algorithm: 'token-bucket',
      skipSuccessfulRequests: true,
      store,
    })
    expect(await send(5_000)).toBe(200)
    expect(decrement).toHaveBeenCalledWith('slow', {
      algorithm: 'token-bucket',
      windowMs: 1_000,
      max: 1,
    })
  })

  it('the refund names the algorithm, window and limit it was counted with', async () => {
    const { store, decrement } = refundingStore()
    const app = limitedApp({
      max: 3,
      windowMs: 60_000,
      algorithm: 'sliding-window',
      skipFailedRequests: true,
      store,
      keyGenerator: () => 'sw',
    })
    expect((await hit(app, undefined, '/missing')).status).toBe(404)
    expect(decrement).toHaveBeenCalledWith('sw', {
      algorithm: 'sliding-window',
      windowMs: 60_000,
      max: 3,
    })
  })
})

describe('rateLimit: the deny cache', () => {
  it('a refusal is remembered until its last millisecond, not past it', async () => {
    vi.useFakeTimers({ now: 0 })
    const { store, calls } = countingStore()
    const app = limitedApp({ max: 1, windowMs: 10_000, store })
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
    expect(calls.count).toBe(2)
    vi.setSystemTime(9_999)
    const cached = await hit(app)
    expect(cached.status).toBe(429)
    expect(cached.headers.get('retry-after')).toBe('1')
    expect(calls.count).toBe(2)
    vi.setSystemTime(10_000)
    expect((await hit(app)).status).toBe(200)
    expect(calls.count).toBe(3)
  })

  it('a remembered refusal counts its reset down as the store would', async () => {
    vi.useFakeTimers({ now: 0 })
    const { store: shared, inner } = countingStore()
    const answers = async (options: RateLimitOptions, at: number[]) => {
      vi.setSystemTime(0)
      const keyed = limitedApp({ ...options, store: shared, keyGenerator: () => 'same' })
      await hit(keyed)
      const out: (string | null)[][] = []
      for (const t of at) {
        vi.setSystemTime(t)
        const res = await hit(keyed)
        out.push([res.headers.get('ratelimit-reset'), res.headers.get('retry-after')])
      }
      await inner.reset('same')
      return out
    }
    // Refused by the store at 0 (remembered for 10 s), then from the cache at 0, 9 and 9.999 s.
    expect(await answers({ max: 1, windowMs: 10_000 }, [0, 0, 9_000, 9_999])).toEqual([
      ['10', '10'],
      ['10', '10'],
      ['1', '1'],
      ['1', '1'],
    ])
    // Blocked for a minute at 0: the reset is the block's end, counted down.
    const blocked = { max: 1, windowMs: 1_000, blockDurationMs: 60_000 }
    expect(await answers(blocked, [0, 30_000, 59_500])).toEqual([
      ['60', '60'],
      ['30', '30'],
      ['1', '1'],
    ])
  })

  it('a reset of the key on the store it was given lets the key through at once', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemoryRateLimitStore()
    const app = limitedApp({
      max: 1,
      windowMs: 60_000,
      store,
      denyCache: true,
      keyGenerator: () => 'k',
    })
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
    await store.reset('k')
    expect((await hit(app)).status).toBe(200)
  })
})

describe('rateLimit: the default store', () => {
  it('with denyCache on, remembers refusals of the store it makes itself', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = limitedApp({ max: 1, windowMs: 10_000, denyCache: true })
    expect((await hit(app)).status).toBe(200)
    expect((await hit(app)).status).toBe(429)
    const cached = await hit(app)
    expect(cached.status).toBe(429)
    expect(cached.headers.get('retry-after')).toBe('10')
    vi.setSystemTime(10_000)
    expect((await hit(app)).status).toBe(200)
  })

  it('counts a short key without a turn of the microtask queue: next() runs at once', async () => {
    const mw = rateLimit({ keyGenerator: () => 'k' })
    let ran = false
    const done = mw(new Context(new Request('http://localhost/')), async () => {
      ran = true
    })
    expect(ran).toBe(true)
    await done
  })
})
