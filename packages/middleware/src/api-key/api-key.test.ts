import { Hono } from 'hono'
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import {
  type ApiKeyInfo,
  type ApiKeyOptions,
  type ApiKeyStore,
  apiKey,
  MemoryApiKeyStore,
} from './index'

const KEY = 'pk_live_0123456789abcdef'

async function setup(options: Partial<ApiKeyOptions> = {}) {
  const store = new MemoryApiKeyStore()
  const id = await store.add(KEY, { partner: 'acme' })
  const app = new Hono()
  app.use('/api/*', apiKey({ store, ...options }))
  app.get('/api/who', (c) => c.json(c.get('apiKey') ?? null))
  app.get('/api/custom', (c) => c.json((c.get('client' as 'apiKey') as unknown) ?? null))
  return { app, store, id }
}

async function expectRejected(res: Response) {
  expect(res.status).toBe(401)
  expect(await res.text()).toBe('Invalid API key')
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('apiKey: extraction', () => {
  it('accepts a valid key in X-API-Key and exposes { id, metadata } as apiKey', async () => {
    const { app, id } = await setup()
    const res = await app.request('/api/who', { headers: { 'X-API-Key': KEY } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ id, metadata: { partner: 'acme' } })
  })

  it('reads the header name case-insensitively', async () => {
    const { app } = await setup()
    expect((await app.request('/api/who', { headers: { 'x-api-key': KEY } })).status).toBe(200)
  })

  it('ignores the query parameter by default (header only)', async () => {
    const { app } = await setup()
    await expectRejected(await app.request(`/api/who?api_key=${KEY}`))
  })

  it('reads only the query parameter with extractFrom: query', async () => {
    const { app } = await setup({ extractFrom: 'query' })
    expect((await app.request(`/api/who?api_key=${KEY}`)).status).toBe(200)
    await expectRejected(await app.request('/api/who', { headers: { 'X-API-Key': KEY } }))
  })

  it('reads either with extractFrom: both, and the header wins when present', async () => {
    const { app } = await setup({ extractFrom: 'both' })
    expect((await app.request(`/api/who?api_key=${KEY}`)).status).toBe(200)
    expect((await app.request('/api/who', { headers: { 'X-API-Key': KEY } })).status).toBe(200)
    const wrongHeader = await app.request(`/api/who?api_key=${KEY}`, {
      headers: { 'X-API-Key': 'wrong' },
    })
    await expectRejected(wrongHeader)
  })

  it('falls back to the query with extractFrom: both when the header is empty', async () => {
    const { app } = await setup({ extractFrom: 'both' })
    const res = await app.request(`/api/who?api_key=${KEY}`, { headers: { 'X-API-Key': '' } })
    expect(res.status).toBe(200)
  })

  it('uses custom headerName, queryParam and contextKey', async () => {
    const { app, id } = await setup({
      extractFrom: 'both',
      headerName: 'Authorization-Key',
      queryParam: 'key',
      contextKey: 'client',
    })
    const byHeader = await app.request('/api/custom', { headers: { 'Authorization-Key': KEY } })
    expect(await byHeader.json()).toEqual({ id, metadata: { partner: 'acme' } })
    expect((await app.request(`/api/custom?key=${KEY}`)).status).toBe(200)
    await expectRejected(await app.request('/api/custom', { headers: { 'X-API-Key': KEY } }))
  })

  it('decodes a percent-encoded query key', async () => {
    const store = new MemoryApiKeyStore()
    await store.add('a+b/c=')
    const app = new Hono()
    app.use(apiKey({ store, extractFrom: 'query' }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request(`/?api_key=${encodeURIComponent('a+b/c=')}`)).status).toBe(200)
  })
})

describe('apiKey: rejections', () => {
  it.each([
    ['no key', {}],
    ['an empty header', { 'X-API-Key': '' }],
    ['a wrong key', { 'X-API-Key': 'pk_live_wrong' }],
    ['the key with a trailing character', { 'X-API-Key': `${KEY}x` }],
    ['a prefix of the key', { 'X-API-Key': KEY.slice(0, -1) }],
    ['the key in another case', { 'X-API-Key': KEY.toUpperCase() }],
    ['the key in another header', { 'X-Api-Token': KEY }],
  ])('answers 401 Invalid API key for %s', async (_, headers) => {
    const { app } = await setup()
    await expectRejected(await app.request('/api/who', { headers }))
  })

  it('answers 401 for an empty query parameter', async () => {
    const { app } = await setup({ extractFrom: 'query' })
    await expectRejected(await app.request('/api/who?api_key='))
  })

  it('rejects an oversized key without asking the store', async () => {
    const validate = vi.fn(async () => ({ id: 'x' }))
    const app = new Hono()
    app.use(apiKey({ store: { validate } }))
    app.get('/', (c) => c.text('ok'))
    await expectRejected(await app.request('/', { headers: { 'X-API-Key': 'k'.repeat(4097) } }))
    expect(validate).not.toHaveBeenCalled()
  })

  it('no longer accepts a removed key', async () => {
    const { app, store } = await setup()
    expect(await store.remove(KEY)).toBe(true)
    await expectRejected(await app.request('/api/who', { headers: { 'X-API-Key': KEY } }))
  })

  it('answers 503 when the store throws, without the key in body or logs', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const store: ApiKeyStore = {
      validate: async (key) => {
        throw new Error(`lookup failed for ${key}`)
      },
    }
    const app = new Hono()
    app.use(apiKey({ store }))
    app.get('/', (c) => c.text('ok'))
    const res = await app.request('/', { headers: { 'X-API-Key': KEY } })
    expect(res.status).toBe(503)
    const body = await res.text()
    expect(body).toBe('API key store unavailable')
    for (const spy of [warn, error]) {
      for (const call of spy.mock.calls) expect(JSON.stringify(call)).not.toContain(KEY)
    }
  })

  it('treats a store answer without an id as invalid', async () => {
    const app = new Hono()
    app.use(apiKey({ store: { validate: async () => ({}) as never } }))
    app.get('/', (c) => c.text('ok'))
    await expectRejected(await app.request('/', { headers: { 'X-API-Key': KEY } }))
  })

  it('does not run the handler on rejection', async () => {
    const handler = vi.fn((c) => c.text('ok'))
    const app = new Hono()
    app.use(apiKey({ store: new MemoryApiKeyStore() }))
    app.get('/', handler)
    await app.request('/', { headers: { 'X-API-Key': KEY } })
    expect(handler).not.toHaveBeenCalled()
  })

  it('never writes a presented key, valid or not, to the console', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => {}),
    )
    const { app, store } = await setup({ extractFrom: 'both' })
    const wrong = 'pk_live_wrong_secret_value'
    await app.request('/api/who', { headers: { 'X-API-Key': KEY } })
    await app.request('/api/who', { headers: { 'X-API-Key': wrong } })
    await app.request(`/api/who?api_key=${wrong}`)
    await app.request('/api/who', { headers: { 'X-API-Key': 'k'.repeat(4097) } })
    await store.remove(KEY)
    await app.request('/api/who', { headers: { 'X-API-Key': KEY } })
    for (const spy of spies) {
      for (const call of spy.mock.calls) {
        const text = JSON.stringify(call)
        expect(text).not.toContain(KEY)
        expect(text).not.toContain(wrong)
      }
    }
  })
})

describe('apiKey: context type', () => {
  it('types apiKey in the context as { id, metadata? }', async () => {
    const { app } = await setup()
    app.get('/api/typed', (c) => {
      const info = c.get('apiKey')
      expectTypeOf(info).toEqualTypeOf<ApiKeyInfo>()
      expectTypeOf(info.id).toEqualTypeOf<string>()
      expectTypeOf(info.metadata).toEqualTypeOf<Record<string, unknown> | undefined>()
      return c.text(`${info.id}:${String(info.metadata?.partner)}`)
    })
    const res = await app.request('/api/typed', { headers: { 'X-API-Key': KEY } })
    expect(await res.text()).toMatch(/^.+:acme$/)
  })
})

describe('apiKey: options', () => {
  const store = new MemoryApiKeyStore()
  it.each([
    ['no options', undefined, /"store" is required/],
    ['no store', {}, /"store" must be an ApiKeyStore/],
    ['a store without validate', { store: {} }, /"store" must be an ApiKeyStore/],
    ['an unknown extractFrom', { store, extractFrom: 'cookie' }, /extractFrom/],
    ['an empty headerName', { store, headerName: '' }, /headerName/],
    ['a headerName with a space', { store, headerName: 'X Key' }, /headerName/],
    ['an empty queryParam', { store, queryParam: '' }, /queryParam/],
    ['an empty contextKey', { store, contextKey: '' }, /contextKey/],
    ['a typo', { store, header: 'X-Key' }, /unknown option "header"/],
  ])('throws a TypeError at construction for %s', (_, options, message) => {
    expect(() => apiKey(options as unknown as ApiKeyOptions)).toThrow(TypeError)
    expect(() => apiKey(options as unknown as ApiKeyOptions)).toThrow(message)
  })
})
