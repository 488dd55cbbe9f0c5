/**
 * The Durable Object stores inside workerd (miniflare), with a real Durable Object binding:
 * the conformance suite for all three stores (each method runs in the Worker), concurrency
 * leases, exactness of the rate limit through the Worker's own app, middleware built at module
 * scope on stores given a resolver (and their openapi document), and the stores' option checks.
 */
import type { ApiKeyLifecycleStore, ManagedApiKeyStore } from '@palisade/middleware/api-key'
import {
  DurableObjectApiKeyStore,
  DurableObjectConcurrencyStore,
  type DurableObjectNamespaceLike,
  DurableObjectRateLimitStore,
  DurableObjectSessionStore,
  PalisadeStoreObject,
} from '@palisade/middleware/cloudflare'
import type { NonceStore } from '@palisade/middleware/http-signature'
import type { IdempotencyStore } from '@palisade/middleware/idempotency'
import type { RateLimitStore } from '@palisade/middleware/rate-limit'
import type { SessionStore } from '@palisade/middleware/sessions'
import type { Context } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConcurrencyStore } from '../../packages/middleware/src/concurrency-limit/store'
import { apiKeyLifecycleConformance } from '../stores/api-key-lifecycle-conformance'
import { concurrencyStoreConformance } from '../stores/concurrency-conformance'
import {
  apiKeyStoreConformance,
  logoutRaceConformance,
  rateLimitStoreConformance,
  sessionStoreConformance,
} from '../stores/conformance'
import { raceConsume } from '../stores/consume-race'
import {
  concurrencyHostileConformance,
  rateLimitHostileConformance,
} from '../stores/hostile-conformance'
import { idempotencyStoreConformance } from '../stores/idempotency-conformance'
import { leaseCases } from '../stores/lease-cases'
import { nonceStoreConformance } from '../stores/nonce-conformance'
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
{
  const prefixes = new WeakMap<object, string>()
  apiKeyLifecycleConformance(
    'DurableObjectApiKeyStore (workerd)',
    () => {
      const prefix = fresh()
      const store = remoteStore<ApiKeyLifecycleStore>(worker, 'apiKey', prefix)
      prefixes.set(store, prefix)
      return store
    },
    // Another store over the same binding, built by another request.
    {
      peer: (store) =>
        remoteStore<ApiKeyLifecycleStore>(worker, 'apiKey', prefixes.get(store) ?? ''),
    },
  )
}
// Each call is an HTTP round trip to workerd: a longer lease keeps the timed cases (renew at 0.6,
// check at 1.2 leases) clear of the round trips' own delay on a loaded machine (one failed at
// the default 400 ms with three builds running beside it).
leaseCases(
  'DurableObjectConcurrencyStore (workerd)',
  () => remoteStore<ConcurrencyStore>(worker, 'concurrency', fresh()),
  { leaseMs: 1_500 },
)
concurrencyStoreConformance('DurableObjectConcurrencyStore (workerd)', () =>
  remoteStore<ConcurrencyStore>(worker, 'concurrency', fresh()),
)
// Each call is an HTTP round trip to workerd: locks of 1.5 s keep the expiry cases clear of it.
idempotencyStoreConformance(
  'DurableObjectIdempotencyStore (workerd)',
  () => remoteStore<IdempotencyStore>(worker, 'idempotency', fresh()),
  { lockMs: 1_500 },
)
rateLimitHostileConformance('DurableObjectRateLimitStore (workerd)', () =>
  remoteStore<RateLimitStore>(worker, 'rateLimit', fresh()),
)
concurrencyHostileConformance('DurableObjectConcurrencyStore (workerd)', () =>
  remoteStore<ConcurrencyStore>(worker, 'concurrency', fresh()),
)

nonceStoreConformance(
  'DurableObjectNonceStore (workerd)',
  () => remoteStore<NonceStore>(worker, 'nonce', fresh()),
  { ttlMs: 1_000 }, // each call is an HTTP round trip to workerd
)

describe('middleware built once at module scope, stores given a resolver (workerd)', () => {
  const get = (path: string, headers: Record<string, string> = {}) =>
    worker.fetch(path, { headers })

  it('keeps a session across requests through the resolved binding', async () => {
    const first = await get('/module/visits', { 'x-client': 'visits' })
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ visits: 1 })
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string
    expect(cookie).toMatch(/^sid=/)
    const second = await get('/module/visits', { 'x-client': 'visits', cookie })
    expect(await second.json()).toEqual({ visits: 2 })
  })

  it('counts one client over requests: max 3, the fourth is refused', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) {
      statuses.push((await get('/module/visits', { 'x-client': 'counted' })).status)
    }
    expect(statuses).toEqual([200, 200, 200, 429])
  })

  it('lets a client in again at once after a reset through forContext(c), deny cache included', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      statuses.push((await get('/module/visits', { 'x-client': 'reset-me' })).status)
    }
    // The fifth was refused from the deny cache (on by default for a Durable Object store).
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    const reset = await worker.fetch('/module-admin/reset', { method: 'POST', body: 'reset-me' })
    expect(await reset.text()).toBe('reset')
    expect((await get('/module/visits', { 'x-client': 'reset-me' })).status).toBe(200)
  })

  it('validates API keys added through forContext(c) in a handler', async () => {
    const key = `pk-${crypto.randomUUID()}`
    const added = await worker.fetch('/module-admin/keys', { method: 'POST', body: key })
    const { id } = (await added.json()) as { id: string }
    const ok = await get('/module/partner', { 'x-client': 'partner', 'x-api-key': key })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ id })
    const bad = await get('/module/partner', { 'x-client': 'partner', 'x-api-key': `${key}x` })
    expect(bad.status).toBe(401)
  })

  it('takes concurrency leases through forContext(c)', async () => {
    const acquire = async (lease: string) =>
      (
        await worker.fetch('/module-admin/lease', {
          method: 'POST',
          body: JSON.stringify({ key: 'module', lease, max: 1 }),
        })
      ).json()
    expect(await acquire('a')).toEqual({ acquired: true, inFlight: 1 })
    expect(await acquire('b')).toEqual({ acquired: false, inFlight: 1 })
  })

  it('answers 503 when the resolver finds no binding (the store failed), never a crash', async () => {
    const res = await get('/module-broken')
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('Rate limit store unavailable')
  })

  it("documents the module-scope middleware's answers in the openapi document", async () => {
    const doc = (await (await get('/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, unknown>; security?: unknown }>
      >
    }
    const visits = doc.paths['/module/visits']?.get
    const partner = doc.paths['/module/partner']?.get
    // rateLimit: 429, and 503 because a Durable Object store can fail; sessions: 503 likewise.
    expect(Object.keys(visits?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '429', '503']),
    )
    expect(Object.keys(partner?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '401', '429', '503']),
    )
    expect(partner?.security).toEqual([{ apiKeyHeader: [] }])
  })
})

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

  it('accepts a resolver: forContext(c) gives the store on the binding, once per binding', async () => {
    const names: string[] = []
    const recording: DurableObjectNamespaceLike = {
      idFromName: (name) => {
        names.push(name)
        return name
      },
      get: () => ({ fetch: async () => Response.json({ count: 1, ttl: 1000 }) }),
    }
    const store = new DurableObjectRateLimitStore({
      namespace: (c: Context) => c.env.PALISADE,
      prefix: 'p:',
    })
    const c = { env: { PALISADE: recording } } as unknown as Context
    const bound = store.forContext(c)
    expect(bound).toBeInstanceOf(DurableObjectRateLimitStore)
    expect(store.forContext({ env: { PALISADE: recording } } as unknown as Context)).toBe(bound)
    expect(await bound.increment('k', 1000)).toEqual({ count: 1, ttl: 1000 })
    // The prefix carries over to the bound store.
    expect(names).toEqual(['p:k'])
    // Built with a binding, forContext is the store itself.
    const direct = new DurableObjectSessionStore({ namespace: recording })
    expect(direct.forContext(c)).toBe(direct)
  })

  it('refuses to run a resolver-built store without the request, with a clear message', async () => {
    const store = new DurableObjectConcurrencyStore({ namespace: () => namespace })
    await expect(store.acquire('k', 'a', 1, 1000)).rejects.toThrow(
      /^DurableObjectConcurrencyStore: built with a resolver, so it needs the request: use store\.forContext\(c\)/,
    )
    const keys = new DurableObjectApiKeyStore({ namespace: () => namespace })
    await expect(keys.validate('k')).rejects.toThrow(/forContext/)
  })

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'PALISADE'],
  ])('throws a TypeError from forContext when the resolver returns %s', (_label, value) => {
    const store = new DurableObjectRateLimitStore({ namespace: () => value as never })
    expect(() => store.forContext({ env: {} } as unknown as Context)).toThrow(
      /^DurableObjectRateLimitStore: the resolver returned \w+, not a Durable Object namespace binding$/,
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
      delete: async (k: string) => map.delete(k),
      deleteAll: async () => map.clear(),
      setAlarm: async () => {},
    }
  }
  /** In-memory storage that remembers the last alarm set. */
  const recordingStorage = () => {
    const map = new Map<string, unknown>()
    let last = 0
    const storage = {
      get: async (k: string) => map.get(k) as never,
      put: async (k: string, v: unknown) => void map.set(k, v),
      delete: async (k: string) => map.delete(k),
      deleteAll: async () => map.clear(),
      setAlarm: async (t: number) => {
        last = t
      },
    }
    return { map, storage, alarm: () => last }
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
    ['a lease acquire without max', post('lease/acquire', '{"lease":"a","leaseMs":1000}'), 400],
    ['an empty lease id', post('lease/acquire', '{"lease":"","max":1,"leaseMs":1000}'), 400],
    ['a renew without leaseMs', post('lease/renew', '{"lease":"a"}'), 400],
    ['a release of a non-string lease', post('lease/release', '{"lease":7}'), 400],
  ])('answers %s with a 4xx, never a crash', async (_label, request, status) => {
    const object = new PalisadeStoreObject({ storage: memoryStorage() })
    expect((await object.fetch(request)).status).toBe(status)
  })
  it("alarm deletes a key's rate-limit state once all of it has expired, not before", async () => {
    const { map, storage, alarm } = recordingStorage()
    const object = new PalisadeStoreObject({ storage })
    const consume = { algorithm: 'sliding-window', limits: [{ max: 5, windowMs: 400 }], cost: 1 }
    expect((await object.fetch(post('increment', '{"windowMs":50}'))).status).toBe(200)
    expect((await object.fetch(post('rate/consume', JSON.stringify(consume)))).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 120))
    // The fixed window is over, the sliding window of consume still counts: kept, alarm moved on.
    await object.alarm()
    expect([...map.keys()].sort()).toEqual(['consumed', 'record'])
    expect(alarm()).toBeGreaterThan(Date.now())
    await new Promise((resolve) => setTimeout(resolve, alarm() - Date.now() + 20))
    await object.alarm()
    expect(map.size).toBe(0)
  })

  it("keeps a key's leases in one record, a lease id like __proto__ included, and deletes it when empty", async () => {
    const { map, storage, alarm } = recordingStorage()
    const object = new PalisadeStoreObject({ storage })
    const call = async (op: string, body: object) =>
      (await object.fetch(post(op, JSON.stringify(body)))).json()
    expect(await call('lease/acquire', { lease: '__proto__', max: 2, leaseMs: 5000 })).toEqual({
      acquired: true,
      inFlight: 1,
    })
    expect(await call('lease/acquire', { lease: 'constructor', max: 2, leaseMs: 9000 })).toEqual({
      acquired: true,
      inFlight: 2,
    })
    expect(await call('lease/acquire', { lease: 'x', max: 2, leaseMs: 5000 })).toEqual({
      acquired: false,
      inFlight: 2,
    })
    // The alarm is set for the last expiry, so a dead key's storage is deleted after it.
    expect(alarm()).toBeGreaterThan(Date.now() + 8000)
    expect(await call('lease/renew', { lease: '__proto__', leaseMs: 5000 })).toEqual({
      renewed: true,
    })
    await call('lease/release', { lease: '__proto__' })
    await call('lease/release', { lease: 'constructor' })
    expect(map.size).toBe(0)
  })
})
