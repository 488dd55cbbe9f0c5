// How rateLimit reads a `consume` verdict (request.ts: verdictQuotas, verdictRefusal): which
// limit it reports, what Retry-After says, and which refusals it remembers. The store here answers
// what each case sets, so every branch is reached with exact numbers.

import { describe, expect, it } from 'vitest'
import { hitFrom as hit, limitedApp } from '../../test/rate-limit-app'
import type { RateLimitAlgorithm, RateLimitInfo, RateLimitOptions, RateLimitStore } from './index'

const SECOND = { max: 2, windowMs: 1_000 }
const MINUTE = { max: 2, windowMs: 60_000 }

/** A store whose `consume` answers `limits` (allowed unless `allowed: false`); its calls counted. */
function answering(
  limits: RateLimitInfo[],
  { allowed = true, blockedMs = 0 }: { allowed?: boolean; blockedMs?: number } = {},
) {
  const calls = { consume: 0 }
  const info = async () => ({ count: 1, ttl: 1 })
  const store: RateLimitStore = {
    increment: info,
    slidingWindow: info,
    tokenBucket: info,
    consume: async () => {
      calls.consume++
      return { allowed, limits, blockedMs }
    },
  }
  return { store, calls }
}

const headers = (res: Response) => ({
  status: res.status,
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
  reset: res.headers.get('ratelimit-reset'),
  policy: res.headers.get('ratelimit-policy'),
  retryAfter: res.headers.get('retry-after'),
})

async function twice(
  store: RateLimitStore,
  options: RateLimitOptions & { algorithm?: RateLimitAlgorithm } = {},
) {
  const app = limitedApp({ limits: [SECOND, MINUTE], store, ...options })
  return [headers(await hit(app)), headers(await hit(app))]
}

describe('rateLimit: the limits a consume verdict reports', () => {
  it('passing: the least room first, and on a tie the longer wait', async () => {
    const { store } = answering([
      { count: 1, ttl: 500 },
      { count: 1, ttl: 30_000 },
    ])
    const [first] = await twice(store)
    expect(first).toEqual({
      status: 200,
      limit: '2',
      remaining: '1',
      reset: '30',
      policy: '2;w=60, 2;w=1',
      retryAfter: null,
    })
  })

  it('refused by one limit: that limit first, the retry when it has room; remembered', async () => {
    const { store, calls } = answering(
      [
        { count: 3, ttl: 1_500 },
        { count: 1, ttl: 30_000 },
      ],
      { allowed: false },
    )
    const [refused, cached] = await twice(store)
    // The refused request's own unit is not in use: 3 − 1 = 2 of 2, none left; 1 − 1 = 0 of 2.
    expect(refused).toEqual({
      status: 429,
      limit: '2',
      remaining: '0',
      reset: '2',
      policy: '2;w=1, 2;w=60',
      retryAfter: '2',
    })
    expect(cached).toEqual(refused)
    expect(calls.consume).toBe(1)
  })

  it('refused by two limits: the longer wait first, and Retry-After waits for both', async () => {
    const { store } = answering(
      [
        { count: 3, ttl: 500 },
        { count: 3, ttl: 30_000 },
      ],
      { allowed: false },
    )
    const [refused] = await twice(store)
    expect(refused).toMatchObject({ limit: '2', reset: '30', retryAfter: '30' })
    expect(refused?.policy).toBe('2;w=60, 2;w=1')
  })

  it('a store that says allowed but reports a count over a max is a refusal', async () => {
    const { store } = answering([
      { count: 3, ttl: 500 },
      { count: 1, ttl: 30_000 },
    ])
    const [refused] = await twice(store)
    expect(refused).toMatchObject({ status: 429, remaining: '0', retryAfter: '1' })
  })

  it('a blocked key: no room in any limit, every reset and Retry-After at the block end', async () => {
    const { store, calls } = answering(
      [
        { count: 1, ttl: 500 },
        { count: 1, ttl: 30_000 },
      ],
      { allowed: false, blockedMs: 90_000 },
    )
    const [refused, cached] = await twice(store)
    expect(refused).toEqual({
      status: 429,
      limit: '2',
      remaining: '0',
      reset: '90',
      policy: '2;w=60, 2;w=1',
      retryAfter: '90',
    })
    expect(cached?.status).toBe(429)
    expect(calls.consume).toBe(1)
  })

  it('never reports more room than the limit has', async () => {
    // A refusal whose count is below its cost (a store's rounding): 2 − (0 − 1) would be 3.
    const { store } = answering([{ count: 0, ttl: 500 }], { allowed: false })
    const app = limitedApp({ limits: [SECOND], store })
    expect(headers(await hit(app))).toMatchObject({ status: 429, remaining: '2', retryAfter: '1' })
  })
})

describe('rateLimit: which consume refusals are remembered', () => {
  const refusal = (count: number) =>
    answering(
      [
        { count, ttl: 1_500 },
        { count: 1, ttl: 30_000 },
      ],
      { allowed: false },
    )

  it('a fixed window with no unit left: remembered', async () => {
    const { store, calls } = refusal(3)
    await twice(store)
    expect(calls.consume).toBe(1)
  })

  it('a fixed window with units left, refusing a larger cost: asked again', async () => {
    // cost 2 with 1 in use: 1 + 2 = 3 over 2, yet a request of 1 could pass.
    const { store, calls } = refusal(3)
    const [refused] = await twice(store, { cost: 2 })
    expect(refused).toMatchObject({ status: 429, remaining: '1' })
    expect(calls.consume).toBe(2)
  })

  it('a token bucket refusing one token: remembered; refusing two: asked again', async () => {
    const one = refusal(3)
    await twice(one.store, { algorithm: 'token-bucket' })
    expect(one.calls.consume).toBe(1)
    const two = refusal(3)
    await twice(two.store, { algorithm: 'token-bucket', cost: 2 })
    expect(two.calls.consume).toBe(2)
  })

  it('a sliding window: never remembered (its count decays)', async () => {
    const { store, calls } = refusal(3)
    await twice(store, { algorithm: 'sliding-window' })
    expect(calls.consume).toBe(2)
  })

  it('a blocked sliding window: remembered for the block', async () => {
    const { store, calls } = answering([{ count: 1, ttl: 500 }], {
      allowed: false,
      blockedMs: 5_000,
    })
    const app = limitedApp({ limits: [SECOND], store, algorithm: 'sliding-window' })
    expect((await hit(app)).status).toBe(429)
    expect((await hit(app)).status).toBe(429)
    expect(calls.consume).toBe(1)
  })
})
