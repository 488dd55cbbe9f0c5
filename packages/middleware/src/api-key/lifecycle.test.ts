import fc from 'fast-check'
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { rateLimit } from '../rate-limit'
import { crc32 } from './format'
import {
  type ApiKeyInfo,
  type ApiKeyStore,
  apiKey,
  apiKeyLimit,
  createApiKey,
  generateApiKey,
  isWellFormedApiKey,
  MemoryApiKeyStore,
} from './index'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A real memory store whose validate calls are counted. */
function counted(store: MemoryApiKeyStore): ApiKeyStore & { calls: number } {
  const wrapper = {
    calls: 0,
    validate(key: string) {
      wrapper.calls++
      return store.validate(key)
    },
  }
  return wrapper
}

function appWith(store: ApiKeyStore, options: Partial<Parameters<typeof apiKey>[0]> = {}) {
  const app = new Hono()
  app.use('/api/*', apiKey({ store, prefix: 'pal_live', ...options }))
  app.get('/api/who', (c) => c.json(c.get('apiKey')))
  return app
}

const codeOf = async (res: Response) => {
  const text = await res.text()
  return { status: res.status, text }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the key format', () => {
  it('computes the standard CRC-32 (check value of "123456789")', () => {
    expect(crc32('123456789')).toBe(0xcbf43926)
    expect(crc32('')).toBe(0)
  })

  it('is <prefix>_<30 base62><6 base62 checksum>, and each key is new', () => {
    const a = generateApiKey('pal_live')
    expect(a).toMatch(/^pal_live_[0-9A-Za-z]{36}$/)
    expect(generateApiKey('pal_live')).not.toBe(a)
    expect(isWellFormedApiKey(a, ['pal_live'])).toBe(true)
  })

  it.each([
    ['an empty prefix', ''],
    ['a trailing underscore', 'pal_'],
    ['a double underscore', 'pal__live'],
    ['a leading digit', '1pal'],
    ['a dash', 'pal-live'],
    ['33 characters', 'a'.repeat(33)],
  ])('refuses a prefix with %s', (_label, prefix) => {
    expect(() => generateApiKey(prefix)).toThrow(TypeError)
  })

  it('refuses every single-character change of a key (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 35 }),
        fc.constantFrom(...BASE62),
        (position, replacement) => {
          const key = generateApiKey('pal_live')
          const at = 'pal_live_'.length + position
          fc.pre(key[at] !== replacement)
          const typo = key.slice(0, at) + replacement + key.slice(at + 1)
          expect(isWellFormedApiKey(typo, ['pal_live'])).toBe(false)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('refuses arbitrary strings, and accepts 36 base62 only with the right CRC (property)', () => {
    const checksum = (body: string) => {
      let n = crc32(body)
      let out = ''
      for (let i = 0; i < 6; i++, n = Math.floor(n / 62)) out = BASE62[n % 62] + out
      return out
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        fc.pre(!/^[0-9A-Za-z]{36}$/.test(s))
        expect(isWellFormedApiKey(`pal_live_${s}`, ['pal_live'])).toBe(false)
      }),
    )
    const base62 = fc.string({ unit: fc.constantFrom(...BASE62), minLength: 36, maxLength: 36 })
    fc.assert(
      fc.property(base62, (tail) => {
        const body = tail.slice(0, 30)
        expect(isWellFormedApiKey(`pal_live_${tail}`, ['pal_live'])).toBe(
          tail.slice(30) === checksum(body),
        )
        expect(isWellFormedApiKey(`pal_live_${body}${checksum(body)}`, ['pal_live'])).toBe(true)
      }),
    )
  })

  it('refuses a key of another prefix, even a well-formed one', () => {
    const test = generateApiKey('pal_test')
    expect(isWellFormedApiKey(test, ['pal_live'])).toBe(false)
    expect(isWellFormedApiKey(test, ['pal_live', 'pal_test'])).toBe(true)
    // The prefix is everything before the last underscore.
    expect(isWellFormedApiKey(test.replace('pal_test_', 'pal_live_'), ['pal_live'])).toBe(true)
  })
})

describe('apiKey with a prefix: refused without a store call', () => {
  it.each([
    ['a bad checksum', (k: string) => `${k.slice(0, -1)}${k.endsWith('0') ? '1' : '0'}`],
    [
      'a typo in the body',
      (k: string) => `${k.slice(0, 12)}${k[12] === 'a' ? 'b' : 'a'}${k.slice(13)}`,
    ],
    ['another prefix', (k: string) => k.replace('pal_live_', 'pal_test_')],
    ['no prefix', (k: string) => k.slice('pal_live_'.length)],
    ['a character appended', (k: string) => `${k}a`],
    ['a space inside', (k: string) => `${k.slice(0, 20)} ${k.slice(20)}`],
    ['an oversized key', (k: string) => `${k}${'a'.repeat(5000)}`],
    ['the key twice in one header', (k: string) => `${k}, ${k}`],
  ])('%s', async (_label, change) => {
    const memory = new MemoryApiKeyStore()
    const { key } = await createApiKey({ store: memory, prefix: 'pal_live' })
    const store = counted(memory)
    const app = appWith(store)
    expect((await app.request('/api/who', { headers: { 'x-api-key': key } })).status).toBe(200)
    expect(store.calls).toBe(1)
    const res = await app.request('/api/who', { headers: { 'x-api-key': change(key) } })
    expect(await codeOf(res)).toEqual({ status: 401, text: 'Invalid API key' })
    expect(store.calls).toBe(1)
  })

  it('refuses a duplicated X-API-Key header (the two values arrive joined)', async () => {
    const memory = new MemoryApiKeyStore()
    const { key } = await createApiKey({ store: memory, prefix: 'pal_live' })
    const store = counted(memory)
    const headers = new Headers()
    headers.append('x-api-key', key)
    headers.append('x-api-key', key)
    const res = await appWith(store).request('/api/who', { headers })
    expect(res.status).toBe(401)
    expect(store.calls).toBe(0)
  })

  it('still asks the store for a well-formed key it does not hold (401)', async () => {
    const memory = new MemoryApiKeyStore()
    const store = counted(memory)
    const res = await appWith(store).request('/api/who', {
      headers: { 'x-api-key': generateApiKey('pal_live') },
    })
    expect(res.status).toBe(401)
    expect(store.calls).toBe(1)
  })

  it('refuses a bad prefix option at construction', () => {
    const store = new MemoryApiKeyStore()
    expect(() => apiKey({ store, prefix: 'pal-live' })).toThrow(TypeError)
    expect(() => apiKey({ store, prefix: [] })).toThrow(TypeError)
    expect(() => apiKey({ store, scopes: ['a b'] })).toThrow(TypeError)
  })
})

describe('apiKey: the lifecycle', () => {
  it('puts the whole record in the context (id, scopes, limits, metadata, expiry)', async () => {
    const store = new MemoryApiKeyStore()
    const expiresAt = Date.now() + 60_000
    const { id, key } = await createApiKey({
      store,
      prefix: 'pal_live',
      scopes: ['read'],
      limits: { perMinute: 5 },
      metadata: { plan: 'free' },
      expiresAt,
    })
    const res = await appWith(store).request('/api/who', { headers: { 'x-api-key': key } })
    expect(await res.json()).toMatchObject({
      id,
      scopes: ['read'],
      limits: { perMinute: 5 },
      metadata: { plan: 'free' },
      expiresAt,
      prefix: 'pal_live',
    })
  })

  it('answers 401 api_key_expired once expiresAt has passed', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] })
    const store = new MemoryApiKeyStore()
    const { key } = await createApiKey({ store, prefix: 'pal_live', expiresAt: 1_001_000 })
    const app = appWith(store)
    const get = () => app.request('/api/who', { headers: { 'x-api-key': key } })
    expect((await get()).status).toBe(200)
    vi.setSystemTime(1_000_999)
    expect((await get()).status).toBe(200)
    vi.setSystemTime(1_001_000)
    expect(await codeOf(await get())).toEqual({ status: 401, text: 'API key expired' })
  })

  it('answers 401 api_key_revoked after revoke(id), and revoke reports unknown ids', async () => {
    const store = new MemoryApiKeyStore()
    const { id, key } = await createApiKey({ store, prefix: 'pal_live' })
    const app = appWith(store)
    const get = () => app.request('/api/who', { headers: { 'x-api-key': key } })
    expect((await get()).status).toBe(200)
    expect(await store.revoke(id)).toBe(true)
    expect(await codeOf(await get())).toEqual({ status: 401, text: 'API key revoked' })
    expect(await store.revoke('no-such-id')).toBe(false)
    await expect(store.rotate(id)).rejects.toThrow(/revoked/)
  })

  it('rotate keeps the id; the old key works for the overlap only; revoke stops both', async () => {
    vi.useFakeTimers({ now: 5_000_000, toFake: ['Date'] })
    const store = new MemoryApiKeyStore()
    const first = await createApiKey({ store, prefix: 'pal_live', scopes: ['read'] })
    const second = await store.rotate(first.id, { overlapMs: 1000 })
    expect(second.id).toBe(first.id)
    expect(second.key).not.toBe(first.key)
    expect(isWellFormedApiKey(second.key, ['pal_live'])).toBe(true)
    const app = appWith(store)
    const status = async (key: string) =>
      (await app.request('/api/who', { headers: { 'x-api-key': key } })).status
    expect([await status(first.key), await status(second.key)]).toEqual([200, 200])
    vi.setSystemTime(5_000_999)
    expect(await status(first.key)).toBe(200)
    vi.setSystemTime(5_001_000)
    expect([await status(first.key), await status(second.key)]).toEqual([401, 200])
    expect((await store.validate(second.key))?.scopes).toEqual(['read'])
    await store.revoke(first.id)
    expect(await status(second.key)).toBe(401)
  })

  it('answers 403 insufficient_scope when the key lacks a route scope', async () => {
    const store = new MemoryApiKeyStore()
    const reader = await createApiKey({ store, prefix: 'pal_live', scopes: ['read'] })
    const writer = await createApiKey({ store, prefix: 'pal_live', scopes: ['read', 'write'] })
    const bare = await createApiKey({ store, prefix: 'pal_live' })
    const app = appWith(store, { scopes: ['write'] })
    const status = async (key: string) =>
      (await app.request('/api/who', { headers: { 'x-api-key': key } })).status
    expect(await status(writer.key)).toBe(200)
    expect(await status(reader.key)).toBe(403)
    expect(await status(bare.key)).toBe(403)
  })

  it('writes lastUsedAt at most once a minute per key, after the answer', async () => {
    vi.useFakeTimers({ now: 10_000_000, toFake: ['Date'] })
    const store = new MemoryApiKeyStore()
    const { id, key } = await createApiKey({ store, prefix: 'pal_live' })
    const touches: number[] = []
    const touch = store.touch.bind(store)
    store.touch = async (k, at) => {
      touches.push(at)
      await touch(k, at)
    }
    const app = appWith(store)
    const get = () => app.request('/api/who', { headers: { 'x-api-key': key } })
    for (let i = 0; i < 5; i++) await get()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(touches).toEqual([10_000_000])
    expect((await store.get(id))?.lastUsedAt).toBe(10_000_000)
    vi.setSystemTime(10_059_999)
    await get()
    vi.setSystemTime(10_060_000)
    await get()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(touches).toEqual([10_000_000, 10_060_000])
    // Another process (a second middleware) sees the stored lastUsedAt and does not write.
    await appWith(store).request('/api/who', { headers: { 'x-api-key': key } })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(touches).toHaveLength(2)
  })

  it('does not write lastUsedAt with trackLastUsed: false', async () => {
    const store = new MemoryApiKeyStore()
    const { id, key } = await createApiKey({ store, prefix: 'pal_live' })
    await appWith(store, { trackLastUsed: false }).request('/api/who', {
      headers: { 'x-api-key': key },
    })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect((await store.get(id))?.lastUsedAt).toBeUndefined()
  })

  it("gives each key its plan's rate limit through apiKeyLimit", async () => {
    const store = new MemoryApiKeyStore()
    const free = await createApiKey({ store, prefix: 'pal_live', limits: { perMinute: 2 } })
    const pro = await createApiKey({ store, prefix: 'pal_live', limits: { perMinute: 4 } })
    const none = await createApiKey({ store, prefix: 'pal_live' })
    const app = new Hono()
    app.use('/api/*', apiKey({ store, prefix: 'pal_live' }))
    app.use(
      '/api/*',
      rateLimit({
        max: apiKeyLimit('perMinute', 3),
        keyGenerator: (c) => (c.get('apiKey') as ApiKeyInfo).id,
      }),
    )
    app.get('/api/x', (c) => c.text('ok'))
    const passed = async (key: string) => {
      let ok = 0
      for (let i = 0; i < 6; i++) {
        const res = await app.request('/api/x', { headers: { 'x-api-key': key } })
        if (res.status === 200) ok++
      }
      return ok
    }
    expect([await passed(free.key), await passed(pro.key), await passed(none.key)]).toEqual([
      2, 4, 3,
    ])
  })

  it('createApiKey checks its fields and never stores the plain key', async () => {
    const store = new MemoryApiKeyStore()
    await expect(createApiKey({ store, prefix: 'pal_live', expiresAt: -1 })).rejects.toThrow(
      /expiresAt/,
    )
    await expect(
      createApiKey({ store, prefix: 'pal_live', limits: { perMinute: 1.5 } }),
    ).rejects.toThrow(/limits\.perMinute/)
    await expect(
      createApiKey({ store: {} as MemoryApiKeyStore, prefix: 'pal_live' }),
    ).rejects.toThrow(/ApiKeyLifecycleStore/)
    expect(() => apiKeyLimit('x', 0)).toThrow(TypeError)
    const { id, key } = await createApiKey({ store, prefix: 'pal_live' })
    expect(JSON.stringify(await store.get(id))).not.toContain(key.slice('pal_live_'.length))
  })
})
