import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemorySessionStore, type SessionStore, type SessionsOptions, sessions } from './index'

const SECRET = 'session-secret-for-tests-0123456789'
const T0 = new Date('2026-01-01T00:00:00Z').getTime()

/** An app on a fake clock: the store and the middleware both read Date.now(). */
function setup(options: Partial<SessionsOptions> = {}) {
  const store = new MemorySessionStore()
  const app = new Hono()
  app.use(sessions({ secret: SECRET, store, maxAge: 600, ...options }))
  app.get('/read', (c) => c.json(c.get('session').toJSON()))
  app.post('/login', (c) => {
    const s = c.get('session')
    s.regenerate()
    s.set('user', 'alice')
    return c.text('ok')
  })
  app.post('/set/:k/:v', (c) => {
    c.get('session').set(c.req.param('k'), c.req.param('v'))
    return c.text('ok')
  })
  app.post('/regenerate', (c) => {
    c.get('session').regenerate()
    return c.text('ok')
  })
  app.post('/flash', (c) => {
    c.get('session').flash('notice', 'Saved!')
    return c.redirect('/show')
  })
  app.get('/show', (c) => c.json({ notice: c.get('session').getFlash('notice') ?? null }))
  return { app, store }
}

const at = (seconds: number) => vi.setSystemTime(T0 + seconds * 1000)
const setCookie = (res: Response) => res.headers.getSetCookie().find((l) => l.startsWith('sid='))
function cookieOf(res: Response): string {
  const line = setCookie(res)
  if (!line) throw new Error('no session cookie')
  return line.split(';')[0] as string
}
const get = (app: Hono, cookie: string, path = '/read') =>
  app.request(path, { headers: { Cookie: cookie } })
const post = (app: Hono, cookie: string, path: string) =>
  app.request(path, { method: 'POST', headers: { Cookie: cookie } })

afterEach(() => {
  vi.useRealTimers()
})

describe('sessions: maxAge without rolling counts from the last change', () => {
  it('ends a session maxAge after its last write, however often it is read', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] })
    const { app } = setup()
    const cookie = cookieOf(await post(app, '', '/login'))
    for (const t of [100, 300, 500, 599]) {
      at(t)
      const res = await get(app, cookie)
      expect(await res.json()).toEqual({ user: 'alice' })
      expect(setCookie(res)).toBeUndefined() // a read saves nothing
    }
    at(600)
    expect(await (await get(app, cookie)).json()).toEqual({})
  })
})

describe('sessions: rolling', () => {
  it('saves on every request, so maxAge becomes an idle timeout', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] })
    const { app } = setup({ rolling: true })
    const cookie = cookieOf(await post(app, '', '/login'))
    for (const t of [500, 1000, 1500, 2000]) {
      at(t)
      const res = await get(app, cookie)
      expect(await res.json()).toEqual({ user: 'alice' })
      // the cookie's Max-Age is renewed too
      expect(setCookie(res)).toMatch(/Max-Age=600/)
    }
    at(2000 + 600) // idle for maxAge
    expect(await (await get(app, cookie)).json()).toEqual({})
  })

  it('a touch never revives an expired session (no store entry, no cookie)', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] })
    const { app, store } = setup({ rolling: true })
    const cookie = cookieOf(await post(app, '', '/login'))
    at(601)
    const res = await get(app, cookie)
    expect(await res.json()).toEqual({})
    expect(setCookie(res)).toBeUndefined()
    expect(store.size).toBe(0)
    at(602)
    expect(await (await get(app, cookie)).json()).toEqual({})
  })

  it('a touch never revives a session destroyed while the request ran (logout in another tab)', async () => {
    const store = new MemorySessionStore()
    const app = new Hono()
    app.use(sessions({ secret: SECRET, store, rolling: true }))
    let destroyDuring: (() => Promise<void>) | undefined
    app.post('/login', (c) => {
      c.get('session').set('user', 'alice')
      return c.text('ok')
    })
    app.get('/slow', async (c) => {
      await destroyDuring?.()
      return c.text('ok')
    })
    const cookie = cookieOf(await app.request('/login', { method: 'POST' }))
    const id = cookie.slice(4).split('.')[0] as string
    destroyDuring = () => store.destroy(id)
    const res = await get(app, cookie, '/slow')
    expect(setCookie(res)).toBeUndefined()
    expect(await store.get(id)).toBeNull()
    store.destroy_()
  })

  it('does not create sessions for visitors without one', async () => {
    const { app, store } = setup({ rolling: true })
    const res = await app.request('/read')
    expect(setCookie(res)).toBeUndefined()
    expect(store.size).toBe(0)
  })
})

describe('sessions: absoluteTimeout', () => {
  it('ends the session absoluteTimeout after login, however active it is', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] })
    const { app, store } = setup({ rolling: true, absoluteTimeout: 1000 })
    const cookie = cookieOf(await post(app, '', '/login'))
    for (const t of [300, 600, 900, 999]) {
      at(t)
      expect(await (await get(app, cookie)).json()).toEqual({ user: 'alice' })
    }
    at(1000)
    expect(await (await get(app, cookie)).json()).toEqual({})
    expect(store.size).toBe(0) // the expired session is deleted, not just ignored
  })

  it('caps the store lifetime and cookie Max-Age at what is left of the absolute limit', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] })
    const { app } = setup({ rolling: true, absoluteTimeout: 1000 })
    const cookie = cookieOf(await post(app, '', '/login'))
    at(300)
    expect(setCookie(await get(app, cookie))).toMatch(/Max-Age=600;/)
    at(800)
    expect(setCookie(await get(app, cookie))).toMatch(/Max-Age=200;/)
  })

  it('a change does not extend it either', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] })
    const { app } = setup({ absoluteTimeout: 1000 })
    const cookie = cookieOf(await post(app, '', '/login'))
    at(990)
    await post(app, cookie, '/set/a/1')
    at(1000)
    expect(await (await get(app, cookie)).json()).toEqual({})
  })

  it('regenerate() starts the absolute clock again (a new login)', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] })
    const { app } = setup({ absoluteTimeout: 1000, maxAge: 86_400 })
    const first = cookieOf(await post(app, '', '/login'))
    at(500)
    const second = cookieOf(await post(app, first, '/regenerate'))
    at(1200)
    expect(await (await get(app, second)).json()).toEqual({ user: 'alice' })
    at(1500)
    expect(await (await get(app, second)).json()).toEqual({})
  })

  it('keeps the bookkeeping out of the data handlers see', async () => {
    const { app } = setup({ absoluteTimeout: 1000 })
    const cookie = cookieOf(await post(app, '', '/login'))
    expect(await (await get(app, cookie)).json()).toEqual({ user: 'alice' })
  })

  it('gives a session saved before absoluteTimeout was turned on a clock from its next request', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] })
    const store = new MemorySessionStore()
    const before = new Hono()
    before.use(sessions({ secret: SECRET, store, maxAge: 86_400 }))
    before.post('/', (c) => {
      c.get('session').set('user', 'old')
      return c.text('ok')
    })
    const cookie = cookieOf(await before.request('/', { method: 'POST' }))
    const after = new Hono()
    after.use(sessions({ secret: SECRET, store, maxAge: 86_400, absoluteTimeout: 100 }))
    after.get('/', (c) => c.json(c.get('session').toJSON()))
    at(5000)
    expect(await (await get(after, cookie, '/')).json()).toEqual({ user: 'old' })
    at(5099)
    expect(await (await get(after, cookie, '/')).json()).toEqual({ user: 'old' })
    at(5100)
    expect(await (await get(after, cookie, '/')).json()).toEqual({})
  })
})

/**
 * A store over a MemorySessionStore that keeps entries longer than `sessions` asks: KV stores
 * round a TTL up to their 60 s minimum, and some stores have no TTL at all.
 */
function coarseStore(ttl: (maxAge: number) => number) {
  const inner = new MemorySessionStore()
  const store: SessionStore = {
    get: (id) => inner.get(id),
    set: (id, data, maxAge) => inner.set(id, data, ttl(maxAge)),
    destroy: (id) => inner.destroy(id),
  }
  return { store, inner }
}

describe.each([
  ['rounds every TTL up to 60 s (Deno KV, Workers KV)', (maxAge: number) => Math.max(60, maxAge)],
  ['ignores TTLs (keeps every entry for a year)', () => 365 * 86_400],
])('sessions: absoluteTimeout on a store that %s', (_label, ttl) => {
  // The memory store's own TTL ends these sessions on time; here only the middleware's check of
  // the login time can, so rolling requests must not carry a session past its absolute limit.
  it.each([
    ['shorter than the store minimum', 30, [10, 20, 29]],
    ['longer than the store minimum', 1000, [300, 600, 900, 999]],
  ])('ends a rolling session at an absoluteTimeout %s', async (_what, limit, times) => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] })
    const { store, inner } = coarseStore(ttl)
    const app = new Hono()
    app.use(sessions({ secret: SECRET, store, maxAge: 600, rolling: true, absoluteTimeout: limit }))
    app.get('/read', (c) => c.json(c.get('session').toJSON()))
    app.post('/login', (c) => {
      c.get('session').set('user', 'alice')
      return c.text('ok')
    })
    const cookie = cookieOf(await post(app, '', '/login'))
    for (const t of times) {
      at(t)
      expect(await (await get(app, cookie)).json()).toEqual({ user: 'alice' })
    }
    at(limit)
    expect(await (await get(app, cookie)).json()).toEqual({})
    expect(inner.size).toBe(0) // deleted from the store, not left for its TTL
  })
})

describe('sessions: regenerate keeps the data', () => {
  it('moves every value to the new ID; the old ID is dead', async () => {
    const { app } = setup()
    const first = cookieOf(await post(app, '', '/set/cart/apple'))
    const second = cookieOf(await post(app, first, '/login'))
    expect(second).not.toBe(first)
    expect(await (await get(app, second)).json()).toEqual({ cart: 'apple', user: 'alice' })
    expect(await (await get(app, first)).json()).toEqual({})
  })
})

describe('sessions: flash values', () => {
  it('survives one redirect and is gone once read', async () => {
    const { app } = setup()
    const res = await app.request('/flash', { method: 'POST' })
    expect(res.status).toBe(302)
    const cookie = cookieOf(res)
    expect(await (await get(app, cookie, '/show')).json()).toEqual({ notice: 'Saved!' })
    expect(await (await get(app, cookie, '/show')).json()).toEqual({ notice: null })
  })

  it('is not part of toJSON() and a session holding only flash values still gets a cookie', async () => {
    const { app, store } = setup()
    const cookie = cookieOf(await app.request('/flash', { method: 'POST' }))
    expect(await (await get(app, cookie)).json()).toEqual({})
    expect(store.size).toBe(1)
  })

  it('reading the last flash value of an otherwise empty session deletes the session', async () => {
    const { app, store } = setup()
    const cookie = cookieOf(await app.request('/flash', { method: 'POST' }))
    const res = await get(app, cookie, '/show')
    expect(setCookie(res)).toMatch(/Max-Age=0/)
    expect(store.size).toBe(0)
  })

  it('refuses values JSON cannot store, like set()', async () => {
    const app = new Hono()
    app.use(sessions({ secret: SECRET }))
    let error: unknown
    app.get('/', (c) => {
      try {
        c.get('session').flash('x', new Map())
      } catch (e) {
        error = e
      }
      return c.text('ok')
    })
    await app.request('/')
    expect(error).toBeInstanceOf(TypeError)
    expect(String(error)).toMatch(/session\.flash\("x"\).*Map/)
  })

  it('refuses the reserved key', async () => {
    const app = new Hono()
    app.use(sessions({ secret: SECRET }))
    app.get('/', (c) => {
      expect(() => c.get('session').set('__palisade', {})).toThrow(/reserved/)
      return c.text('ok')
    })
    expect((await app.request('/')).status).toBe(200)
  })
})
