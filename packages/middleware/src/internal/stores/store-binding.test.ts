import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { apiKey } from '../../api-key/api-key'
import { MemoryApiKeyStore } from '../../api-key/memory-store'
import type { ApiKeyStore } from '../../api-key/store'
import { rateLimit } from '../../rate-limit/rate-limit'
import type { RateLimitStore } from '../../rate-limit/store'
import { sessions } from '../../sessions/sessions'
import type { SessionStore } from '../../sessions/store'
import { ContextBinding, storeFor } from './store-binding'

type Env = { TENANT: string }

describe('storeFor and ContextBinding', () => {
  it('uses a store without forContext as it is, and asks one with it', () => {
    const plain = { validate: async () => null }
    const c = { env: { TENANT: 'a' } } as never
    expect(storeFor(plain, c)).toBe(plain)
    const bound = { validate: async () => null }
    expect(storeFor({ ...plain, forContext: () => bound }, c)).toBe(bound)
  })

  it('builds one store per resolved handle and refuses a handle that is not an object', () => {
    const handles = { a: { name: 'a' }, b: { name: 'b' } }
    const binding = new ContextBinding<{ name: string }, { on: string }>(
      'TestStore',
      'a test handle',
      (c: { env: { H: keyof typeof handles } }) => handles[c.env.H],
    )
    const self = { on: 'self' }
    const make = (h: { name: string }) => ({ on: h.name })
    const onA = binding.bind({ env: { H: 'a' } } as never, self, make)
    expect(onA).toEqual({ on: 'a' })
    expect(binding.bind({ env: { H: 'a' } } as never, self, make)).toBe(onA)
    expect(binding.bind({ env: { H: 'b' } } as never, self, make)).toEqual({ on: 'b' })
    expect(() => binding.bind({ env: {} } as never, self, make)).toThrow(
      'TestStore: the resolver returned undefined, not a test handle',
    )
    const direct = new ContextBinding<{ name: string }, { on: string }>(
      'TestStore',
      'a test handle',
      handles.a,
    )
    expect(direct.resolves).toBe(false)
    expect(direct.bind({} as never, self, make)).toBe(self)
  })
})

describe('middleware bind their store to the request (forContext)', () => {
  // One module-scope middleware serving two tenants: each request's env picks the store.
  const counts = new Map<string, number>()
  const tenantStore = (tenant: string): RateLimitStore => ({
    async increment(key) {
      const n = (counts.get(`${tenant}:${key}`) ?? 0) + 1
      counts.set(`${tenant}:${key}`, n)
      return { count: n, ttl: 60_000 }
    },
  })
  const byTenant = new Map(['a', 'b'].map((t) => [t, tenantStore(t)]))
  const resolving: RateLimitStore = {
    increment: () => Promise.reject(new Error('not bound')),
    forContext: (c) => byTenant.get((c.env as Env).TENANT) as RateLimitStore,
  }

  it('rateLimit counts in the store forContext(c) returns', async () => {
    const app = new Hono<{ Bindings: Env }>()
    app.use(rateLimit({ max: 1, store: resolving, keyGenerator: () => 'k' }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/', {}, { TENANT: 'a' })).status).toBe(200)
    expect((await app.request('/', {}, { TENANT: 'b' })).status).toBe(200)
    expect((await app.request('/', {}, { TENANT: 'a' })).status).toBe(429)
    expect(counts.get('a:k')).toBe(2)
    expect(counts.get('b:k')).toBe(1)
  })

  it('apiKey validates in the store forContext(c) returns', async () => {
    const keys = new MemoryApiKeyStore()
    await keys.add('key-for-tenant-a-0123456789')
    const store: ApiKeyStore = {
      validate: () => Promise.reject(new Error('not bound')),
      forContext: (c) => ((c.env as Env).TENANT === 'a' ? keys : new MemoryApiKeyStore()),
    }
    const app = new Hono<{ Bindings: Env }>()
    app.use(apiKey({ store }))
    app.get('/', (c) => c.text('ok'))
    const headers = { 'x-api-key': 'key-for-tenant-a-0123456789' }
    expect((await app.request('/', { headers }, { TENANT: 'a' })).status).toBe(200)
    expect((await app.request('/', { headers }, { TENANT: 'b' })).status).toBe(401)
    keys.destroy()
  })

  it('sessions answers 503 when forContext(c) throws (a binding that is missing)', async () => {
    const store: SessionStore = {
      get: async () => null,
      set: async () => {},
      destroy: async () => {},
      forContext: () => {
        throw new TypeError('the resolver returned undefined')
      },
    }
    const app = new Hono()
    app.use(sessions({ secret: 'a-session-secret-of-32-characters!!', store }))
    app.get('/', (c) => c.text('ok'))
    const res = await app.request('/')
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('Session store unavailable')
  })
})
