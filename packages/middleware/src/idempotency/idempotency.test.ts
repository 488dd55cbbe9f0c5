import { type Context, Hono } from 'hono'
import { stream } from 'hono/streaming'
import { describe, expect, it } from 'vitest'
import { apiKey, MemoryApiKeyStore } from '../api-key'
import { problemHandler } from '../problem-details/problem-details'
import type { IdempotencyOptions } from './config'
import { idempotency } from './idempotency'
import { MemoryIdempotencyStore } from './memory-store'

const KEY = '"8e03978e-40d5-43e8-bc93-6894a57f9324"'

/** An app whose POST /orders counts its runs and answers 201 with a fresh id. */

function post(
  app: Hono,
  body: unknown,
  headers: Record<string, string> = { 'idempotency-key': KEY },
) {
  return app.request('/orders', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  })
}

function withKey(options: IdempotencyOptions = {}) {
  const app = new Hono()
  app.onError(problemHandler())
  let runs = 0
  app.post('/orders', idempotency(options), async (c) => {
    runs++
    const body = await c.req.json()
    c.header('location', `/orders/${runs}`)
    c.header('x-other', 'not replayed')
    return c.json({ id: runs, item: body.item, at: Math.random() }, 201)
  })
  return { app, runs: () => runs }
}

describe('idempotency', () => {
  it('runs the handler once and replays the stored answer byte for byte, with Idempotent-Replayed', async () => {
    const { app, runs } = withKey()
    const first = await post(app, { item: 'book' })
    const firstBody = new Uint8Array(await first.arrayBuffer())
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const again = await post(app, { item: 'book' })
    expect(again.status).toBe(201)
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(firstBody)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.headers.get('location')).toBe('/orders/1')
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'))
    expect(again.headers.get('x-other')).toBeNull()
    expect(runs()).toBe(1)
  })

  it('lets the handler read the body the fingerprint was taken from', async () => {
    const { app } = withKey()
    const res = await post(app, { item: 'pen' })
    expect((await res.json()).item).toBe('pen')
  })

  it('lets the handler read c.req.raw too', async () => {
    const app = new Hono()
    app.post('/raw', idempotency(), async (c) => c.text(await c.req.raw.text()))
    const res = await app.request('/raw', {
      method: 'POST',
      body: 'raw bytes',
      headers: { 'idempotency-key': KEY },
    })
    expect(await res.text()).toBe('raw bytes')
  })

  it('answers 422 idempotency_key_reused for the same key with another body, path or query', async () => {
    const { app, runs } = withKey()
    await (await post(app, { item: 'book' })).text()
    const other = await post(app, { item: 'car' })
    expect(other.status).toBe(422)
    expect((await other.json()).code).toBe('idempotency_key_reused')
    const query = await app.request('/orders?x=1', {
      method: 'POST',
      body: JSON.stringify({ item: 'book' }),
      headers: { 'content-type': 'application/json', 'idempotency-key': KEY },
    })
    expect(query.status).toBe(422)
    expect(runs()).toBe(1)
  })

  it('50 concurrent requests with one key run the handler once; the others get 409 or the replay', async () => {
    const app = new Hono()
    let runs = 0
    app.post('/pay', idempotency(), async (c) => {
      runs++
      await new Promise((r) => setTimeout(r, 20))
      return c.json({ paid: runs })
    })
    const all = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.request('/pay', { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }),
      ),
    )
    expect(runs).toBe(1)
    const statuses = all.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(
      1 + all.filter((r) => r.headers.get('idempotent-replayed')).length,
    )
    for (const r of all) {
      if (r.status === 409) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      } else expect(await r.json()).toEqual({ paid: 1 })
    }
    expect(statuses.filter((s) => s === 409).length).toBeGreaterThan(0)
  })

  it('releases the key when the handler throws or answers 5xx, so a retry runs again', async () => {
    const app = new Hono()
    let runs = 0
    app.post('/flaky', idempotency(), (c) => {
      runs++
      if (runs === 1) throw new Error('boom')
      if (runs === 2) return c.text('down', 503)
      return c.text('done', 201)
    })
    const init = { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }
    expect((await app.request('/flaky', init)).status).toBe(500)
    expect((await app.request('/flaky', init)).status).toBe(503)
    const third = await app.request('/flaky', init)
    expect(third.status).toBe(201)
    // The answer is stored once its body has been read to the end (as a server sends it).
    expect(await third.text()).toBe('done')
    const replayed = await app.request('/flaky', init)
    expect(replayed.status).toBe(201)
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    expect(runs).toBe(3)
  })

  it('stores 4xx answers, as the draft recommends', async () => {
    const app = new Hono()
    let runs = 0
    app.post('/v', idempotency(), (c) => {
      runs++
      return c.json({ error: 'no stock' }, 409)
    })
    const init = { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }
    await (await app.request('/v', init)).text()
    const again = await app.request('/v', init)
    expect(again.status).toBe(409)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(runs).toBe(1)
  })

  it.each([
    ['empty', '""'],
    ['a token, not a string', '8e03978e-40d5'],
    ['an integer', '123'],
    ['unterminated', '"abc'],
    ['too long', `"${'a'.repeat(256)}"`],
    ['duplicated header (joined by a comma)', '"a", "b"'],
    ['a non-ASCII character', '"caf\u00e9"'],
    ['a list', '"a" "b"'],
    ['a byte sequence', ':aGVsbG8=:'],
  ])(
    'refuses a malformed key (%s) with 400 idempotency_key_invalid and a message',
    async (_, value) => {
      const { app, runs } = withKey()
      const res = await post(app, { item: 'x' }, { 'idempotency-key': value })
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body.code).toBe('idempotency_key_invalid')
      expect(body.detail).toMatch(/Idempotency-Key/)
      expect(runs()).toBe(0)
    },
  )

  it('accepts 255 characters, escapes and parameters (ignored)', async () => {
    const { app } = withKey()
    const long = await post(app, { item: 'x' }, { 'idempotency-key': `"${'a'.repeat(255)}"` })
    expect(long.status).toBe(201)
    await long.text()
    expect((await post(app, { item: 'x' }, { 'idempotency-key': '"a\\"b\\\\c"' })).status).toBe(201)
    const withParam = await post(
      app,
      { item: 'x' },
      { 'idempotency-key': `"${'a'.repeat(255)}";v=1` },
    )
    expect(withParam.headers.get('idempotent-replayed')).toBe('true')
  })

  it('duplicated Idempotency-Key header lines are refused (joined by Headers)', async () => {
    const { app } = withKey()
    const headers = new Headers({ 'content-type': 'application/json' })
    headers.append('idempotency-key', KEY)
    headers.append('idempotency-key', KEY)
    const res = await app.request('/orders', { method: 'POST', body: '{}', headers })
    expect(res.status).toBe(400)
  })

  it('without a key: passes by default, 400 idempotency_key_missing with required', async () => {
    const open = withKey()
    expect((await post(open.app, { item: 'x' }, {})).status).toBe(201)
    expect((await post(open.app, { item: 'x' }, {})).status).toBe(201)
    expect(open.runs()).toBe(2)
    const strict = withKey({ required: true })
    const res = await post(strict.app, { item: 'x' }, {})
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('idempotency_key_missing')
  })

  it('only acts on its methods', async () => {
    const app = new Hono()
    let runs = 0
    app.put('/x', idempotency(), (c) => c.text(String(++runs)))
    const init = { method: 'PUT', headers: { 'idempotency-key': 'not even valid' } }
    expect(await (await app.request('/x', init)).text()).toBe('1')
    expect(await (await app.request('/x', init)).text()).toBe('2')
  })

  it('scopes keys per client: two API keys may use the same Idempotency-Key', async () => {
    const keys = new MemoryApiKeyStore()
    await keys.add('secret-a'.padEnd(32, 'a'), { id: 'a' } as never)
    await keys.add('secret-b'.padEnd(32, 'b'), { id: 'b' } as never)
    const app = new Hono()
    let runs = 0
    app.post('/o', apiKey({ store: keys }), idempotency(), (c) => c.text(`run ${++runs}`))
    const as = (k: string) =>
      app.request('/o', {
        method: 'POST',
        body: 'x',
        headers: { 'x-api-key': k, 'idempotency-key': KEY },
      })
    expect(await (await as('secret-a'.padEnd(32, 'a'))).text()).toBe('run 1')
    expect(await (await as('secret-b'.padEnd(32, 'b'))).text()).toBe('run 2')
    expect(await (await as('secret-a'.padEnd(32, 'a'))).text()).toBe('run 1')
  })

  it('a custom scope and fingerprint are used', async () => {
    const app = new Hono()
    let runs = 0
    app.post(
      '/o',
      idempotency({ scope: (c) => c.req.header('x-tenant') ?? '', fingerprint: () => 'same' }),
      (c) => c.text(`run ${++runs}`),
    )
    const as = (tenant: string, body: string) =>
      app.request('/o', {
        method: 'POST',
        body,
        headers: { 'x-tenant': tenant, 'idempotency-key': KEY },
      })
    expect(await (await as('t1', 'a')).text()).toBe('run 1')
    expect(await (await as('t1', 'b')).text()).toBe('run 1')
    expect(await (await as('t2', 'a')).text()).toBe('run 2')
  })

  it('an async scope is awaited: keys stay apart per tenant', async () => {
    const app = new Hono()
    let runs = 0
    const scope = async (c: Context) => `tenant:${c.req.header('x-tenant')}`
    app.post('/o', idempotency({ scope }), (c) => c.text(`run ${++runs}`))
    const as = (tenant: string) =>
      app.request('/o', {
        method: 'POST',
        body: 'a',
        headers: { 'x-tenant': tenant, 'idempotency-key': KEY },
      })
    expect(await (await as('t1')).text()).toBe('run 1')
    expect(await (await as('t2')).text()).toBe('run 2')
    expect(await (await as('t1')).text()).toBe('run 1')
  })

  it('replays a repeated header (two set-cookie) and one Idempotent-Replayed over a stored one', async () => {
    const app = new Hono()
    let runs = 0
    const replayHeaders = ['set-cookie', 'idempotent-replayed', 'content-type']
    app.post('/o', idempotency({ replayHeaders }), (c) => {
      c.header('set-cookie', `a=${++runs}`, { append: true })
      c.header('set-cookie', 'b=2', { append: true })
      c.header('idempotent-replayed', 'false')
      return c.text('made', 201)
    })
    const init = { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }
    const first = await app.request('/o', init)
    expect(first.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(await first.text()).toBe('made')
    const again = await app.request('/o', init)
    expect(again.status).toBe(201)
    expect(await again.text()).toBe('made')
    expect(again.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'))
  })

  it('replays a stored header named like an Object.prototype member', async () => {
    const app = new Hono()
    const replayHeaders = ['__proto__', 'constructor']
    app.post('/o', idempotency({ replayHeaders }), (c) => {
      c.header('__proto__', 'p')
      c.header('constructor', 'c')
      return c.body(null, 204)
    })
    const init = { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }
    const first = await app.request('/o', init)
    expect(first.headers.get('__proto__')).toBe('p')
    const again = await app.request('/o', init)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.headers.get('__proto__')).toBe('p')
    expect(again.headers.get('constructor')).toBe('c')
  })

  it('a body over maxBodyBytes is sent whole but not stored: the key is released', async () => {
    const app = new Hono()
    let runs = 0
    app.post('/big', idempotency({ maxBodyBytes: 10 }), (c) => c.text(`${++runs}`.padEnd(20, '.')))
    const init = { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }
    expect(await (await app.request('/big', init)).text()).toBe('1'.padEnd(20, '.'))
    const again = await app.request('/big', init)
    expect(await again.text()).toBe('2'.padEnd(20, '.'))
    expect(again.headers.get('idempotent-replayed')).toBeNull()
  })

  it('a streamed body passes through as it comes, holds the lock until it ends, then replays', async () => {
    const app = new Hono()
    let runs = 0
    let go: () => void = () => {}
    const gate = new Promise<void>((r) => {
      go = r
    })
    app.post('/s', idempotency(), (c) =>
      stream(c, async (s) => {
        runs++
        await s.write('first ')
        await gate
        await s.write('second')
      }),
    )
    const init = { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }
    const res = await app.request('/s', init)
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first ')
    // The stream has not ended: a retry finds the key in flight.
    expect((await app.request('/s', init)).status).toBe(409)
    go()
    let rest = ''
    for (let r = await reader.read(); !r.done; r = await reader.read())
      rest += new TextDecoder().decode(r.value)
    expect(rest).toBe('second')
    const replay = await app.request('/s', init)
    expect(await replay.text()).toBe('first second')
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(runs).toBe(1)
  })

  it('a stream cancelled by the client releases the key', async () => {
    const app = new Hono()
    let runs = 0
    app.post('/s', idempotency(), (c) =>
      stream(c, async (s) => {
        runs++
        await s.write('part')
        await new Promise((r) => setTimeout(r, 50))
      }),
    )
    const init = { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }
    const res = await app.request('/s', init)
    await (res.body as ReadableStream).cancel()
    const again = await app.request('/s', init)
    expect(again.headers.get('idempotent-replayed')).toBeNull()
    expect(again.status).toBe(200)
    await again.text()
    expect(runs).toBe(2)
  })

  it('replays after ttlMs no more, and a lock expires after lockMs', async () => {
    let now = 1_000
    const store = new MemoryIdempotencyStore({ now: () => now })
    const app = new Hono()
    let runs = 0
    app.post('/t', idempotency({ store, ttlMs: 1_000 }), (c) => c.text(String(++runs)))
    const init = { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }
    await (await app.request('/t', init)).text()
    now += 999
    expect(await (await app.request('/t', init)).text()).toBe('1')
    now += 1
    expect(await (await app.request('/t', init)).text()).toBe('2')
  })

  it('answers 503 store_unavailable when the store fails, or passes with failOpen', async () => {
    const failing = {
      begin: async () => {
        throw new Error('down')
      },
      complete: async () => true,
      release: async () => {},
    }
    const app = new Hono()
    app.onError(problemHandler())
    app.post('/a', idempotency({ store: failing, onStoreError: () => {} }), (c) => c.text('ran'))
    app.post('/b', idempotency({ store: failing, failOpen: true, onStoreError: () => {} }), (c) =>
      c.text('ran'),
    )
    const init = { method: 'POST', body: 'x', headers: { 'idempotency-key': KEY } }
    const a = await app.request('/a', init)
    expect(a.status).toBe(503)
    expect((await a.json()).code).toBe('store_unavailable')
    expect(await (await app.request('/b', init)).text()).toBe('ran')
  })

  it('refuses bad options at construction', () => {
    expect(() => idempotency({ lockMs: 0 })).toThrow(/lockMs/)
    expect(() => idempotency({ methods: [] })).toThrow(/methods/)
    expect(() => idempotency({ replayHeaders: ['bad header'] })).toThrow(/replayHeaders/)
    expect(() => idempotency({ store: {} as never })).toThrow(/store/)
    expect(() => idempotency({ ttl: 5 } as never)).toThrow(/ttl/)
  })
})
