import { afterEach, describe, expect, it, vi } from 'vitest'
import { heapOccurrences, longKey, newMarker } from '../../test/heap'
import {
  limitedApp as appWith,
  fromSocket,
  hitFrom as hit,
  withPkHidden,
} from '../../test/rate-limit-app'
import { digestHex } from '../internal/crypto'
import { MemoryRateLimitStore, type RateLimitStore, rateLimit } from './index'

const rateLimitHeaders = (res: Response) =>
  Object.fromEntries(
    [...res.headers]
      .filter(([k]) => k.startsWith('ratelimit') || k === 'retry-after')
      .map(([k, v]) => [k, k === 'ratelimit-policy' ? withPkHidden(v) : v]),
  )

afterEach(() => {
  vi.useRealTimers()
})

describe('rateLimit: standardHeaders draft-8', () => {
  it('sends RateLimit-Policy and RateLimit as structured fields, and no draft-6 headers', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith({
      max: 5,
      windowMs: 60_000,
      standardHeaders: 'draft-8',
      keyGenerator: () => 'foo',
    })
    expect(rateLimitHeaders(await hit(app))).toEqual({
      'ratelimit-policy': '"5-in-1min"; q=5; w=60; pk=:<pk>:',
      ratelimit: '"5-in-1min"; r=4; t=60',
    })
  })

  it('counts down r and t and adds Retry-After on a 429', async () => {
    vi.useFakeTimers({ now: 0 })
    const app = appWith({
      max: 1,
      windowMs: 30_000,
      standardHeaders: 'draft-8',
      identifier: 'burst',
    })
    await hit(app)
    vi.setSystemTime(10_000)
    const res = await hit(app)
    expect(res.status).toBe(429)
    expect(res.headers.get('ratelimit')).toBe('"burst"; r=0; t=20')
    expect(res.headers.get('retry-after')).toBe('20')
    expect(res.headers.get('ratelimit-policy')).toMatch(
      /^"burst"; q=1; w=30; pk=:[A-Za-z0-9+/=]{16}:$/,
    )
  })

  it('gives different clients different partition keys and one client the same one', async () => {
    const app = appWith({ standardHeaders: 'draft-8' })
    const pk = async (ip: string) =>
      /pk=:([^:]+):/.exec((await hit(app, ip)).headers.get('ratelimit-policy') ?? '')?.[1]
    const a = await pk('198.51.100.1')
    expect(a).toHaveLength(16)
    expect(await pk('198.51.100.1')).toBe(a)
    expect(await pk('198.51.100.2')).not.toBe(a)
  })

  it('salts the partition key per limiter: hashing the IP does not find it, another limiter differs', async () => {
    const pkOf = async (app: ReturnType<typeof appWith>, ip: string) =>
      /pk=:([^:]+):/.exec((await hit(app, ip)).headers.get('ratelimit-policy') ?? '')?.[1]
    const one = appWith({ standardHeaders: 'draft-8' })
    const other = appWith({ standardHeaders: 'draft-8' })
    const ip = '198.51.100.77'
    const pk = await pkOf(one, ip)
    expect(pk).toMatch(/^[A-Za-z0-9+/]{16}$/)
    expect(await pkOf(one, ip)).toBe(pk)
    expect(await pkOf(other, ip)).not.toBe(pk)
    // The attack on an unsalted key (express-rate-limit's: the first 12 hex digits of the key's
    // SHA-256, base64): hash every candidate address and compare. Here the whole /24 finds nothing.
    const unsalted = async (key: string) => btoa((await digestHex('SHA-256', key)).slice(0, 12))
    expect(await unsalted('foo')).toBe('MmMyNmI0NmI2OGZm') // express-rate-limit's pk for 'foo'
    const candidates = await Promise.all(
      Array.from({ length: 256 }, (_, i) => unsalted(`198.51.100.${i}`)),
    )
    expect(candidates).not.toContain(pk)
    expect(candidates).not.toContain(await pkOf(other, ip))
  })

  it('holds no long key of a keyGenerator in its caches (partition keys, deny cache)', async () => {
    const marker = newMarker()
    const memory = new MemoryRateLimitStore()
    // Not a MemoryRateLimitStore, so the deny cache is on; the memory store bounds its own keys.
    const store: RateLimitStore = { increment: (key, windowMs) => memory.increment(key, windowMs) }
    const app = appWith({
      max: 1,
      store,
      standardHeaders: 'draft-8',
      keyGenerator: (c) => longKey(marker, c.req.query('i') ?? ''),
    })
    const statuses: number[] = []
    for (let i = 0; i < 300; i++) {
      for (let round = 0; round < 3; round++)
        statuses.push((await hit(app, '203.0.113.1', `/?i=${i}`)).status)
    }
    // Each long key is limited on its own: one pass, then refused (the third from the deny cache).
    expect(statuses.filter((s) => s === 200)).toHaveLength(300)
    expect(statuses.filter((s) => s === 429)).toHaveLength(600)
    expect(await heapOccurrences(() => marker + marker)).toBe(0)
    memory.destroy()
  })

  it('lists every quota of stacked limiters, the outer one first', async () => {
    const app = appWith(
      {
        max: 10,
        windowMs: 60_000,
        standardHeaders: 'draft-8',
        identifier: 'minute',
        keyGenerator: () => 'foo',
      },
      {
        max: 100,
        windowMs: 3_600_000,
        standardHeaders: 'draft-8',
        identifier: 'hour',
        keyGenerator: () => 'foo',
      },
    )
    const res = await hit(app)
    expect(res.headers.get('ratelimit')).toBe('"minute"; r=9; t=60, "hour"; r=99; t=3600')
    expect(withPkHidden(res.headers.get('ratelimit-policy'))).toBe(
      '"minute"; q=10; w=60; pk=:<pk>:, "hour"; q=100; w=3600; pk=:<pk>:',
    )
  })

  it("also lists the outer quota on the inner limiter's 429", async () => {
    const app = appWith(
      { max: 10, standardHeaders: 'draft-8', identifier: 'outer' },
      { max: 1, standardHeaders: 'draft-8', identifier: 'inner' },
    )
    await hit(app)
    const res = await hit(app)
    expect(res.status).toBe(429)
    expect(res.headers.get('ratelimit')).toBe('"outer"; r=8; t=60, "inner"; r=0; t=60')
  })

  it('names the quota from a dynamic max per request', async () => {
    const app = appWith({
      standardHeaders: 'draft-8',
      windowMs: 7_200_000,
      max: (c) => (c.req.header('x-plan') === 'pro' ? 50 : 5),
    })
    const free = await hit(app)
    expect(free.headers.get('ratelimit')).toBe('"5-in-2hrs"; r=4; t=7200')
    const pro = await app.request('/', { headers: { 'x-plan': 'pro' } }, fromSocket('203.0.113.10'))
    expect(pro.headers.get('ratelimit')).toBe('"50-in-2hrs"; r=49; t=7200')
  })

  it.each([
    ['a quote', 'a"b'],
    ['a backslash', 'a\\b'],
    ['a newline', 'a\nb'],
    ['an empty string', ''],
    ['a non-string', 42],
  ])('rejects an identifier with %s at construction', (_label, identifier) => {
    expect(() =>
      rateLimit({ standardHeaders: 'draft-8', identifier: identifier as string }),
    ).toThrow(/^rateLimit: "identifier"/)
  })

  it('rejects an identifier without draft-8, and an unknown draft', () => {
    expect(() => rateLimit({ identifier: 'x' })).toThrow(/set standardHeaders: 'draft-8'/)
    expect(() => rateLimit({ standardHeaders: 'draft-7' as never })).toThrow(
      /"standardHeaders" must be one of 'draft-6', 'draft-8'/,
    )
  })

  it('keeps draft-6 as the default', async () => {
    const res = await hit(appWith({ max: 3 }))
    expect(res.headers.get('ratelimit-limit')).toBe('3')
    expect(res.headers.get('ratelimit')).toBeNull()
  })
})
