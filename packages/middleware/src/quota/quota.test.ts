import { getMiddlewareDescription } from '@palisade/shared/describe'
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { apiKey, MemoryApiKeyStore } from '../api-key'
import { installDecisions } from '../internal/outcomes/decisions'
import { problemHandler } from '../problem-details/problem-details'
import { MemoryRateLimitStore, type RateLimitStore } from '../rate-limit'
import { type QuotaOptions, quota } from './index'

afterEach(() => {
  vi.useRealTimers()
})

function appWith(options: Partial<QuotaOptions> & { limit: QuotaOptions['limit'] }) {
  const store = options.store ?? new MemoryRateLimitStore()
  const mw = quota({
    period: 'day',
    key: (c) => c.req.header('x-client') ?? 'anon',
    ...options,
    store,
  })
  const app = new Hono()
  app.onError(problemHandler())
  app.use('*', mw)
  app.get('/', (c) => c.text('ok'))
  app.get('/fail', (c) => c.text('nope', 400))
  return { app, mw, store }
}

describe('quota', () => {
  it('counts per key, refuses past the limit with Retry-After to the period end and draft-8 fields', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-06T23:59:00Z'), toFake: ['Date'] })
    const { app } = appWith({ limit: 2 })
    const first = await app.request('/', { headers: { 'x-client': 'a' } })
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit')).toMatch(/^"2-per-day"; r=1; t=60$/)
    expect(first.headers.get('ratelimit-policy')).toMatch(
      /^"2-per-day"; q=2; w=86400; pk=:[A-Za-z0-9+/=]+:$/,
    )
    expect((await app.request('/', { headers: { 'x-client': 'a' } })).status).toBe(200)
    const refused = await app.request('/', { headers: { 'x-client': 'a' } })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(refused.headers.get('ratelimit')).toMatch(/r=0; t=60$/)
    expect((await refused.json()) as object).toMatchObject({ code: 'quota_exceeded' })
    // Another key has its own count; refused calls were not counted.
    expect((await app.request('/', { headers: { 'x-client': 'b' } })).status).toBe(200)
  })

  it('starts again at midnight UTC and on the first of the month', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-31T23:59:59.000Z'), toFake: ['Date'] })
    const daily = appWith({ limit: 1 })
    const monthly = appWith({ limit: 1, period: 'month' })
    for (const { app } of [daily, monthly]) {
      expect((await app.request('/')).status).toBe(200)
      expect((await app.request('/')).status).toBe(429)
    }
    vi.setSystemTime(Date.parse('2027-01-01T00:00:00.000Z'))
    for (const { app } of [daily, monthly]) expect((await app.request('/')).status).toBe(200)
    vi.setSystemTime(Date.parse('2027-01-01T12:00:00.000Z'))
    expect((await daily.app.request('/')).status).toBe(429)
    vi.setSystemTime(Date.parse('2027-01-02T00:00:00.000Z'))
    expect((await daily.app.request('/')).status).toBe(200)
    expect((await monthly.app.request('/')).status).toBe(429)
    vi.setSystemTime(Date.parse('2027-02-01T00:00:00.000Z'))
    expect((await monthly.app.request('/')).status).toBe(200)
  })

  it("follows the time zone's midnight", async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-06T22:30:00Z'), toFake: ['Date'] })
    const { app } = appWith({ limit: 1, timeZone: 'Europe/Berlin' }) // 23:30 in Berlin
    expect((await app.request('/')).status).toBe(200)
    const refused = await app.request('/')
    expect(refused.headers.get('retry-after')).toBe('1800')
    vi.setSystemTime(Date.parse('2026-12-06T23:00:00Z')) // midnight in Berlin
    expect((await app.request('/')).status).toBe(200)
  })

  it('takes the limit from the request (a plan) and counts against the API key by default', async () => {
    const keys = new MemoryApiKeyStore()
    await keys.add('free-key-0123456789', { plan: 'free' })
    await keys.add('pro-key-0123456789', { plan: 'pro' })
    const store = new MemoryRateLimitStore()
    const mw = quota({
      period: 'month',
      store,
      limit: (c) =>
        (c.get('apiKey') as { metadata?: { plan?: string } }).metadata?.plan === 'pro' ? 3 : 1,
    })
    const app = new Hono()
    app.use('*', apiKey({ store: keys }), mw)
    app.get('/', (c) => c.text('ok'))
    const call = (key: string) => app.request('/', { headers: { 'x-api-key': key } })
    expect((await call('free-key-0123456789')).status).toBe(200)
    expect((await call('free-key-0123456789')).status).toBe(429)
    for (let i = 0; i < 3; i++) expect((await call('pro-key-0123456789')).status).toBe(200)
    expect((await call('pro-key-0123456789')).status).toBe(429)
    const proId = (await keys.validate('pro-key-0123456789'))?.id
    expect((await mw.usage(`key:${proId}`)).used).toBe(3)
    expect((await mw.usage(`key:${proId}`)).period.id).toMatch(/^\d{4}-\d{2}$/)
    expect((await mw.usage('key:nobody')).used).toBe(0)
  })

  it('reads usage without counting, for any period', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-15T10:00:00Z'), toFake: ['Date'] })
    const { app, mw } = appWith({ limit: 100, period: 'month' })
    for (let i = 0; i < 5; i++) await app.request('/', { headers: { 'x-client': 'acme' } })
    vi.setSystemTime(Date.parse('2026-12-02T10:00:00Z'))
    await app.request('/', { headers: { 'x-client': 'acme' } })
    expect((await mw.usage('acme', Date.parse('2026-11-30T00:00:00Z'))).used).toBe(5)
    expect((await mw.usage('acme')).used).toBe(1)
    expect((await mw.usage('acme')).used).toBe(1)
  })

  it('holds a limit of ten million a month (past max × windowMs = 2^53)', async () => {
    const { app, mw, store } = appWith({ limit: 10_000_000, period: 'month' })
    await (store as Required<RateLimitStore>).consume(
      `quota:month:${(await mw.usage('x')).period.id}:x`,
      {
        algorithm: 'fixed-window',
        limits: [
          {
            max: 10_000_000,
            windowMs: (await mw.usage('x')).period.end - (await mw.usage('x')).period.start,
          },
        ],
        cost: 9_999_999,
      },
    )
    expect((await app.request('/', { headers: { 'x-client': 'x' } })).status).toBe(200)
    expect((await app.request('/', { headers: { 'x-client': 'x' } })).status).toBe(429)
  })

  it('answers 503 when the store fails, or lets through uncounted with failOpen', async () => {
    const broken: RateLimitStore = {
      increment: () => Promise.reject(new Error('down')),
      consume: () => Promise.reject(new Error('down')),
    }
    const errors: unknown[] = []
    const closed = appWith({ limit: 1, store: broken, onStoreError: (e) => errors.push(e) })
    const res = await closed.app.request('/')
    expect(res.status).toBe(503)
    expect((await res.json()) as object).toMatchObject({ code: 'store_unavailable' })
    expect(errors).toHaveLength(1)
    const open = appWith({ limit: 1, store: broken, failOpen: true, onStoreError: () => {} })
    expect((await open.app.request('/')).status).toBe(200)
  })

  it('in dry run lets the call through, counts nothing more, records quota_exceeded', async () => {
    const { app } = appWith({ limit: 1, dryRun: true })
    const decisions: unknown[] = []
    const outer = new Hono()
    outer.use('*', async (c, next) => {
      const record = installDecisions(c)
      await next()
      decisions.push(...record.decisions)
    })
    outer.route('/', app)
    expect((await outer.request('/')).status).toBe(200)
    expect((await outer.request('/')).status).toBe(200)
    expect(decisions).toEqual([
      expect.objectContaining({
        middleware: 'quota',
        outcome: 'allow',
        usage: { key: 'anon', used: 1, limit: 1 },
      }),
      expect.objectContaining({
        middleware: 'quota',
        outcome: 'dry-run',
        code: 'quota_exceeded',
        status: 429,
      }),
    ])
  })

  it('refuses bad options with a clear message', () => {
    const store = new MemoryRateLimitStore()
    const bad: [unknown, RegExp][] = [
      [undefined, /"limit", "period" and "store"/],
      [{ limit: 1, period: 'week', store }, /"period" must be one of 'day', 'month'/],
      [{ limit: 0, period: 'day', store }, /"limit"/],
      [{ limit: 1.5, period: 'day', store }, /"limit"/],
      [{ limit: 1, period: 'day' }, /"store" is required/],
      [{ limit: 1, period: 'day', store: { increment() {} } }, /consume/],
      [{ limit: 1, period: 'day', store, timeZone: 'Mars/Base' }, /"timeZone"/],
      [{ limit: 1, period: 'day', store, name: 'a"b' }, /"name"/],
      [{ limit: 1, period: 'day', store, windowMs: 1 }, /windowMs/],
    ]
    for (const [options, message] of bad)
      expect(() => quota(options as QuotaOptions)).toThrow(message)
  })

  it('fails the request (500, not a count) when the limit function returns garbage', async () => {
    const { app } = appWith({ limit: () => Number.NaN })
    expect((await app.request('/')).status).toBe(500)
  })

  it('describes its answers and the fields it sets', () => {
    const description = getMiddlewareDescription(
      quota({ limit: 1, period: 'day', store: new MemoryRateLimitStore() }),
    )
    expect(description?.responses?.map((r) => [r.status, r.codes])).toEqual([
      [429, ['quota_exceeded']],
      [503, ['store_unavailable']],
    ])
    expect(description?.headers?.map((h) => h.name)).toEqual(['RateLimit-Policy', 'RateLimit'])
  })
})
