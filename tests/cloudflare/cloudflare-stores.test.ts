/**
 * The Durable Object stores inside workerd (miniflare), with a real Durable Object binding:
 * the conformance suite for all three stores (each method runs in the Worker), exactness of the
 * rate limit through the Worker's own app, and the stores' option checks.
 */
import type { ManagedApiKeyStore } from '@palisade/middleware/api-key'
import {
  type DurableObjectNamespaceLike,
  DurableObjectRateLimitStore,
  DurableObjectSessionStore,
  PalisadeStoreObject,
} from '@palisade/middleware/cloudflare'
import type { RateLimitStore } from '@palisade/middleware/rate-limit'
import type { SessionStore } from '@palisade/middleware/sessions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  apiKeyStoreConformance,
  logoutRaceConformance,
  rateLimitStoreConformance,
  sessionStoreConformance,
} from '../stores/conformance'
import { raceConsume } from '../stores/consume-race'
import { remoteStore } from '../stores/remote'
import { startWorker, type TestWorker } from './support'

let worker: TestWorker
let counter = 0
const fresh = () => `t${++counter}:`

beforeAll(async () => {
  worker = await startWorker()
})

afterAll(async () => {
  await worker?.dispose()
})

rateLimitStoreConformance(
  'DurableObjectRateLimitStore (workerd)',
  () => remoteStore<RateLimitStore>(worker, 'rateLimit', fresh()),
  { capabilities: ['slidingWindow', 'tokenBucket', 'decrement', 'consume'] },
)
sessionStoreConformance(
  'DurableObjectSessionStore (workerd)',
  () => remoteStore<SessionStore>(worker, 'session', fresh()),
  { update: true },
)
logoutRaceConformance('DurableObjectSessionStore (workerd), two instances', async () =>
  (await worker.fetch(`/race/session?prefix=${fresh()}`, { method: 'POST' })).json(),
)
apiKeyStoreConformance('DurableObjectApiKeyStore (workerd)', () =>
  remoteStore<ManagedApiKeyStore>(worker, 'apiKey', fresh()),
)

describe('rateLimit on Durable Objects inside workerd', () => {
  it.each([
    [200, 25],
    [300, 137],
  ])('lets exactly max of %i concurrent requests through (max %i)', async (n, max) => {
    const client = `burst-${n}-${max}`
    const statuses = await Promise.all(
      Array.from({ length: n }, async () => {
        const res = await worker.fetch(`/limited?max=${max}`, { headers: { 'x-client': client } })
        return res.status
      }),
    )
    const ok = statuses.filter((s) => s === 200).length
    const limited = statuses.filter((s) => s === 429).length
    console.info(`durable object exactness: ${JSON.stringify({ n, max, ok, limited })}`)
    expect(ok).toBe(max)
    expect(limited).toBe(n - max)
  })

  it.each(['fixed-window', 'sliding-window', 'token-bucket'] as const)(
    '%s consume: of 50 concurrent calls against max 20, exactly 20 pass',
    async (algorithm) => {
      const store = remoteStore<RateLimitStore>(worker, 'rateLimit', fresh())
      const { passed, counts } = await raceConsume(store, algorithm)
      console.info(`consume race (${algorithm}): ${passed} of 50 passed, max 20`)
      expect(passed).toBe(20)
      // Nothing refused was recorded in either limit.
      expect(counts).toEqual([20, 20])
    },
  )

  it('counts two clients apart under concurrent load', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const client = i % 2 === 0 ? 'pair-a' : 'pair-b'
        const res = await worker.fetch('/limited?max=10', { headers: { 'x-client': client } })
        return [client, res.status] as const
      }),
    )
    for (const client of ['pair-a', 'pair-b']) {
      expect(statuses.filter(([c, s]) => c === client && s === 200)).toHaveLength(10)
    }
  })
})

describe('Durable Object store options', () => {
  const namespace: DurableObjectNamespaceLike = {
    idFromName: () => 'id',
    get: () => ({ fetch: async () => new Response('{}') }),
  }

  it.each([
    ['no options', undefined, /"namespace" is required/],
    [
      'a namespace without get',
      { namespace: { idFromName: () => 'x' } },
      /Durable Object namespace/,
    ],
    ['an unknown option', { namespace, prefx: 'x' }, /unknown option "prefx"/],
    ['a non-string prefix', { namespace, prefix: 1 }, /"prefix" must be a string/],
  ])('rejects %s at construction', (_label, options, message) => {
    expect(() => new DurableObjectRateLimitStore(options as never)).toThrow(TypeError)
    expect(() => new DurableObjectRateLimitStore(options as never)).toThrow(
      /^DurableObjectRateLimitStore: /,
    )
    expect(() => new DurableObjectSessionStore(options as never)).toThrow(message)
  })

  it('rejects a bad windowMs before calling the object', async () => {
    const store = new DurableObjectRateLimitStore({ namespace })
    await expect(store.increment('k', 0)).rejects.toThrow(/windowMs must be a positive integer/)
    await expect(store.slidingWindow('k', 1000, 1.5)).rejects.toThrow(/max must be a positive/)
    await expect(store.tokenBucket('k', -1, 5)).rejects.toThrow(/windowMs must be a positive/)
    await expect(
      store.consume('k', {
        algorithm: 'fixed-window',
        limits: [{ max: 1, windowMs: 1 }],
        cost: -1,
      }),
    ).rejects.toThrow(/^DurableObjectRateLimitStore\.consume: cost must be/)
  })

  it('refuses a consume reply that does not match the request', async () => {
    const lying: DurableObjectNamespaceLike = {
      idFromName: () => 'id',
      get: () => ({
        fetch: async () => Response.json({ allowed: true, limits: [], blockedMs: 0 }),
      }),
    }
    const store = new DurableObjectRateLimitStore({ namespace: lying })
    const request = { algorithm: 'fixed-window', limits: [{ max: 1, windowMs: 1000 }], cost: 1 }
    await expect(store.consume('k', request as never)).rejects.toThrow(
      /unexpected reply to consume/,
    )
  })

  it('turns a failed object call into a rejection (so failOpen decides)', async () => {
    const failing: DurableObjectNamespaceLike = {
      idFromName: () => 'id',
      get: () => ({ fetch: async () => new Response('boom', { status: 500 }) }),
    }
    const store = new DurableObjectRateLimitStore({ namespace: failing })
    await expect(store.increment('k', 1000)).rejects.toThrow(/answered 500 to increment/)
  })
})

describe('PalisadeStoreObject request handling', () => {
  const memoryStorage = () => {
    const map = new Map<string, unknown>()
    return {
      get: async (k: string) => map.get(k) as never,
      put: async (k: string, v: unknown) => void map.set(k, v),
      deleteAll: async () => map.clear(),
      setAlarm: async () => {},
    }
  }
  const post = (op: string, body: string) =>
    new Request(`https://palisade-store.invalid/${op}`, { method: 'POST', body })

  it.each([
    ['a body that is not JSON', post('increment', '{'), 400],
    ['an unknown operation', post('drop-table', '{}'), 404],
    ['an inherited name as operation (/constructor)', post('constructor', '{}'), 404],
    ['an inherited name as operation (/__proto__)', post('__proto__', '{}'), 404],
    ['an inherited name as operation (/toString)', post('toString', '{}'), 404],
    ['a zero window', post('increment', '{"windowMs":0}'), 400],
    ['a session without data', post('session/set', '{"ms":1000}'), 400],
    ['a GET', new Request('https://palisade-store.invalid/increment'), 405],
    ['an unknown algorithm', post('rate/hit', '{"algorithm":"leaky","windowMs":1,"max":1}'), 400],
    [
      'a max that is not an integer',
      post('rate/hit', '{"algorithm":"token-bucket","windowMs":1,"max":0.5}'),
      400,
    ],
    ['a refund without a window', post('rate/refund', '{"algorithm":"fixed-window","max":1}'), 400],
    [
      'a consume without limits',
      post('rate/consume', '{"algorithm":"fixed-window","cost":1}'),
      400,
    ],
  ])('answers %s with a 4xx, never a crash', async (_label, request, status) => {
    const object = new PalisadeStoreObject({ storage: memoryStorage() })
    expect((await object.fetch(request)).status).toBe(status)
  })
  it("alarm deletes a key's rate-limit state once all of it has expired, not before", async () => {
    const map = new Map<string, unknown>()
    let alarm = 0
    const storage = {
      get: async (k: string) => map.get(k) as never,
      put: async (k: string, v: unknown) => void map.set(k, v),
      deleteAll: async () => map.clear(),
      setAlarm: async (t: number) => {
        alarm = t
      },
    }
    const object = new PalisadeStoreObject({ storage })
    const consume = { algorithm: 'sliding-window', limits: [{ max: 5, windowMs: 400 }], cost: 1 }
    expect((await object.fetch(post('increment', '{"windowMs":50}'))).status).toBe(200)
    expect((await object.fetch(post('rate/consume', JSON.stringify(consume)))).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 120))
    // The fixed window is over, the sliding window of consume still counts: kept, alarm moved on.
    await object.alarm()
    expect([...map.keys()].sort()).toEqual(['consumed', 'record'])
    expect(alarm).toBeGreaterThan(Date.now())
    await new Promise((resolve) => setTimeout(resolve, alarm - Date.now() + 20))
    await object.alarm()
    expect(map.size).toBe(0)
  })
})
