import { afterEach, describe, expect, it, vi } from 'vitest'
import { hitFrom as hit, limitedApp, withPkHidden } from '../../test/rate-limit-app'
import {
  MemoryRateLimitStore,
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
} from './index'

afterEach(() => {
  vi.useRealTimers()
})

const statuses = async (app: ReturnType<typeof limitedApp>, n: number) => {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push((await hit(app)).status)
  return out
}

/** A shared-store stand-in: the memory store behind a plain object, with its calls counted. */
function countingStore() {
  const inner = new MemoryRateLimitStore()
  const calls = { consume: 0, increment: 0, tokenBucket: 0 }
  const store: RateLimitStore = {
    increment: (k, w) => {
      calls.increment++
      return inner.increment(k, w)
    },
    tokenBucket: (k, w, m) => {
      calls.tokenBucket++
      return inner.tokenBucket(k, w, m)
    },
    consume: (k, r) => {
      calls.consume++
      return inner.consume(k, r)
    },
  }
  return { store, calls }
}

describe('rateLimit: cost', () => {
  it('takes cost units per request: max 10 at cost 3 lets three through, the fourth is refused', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = limitedApp({ max: 10, windowMs: 60_000, cost: 3 })
    const first = await hit(app)
    expect(first.headers.get('ratelimit-remaining')).toBe('7')
    expect(await statuses(app, 3)).toEqual([200, 200, 429])
  })

  it('reads the cost from the request, and a refused request costs nothing', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = limitedApp({
      max: 100,
      cost: (c) => Number(c.req.header('x-tokens') ?? 1),
      keyGenerator: () => 'llm',
    })
    const send = (tokens: number) => hit(app, undefined, '/', { 'x-tokens': String(tokens) })
    expect((await send(60)).status).toBe(200)
    const refused = await send(50)
    expect(refused.status).toBe(429)
    // The 50 were not taken: 40 are still there.
    expect(refused.headers.get('ratelimit-remaining')).toBe('40')
    expect((await send(40)).status).toBe(200)
    expect((await send(1)).status).toBe(429)
  })

  it('refuses a cost function that returns something other than a non-negative integer', async () => {
    const app = limitedApp({ cost: () => 1.5 })
    const res = await hit(app)
    expect(res.status).toBe(500)
  })
})

describe('rateLimit: several limits at once', () => {
  const limits = [
    { max: 100, windowMs: 3_600_000 },
    { max: 2, windowMs: 1_000 },
  ]

  it('passes only while every limit has room; a refusal by one limit takes nothing from the others', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = limitedApp({ limits: [{ max: 3, windowMs: 60_000 }, limits[1] as never] })
    expect(await statuses(app, 4)).toEqual([200, 200, 429, 429])
    vi.setSystemTime(1_000)
    // The per-second refusals did not count against the minute: one of its three is left.
    expect(await statuses(app, 2)).toEqual([200, 429])
    vi.setSystemTime(2_000)
    const res = await hit(app)
    expect(res.status).toBe(429)
    // Now the minute refuses: Retry-After waits for it, not for the next second.
    expect(res.headers.get('retry-after')).toBe('58')
  })

  it('reports the tightest limit in the draft-6 headers and every policy', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = limitedApp({ limits })
    const res = await hit(app)
    expect(res.headers.get('ratelimit-limit')).toBe('2')
    expect(res.headers.get('ratelimit-remaining')).toBe('1')
    expect(res.headers.get('ratelimit-reset')).toBe('1')
    expect(res.headers.get('ratelimit-policy')).toBe('2;w=1, 100;w=3600')
  })

  it('lists every policy in draft-8 and reports the tightest in RateLimit', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = limitedApp({ limits, standardHeaders: 'draft-8', keyGenerator: () => 'foo' })
    const res = await hit(app)
    expect(res.headers.get('ratelimit')).toBe('"2-in-1sec"; r=1; t=1')
    expect(withPkHidden(res.headers.get('ratelimit-policy'))).toBe(
      '"2-in-1sec"; q=2; w=1; pk=:<pk>:, "100-in-1hr"; q=100; w=3600; pk=:<pk>:',
    )
  })

  it('counts each limit once under 50 concurrent requests', async () => {
    const app = limitedApp({
      limits: [
        { max: 10, windowMs: 60_000 },
        { max: 30, windowMs: 3_600_000 },
      ],
    })
    const results = await Promise.all(Array.from({ length: 50 }, () => hit(app)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(10)
  })

  it.each(['sliding-window', 'token-bucket'] as const)(
    'works with the %s too',
    async (algorithm) => {
      vi.useFakeTimers({ now: 0 })
      const app = limitedApp({ algorithm, limits, cost: 1 })
      expect(await statuses(app, 3)).toEqual([200, 200, 429])
    },
  )
})

describe('rateLimit: blockDurationMs', () => {
  it('refuses a key for blockDurationMs after its first refusal, even once its window has reset', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = limitedApp({ max: 2, windowMs: 1_000, blockDurationMs: 15 * 60_000 })
    expect(await statuses(app, 3)).toEqual([200, 200, 429])
    vi.setSystemTime(5_000)
    const res = await hit(app)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe(String(15 * 60 - 5))
    vi.setSystemTime(15 * 60_000)
    expect(await statuses(app, 3)).toEqual([200, 200, 429])
  })

  it('blocks per key: other clients are not affected', async () => {
    const app = limitedApp({ max: 1, blockDurationMs: 60_000 })
    await hit(app, '198.51.100.1')
    expect((await hit(app, '198.51.100.1')).status).toBe(429)
    expect((await hit(app, '198.51.100.2')).status).toBe(200)
  })
})

describe('rateLimit: deny cache', () => {
  it('answers a refused key without calling a shared store until it can pass again', async () => {
    vi.useFakeTimers({ now: 0 })
    const { store, calls } = countingStore()
    const app = limitedApp({ max: 2, windowMs: 10_000, store })
    expect(await statuses(app, 3)).toEqual([200, 200, 429])
    expect(calls.increment).toBe(3)
    const cached = await hit(app)
    expect(cached.status).toBe(429)
    expect(cached.headers.get('retry-after')).toBe('10')
    expect(cached.headers.get('ratelimit-remaining')).toBe('0')
    expect(await statuses(app, 20)).toEqual(Array(20).fill(429))
    expect(calls.increment).toBe(3)
    vi.setSystemTime(10_000)
    expect((await hit(app)).status).toBe(200)
    expect(calls.increment).toBe(4)
  })

  it('keeps a blocked key out of the store for the whole block', async () => {
    vi.useFakeTimers({ now: 0 })
    const { store, calls } = countingStore()
    const app = limitedApp({ max: 1, windowMs: 1_000, blockDurationMs: 60_000, store })
    expect(await statuses(app, 2)).toEqual([200, 429])
    vi.setSystemTime(30_000)
    expect(await statuses(app, 5)).toEqual(Array(5).fill(429))
    expect(calls.consume).toBe(2)
    vi.setSystemTime(60_000)
    expect((await hit(app)).status).toBe(200)
  })

  it.each([
    [
      'draft-6, two limits',
      {
        limits: [
          { max: 1, windowMs: 10_000 },
          { max: 5, windowMs: 60_000 },
        ],
      },
    ],
    ['draft-8', { max: 1, windowMs: 10_000, standardHeaders: 'draft-8' as const }],
  ])('answers from the cache with the headers the store refusal had (%s)', async (_, options) => {
    vi.useFakeTimers({ now: 0 })
    const { store } = countingStore()
    const app = limitedApp({ ...options, store })
    expect((await hit(app)).status).toBe(200)
    const fromStore = await hit(app)
    const fromCache = await hit(app)
    expect([fromStore.status, fromCache.status]).toEqual([429, 429])
    const headers = (r: Response) =>
      [...r.headers].filter(([name]) => name.startsWith('ratelimit') || name === 'retry-after')
    expect(headers(fromStore).length).toBeGreaterThanOrEqual(2)
    expect(headers(fromCache)).toEqual(headers(fromStore))
  })

  it('is off with denyCache: false, and off by default for the memory store', async () => {
    vi.useFakeTimers({ now: 0 })
    const { store, calls } = countingStore()
    const app = limitedApp({ max: 1, store, denyCache: false })
    await statuses(app, 5)
    expect(calls.increment).toBe(5)
    const memory = new MemoryRateLimitStore()
    const spy = vi.spyOn(memory, 'increment')
    await statuses(limitedApp({ max: 1, store: memory }), 5)
    expect(spy).toHaveBeenCalledTimes(5)
  })

  it('does not remember a sliding-window refusal (its count decays continuously)', async () => {
    const inner = new MemoryRateLimitStore()
    let calls = 0
    const store: RateLimitStore = {
      increment: (k, w) => inner.increment(k, w),
      slidingWindow: (k, w, m) => {
        calls++
        return inner.slidingWindow(k, w, m)
      },
    }
    const app = limitedApp({ max: 1, algorithm: 'sliding-window', store })
    await statuses(app, 4)
    expect(calls).toBe(4)
  })
})

describe('rateLimit: consume options at construction', () => {
  const plain: RateLimitStore = { increment: (k, w) => new MemoryRateLimitStore().increment(k, w) }
  it.each<[string, RateLimitOptions, RegExp]>([
    ['cost without consume()', { store: plain, cost: 2 }, /"cost" needs a store with consume/],
    [
      'limits without consume()',
      { store: plain, limits: [{ max: 1, windowMs: 1_000 }] },
      /"limits" needs/,
    ],
    [
      'blockDurationMs without consume()',
      { store: plain, blockDurationMs: 1_000 },
      /"blockDurationMs" needs/,
    ],
    [
      'limits with max',
      { max: 5, limits: [{ max: 1, windowMs: 1_000 }] },
      /"limits" replaces "max"/,
    ],
    [
      'limits with windowMs',
      { windowMs: 5, limits: [{ max: 1, windowMs: 1_000 }] },
      /replaces "windowMs"/,
    ],
    ['empty limits', { limits: [] }, /non-empty array/],
    [
      'two limits with one window',
      {
        limits: [
          { max: 1, windowMs: 1_000 },
          { max: 2, windowMs: 1_000 },
        ],
      },
      /share windowMs/,
    ],
    ['a limit with a typo', { limits: [{ max: 1, window: 1_000 } as never] }, /window/],
    ['a negative cost', { cost: -1 }, /cost/],
    ['a fractional cost', { cost: 0.5 }, /cost/],
    ['a zero block', { blockDurationMs: 0 }, /blockDurationMs/],
    [
      'cost with skipFailedRequests',
      { cost: 2, skipFailedRequests: true },
      /cannot be combined with "cost"/,
    ],
    ['a non-boolean denyCache', { denyCache: 'yes' as never }, /denyCache/],
  ])('refuses %s', (_label, options, message) => {
    expect(() => rateLimit(options)).toThrow(TypeError)
    expect(() => rateLimit(options)).toThrow(message)
  })
})
