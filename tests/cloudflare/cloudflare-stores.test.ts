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

rateLimitStoreConformance('DurableObjectRateLimitStore (workerd)', () =>
  remoteStore<RateLimitStore>(worker, 'rateLimit', fresh()),
)
sessionStoreConformance('DurableObjectSessionStore (workerd)', () =>
  remoteStore<SessionStore>(worker, 'session', fresh()),
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
  ])('answers %s with a 4xx, never a crash', async (_label, request, status) => {
    const object = new PalisadeStoreObject({ storage: memoryStorage() })
    expect((await object.fetch(request)).status).toBe(status)
  })
})
