// What rateLimit records for the logger and otel (the decision of each request, its store call),
// and dry run: a request over the limit passes, recorded as the refusal it would have been.

import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { fromSocket } from '../../test/rate-limit-app'
import { type DecisionRecord, installDecisions } from '../internal/outcomes/decisions'
import {
  MemoryRateLimitStore,
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
} from './index'

/** An app recording each request's decisions, with one rateLimit in front of `GET /` → `ok`. */
function recordedApp(options: RateLimitOptions, status = 200) {
  const records: DecisionRecord[] = []
  const app = new Hono()
  app.use(async (c, next) => {
    records.push(installDecisions(c))
    await next()
  })
  app.use(rateLimit(options))
  app.get('/', (c) => c.text('ok', status as 200))
  const hit = () => app.request('/', {}, fromSocket('203.0.113.9'))
  /** The last request's rateLimit decision, without its timing. */
  const last = () => {
    const d = records.at(-1)?.decisions[0]
    return d && { ...d, ms: undefined, store: d.store?.op }
  }
  return { hit, last }
}

const decision = (outcome: string, code?: string, status?: number, store?: string) => ({
  middleware: 'rateLimit',
  outcome,
  code,
  status,
  ms: undefined,
  store,
})

const failing: RateLimitStore = {
  increment: async () => {
    throw new Error('down')
  },
}

describe('rateLimit: decisions', () => {
  it.each([
    ['fixed-window', 'increment'],
    ['sliding-window', 'slidingWindow'],
    ['token-bucket', 'tokenBucket'],
  ] as const)('%s: allow, then reject 429, naming the store call %s', async (algorithm, op) => {
    const { hit, last } = recordedApp({ max: 1, algorithm })
    expect((await hit()).status).toBe(200)
    expect(last()).toEqual(decision('allow', undefined, undefined, op))
    expect((await hit()).status).toBe(429)
    expect(last()).toEqual(decision('reject', 'rate_limited', 429, op))
  })

  it('the general path names its store call too: the single count, or consume', async () => {
    const single = recordedApp({ max: 1, skip: () => false, algorithm: 'token-bucket' })
    await single.hit()
    expect(single.last()).toEqual(decision('allow', undefined, undefined, 'tokenBucket'))
    const consumed = recordedApp({ max: 1, cost: 1 })
    await consumed.hit()
    expect(consumed.last()).toEqual(decision('allow', undefined, undefined, 'consume'))
    expect((await consumed.hit()).status).toBe(429)
    expect(consumed.last()).toEqual(decision('reject', 'rate_limited', 429, 'consume'))
  })

  it('a skipped request is a skip with no code and no store call', async () => {
    const { hit, last } = recordedApp({ max: 1, skip: () => true })
    expect((await hit()).status).toBe(200)
    expect(last()).toEqual(decision('skip'))
  })

  it('a failing store under failOpen: a skip for store_unavailable, on either path', async () => {
    for (const extra of [{}, { skip: () => false }, { cost: 1 }]) {
      const store: RateLimitStore = { ...failing, consume: failing.increment as never }
      const { hit, last } = recordedApp({ store, failOpen: true, onStoreError: () => {}, ...extra })
      const res = await hit()
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBeNull()
      expect(last()).toEqual(decision('skip', 'store_unavailable'))
    }
  })

  it('a failing store without failOpen: 503, on either path', async () => {
    for (const extra of [{}, { skip: () => false }, { cost: 1 }]) {
      const store: RateLimitStore = { ...failing, consume: failing.increment as never }
      const { hit } = recordedApp({ store, onStoreError: () => {}, ...extra })
      const res = await hit()
      expect(res.status).toBe(503)
      expect(await res.text()).toContain('Rate limit store unavailable')
    }
  })
})

describe('rateLimit: dryRun', () => {
  it.each([
    ['the usual path', {}],
    ['the general path', { skip: () => false }],
    ['consume', { cost: 1 }],
  ])('%s: over the limit passes, with its headers, recorded as dry-run 429', async (_, extra) => {
    // Real timers: a faked performance.now() of 0 reads as "not decided yet" to the record.
    const { hit, last } = recordedApp({ max: 1, windowMs: 10_000, dryRun: true, ...extra })
    expect((await hit()).status).toBe(200)
    expect(last()?.outcome).toBe('allow')
    const over = await hit()
    expect(over.status).toBe(200)
    expect(await over.text()).toBe('ok')
    expect(over.headers.get('retry-after')).toBeNull()
    expect(over.headers.get('ratelimit-remaining')).toBe('0')
    expect(over.headers.get('ratelimit-reset')).toBe('10')
    expect(last()).toMatchObject({ outcome: 'dry-run', code: 'rate_limited', status: 429 })
  })

  it('a dry run refunds nothing for the refused request it lets through', async () => {
    const store = new MemoryRateLimitStore()
    const { hit } = recordedApp({
      max: 1,
      store,
      dryRun: true,
      skipFailedRequests: true,
      keyGenerator: () => 'dry',
    })
    await hit()
    await hit()
    // Both counted: the next count is the third.
    expect((await store.increment('dry', 60_000)).count).toBe(3)
  })

  it('skipFailedRequests outside dry run gives the 429 back (a fixed window counts it)', async () => {
    const store = new MemoryRateLimitStore()
    const { hit } = recordedApp({
      max: 1,
      store,
      skipFailedRequests: true,
      keyGenerator: () => 'wet',
    })
    await hit()
    expect((await hit()).status).toBe(429)
    expect((await store.increment('wet', 60_000)).count).toBe(2)
  })
})
