import { Context, Hono } from 'hono'
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import {
  MemorySessionStore,
  type Session,
  type SessionData,
  type SessionStore,
  type SessionsOptions,
  sessions,
} from './index'

const SECRET = 'session-secret-for-tests-0123456789'

/** A MemorySessionStore that counts calls, to prove what was (not) written. */
function countingStore(now?: () => number) {
  const inner = new MemorySessionStore(now ? { now } : {})
  const calls = { get: 0, set: 0, destroy: 0 }
  const store: SessionStore & { inner: MemorySessionStore; calls: typeof calls } = {
    inner,
    calls,
    get: (id) => {
      calls.get++
      return inner.get(id)
    },
    set: (id, data, maxAge) => {
      calls.set++
      return inner.set(id, data, maxAge)
    },
    destroy: (id) => {
      calls.destroy++
      return inner.destroy(id)
    },
  }
  return store
}

function setup(options: Partial<SessionsOptions> = {}) {
  const store = countingStore()
  const app = new Hono()
  app.use(sessions({ secret: SECRET, store, ...options }))
  app.get('/read', (c) => {
    const s = c.get('session')
    return c.json({ isNew: s.isNew, id: s.id, data: s.toJSON() })
  })
  app.post('/set/:key/:value', (c) => {
    c.get('session').set(c.req.param('key'), c.req.param('value'))
    return c.text('ok')
  })
  app.post('/push', (c) => {
    const cart = c.get('session').get<string[]>('cart')
    cart?.push('item')
    return c.text('ok')
  })
  app.post('/login', (c) => {
    const s = c.get('session')
    s.regenerate()
    s.set('user', 'alice')
    return c.text('ok')
  })
  app.post('/logout', (c) => {
    c.get('session').destroy()
    return c.text('bye')
  })
  app.post('/clear', (c) => {
    c.get('session').clear()
    return c.text('cleared')
  })
  app.post('/throw', (c) => {
    c.get('session').set('attempts', 1)
    throw new Error('handler failed')
  })
  app.onError((_, c) => c.text('error', 500))
  return { app, store }
}

const setCookies = (res: Response) => res.headers.getSetCookie()
/** `name=value` of the session cookie a response set. */
function sid(res: Response, name = 'sid'): string {
  const line = setCookies(res).find((l) => l.startsWith(`${name}=`))
  if (!line) throw new Error('no session cookie set')
  return line.split(';')[0] as string
}
const withCookie = (cookie: string, method = 'GET') => ({ method, headers: { Cookie: cookie } })

async function login(app: Hono) {
  const res = await app.request('/set/user/alice', { method: 'POST' })
  return sid(res)
}

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('sessions: new sessions', () => {
  it('sets no cookie and writes nothing for a session that stays empty', async () => {
    const { app, store } = setup()
    const res = await app.request('/read')
    expect(await res.json()).toEqual({ isNew: true, id: null, data: {} })
    expect(setCookies(res)).toEqual([])
    expect(store.calls).toEqual({ get: 0, set: 0, destroy: 0 })
    expect(store.inner.size).toBe(0)
  })

  it('stores a written session and sets a signed, HttpOnly, Lax cookie', async () => {
    const { app, store } = setup()
    const res = await app.request('/set/user/alice', { method: 'POST' })
    const [line] = setCookies(res)
    expect(line).toMatch(
      /^sid=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/,
    )
    expect(store.calls.set).toBe(1)
    expect(store.inner.size).toBe(1)
  })

  it('marks the cookie Secure on https', async () => {
    const { app } = setup()
    const res = await app.request('https://example.com/set/a/b', { method: 'POST' })
    expect(setCookies(res)[0]).toMatch(/; Secure/)
  })

  it("sets the cookie on the handler's Response in place, without rebuilding it", async () => {
    const app = new Hono()
    const own = new Response('raw')
    let seen: Response | undefined
    app.use(async (c, next) => {
      await next()
      seen = c.res
    })
    app.use(sessions({ secret: SECRET }))
    app.post('/', (c) => {
      c.get('session').set('user', 'alice')
      return own
    })
    const res = await app.request('/', { method: 'POST' })
    expect(seen).toBe(own)
    expect(setCookies(res)[0]).toMatch(/^sid=[A-Za-z0-9_-]{43}\./)
    expect(await res.text()).toBe('raw')
  })

  it('sets and clears the cookie on a response whose headers are immutable', async () => {
    const app = new Hono()
    app.use(sessions({ secret: SECRET }))
    app.post('/in', (c) => {
      c.get('session').set('user', 'alice')
      return Response.redirect('https://example.com/home', 303)
    })
    app.post('/out', (c) => {
      c.get('session').destroy()
      return Response.redirect('https://example.com/bye', 303)
    })
    const res = await app.request('/in', { method: 'POST' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('https://example.com/home')
    const cookie = sid(res)
    expect(cookie).toMatch(/^sid=/)
    const out = await app.request('/out', withCookie(cookie, 'POST'))
    expect(out.headers.get('location')).toBe('https://example.com/bye')
    expect(setCookies(out)[0]).toMatch(/^sid=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/)
  })

  it('gives every new session a distinct 256-bit ID', async () => {
    const { app } = setup()
    const ids = new Set<string>()
    for (let i = 0; i < 20; i++) ids.add((await login(app)).split('.')[0] as string)
    expect(ids.size).toBe(20)
  })
})

describe('sessions: existing sessions', () => {
  it('loads the data for a valid cookie', async () => {
    const { app } = setup()
    const cookie = await login(app)
    const res = await app.request('/read', withCookie(cookie))
    const body = await res.json()
    expect(body).toMatchObject({ isNew: false, data: { user: 'alice' } })
    expect(cookie).toContain(body.id)
  })

  it('does not write to the store or set a cookie when the handler only reads', async () => {
    const { app, store } = setup()
    const cookie = await login(app)
    const before = { ...store.calls }
    const res = await app.request('/read', withCookie(cookie))
    expect(setCookies(res)).toEqual([])
    expect(store.calls.set).toBe(before.set)
    expect(store.calls.destroy).toBe(before.destroy)
  })

  it('saves a change under the same ID and refreshes the cookie', async () => {
    const { app, store } = setup()
    const cookie = await login(app)
    const res = await app.request('/set/theme/dark', withCookie(cookie, 'POST'))
    expect(sid(res)).toBe(cookie)
    expect(store.calls.set).toBe(2)
    const read = await app.request('/read', withCookie(cookie))
    expect((await read.json()).data).toEqual({ user: 'alice', theme: 'dark' })
  })

  it('does not write when a value is set to what it already was', async () => {
    const { app, store } = setup()
    const cookie = await login(app)
    await app.request('/set/user/alice', withCookie(cookie, 'POST'))
    expect(store.calls.set).toBe(1)
  })

  it('notices a nested mutation', async () => {
    const { app, store } = setup()
    const cookie = await login(app)
    await app.request('/set/cart/x', withCookie(cookie, 'POST'))
    // Turn cart into an array through the store, then mutate it in place in a handler.
    const id = cookie.slice(4, 47)
    await store.inner.set(id, { cart: [] }, 60)
    await app.request('/push', withCookie(cookie, 'POST'))
    expect(await store.inner.get(id)).toEqual({ cart: ['item'] })
  })

  it('writes nothing when a nested value is changed in place and changed back', async () => {
    const { app, store } = setup()
    const cookie = await login(app)
    const id = cookie.slice(4, 47)
    await store.inner.set(id, { user: 'alice', prefs: { theme: 'dark' } }, 60)
    const probe = new Hono()
    probe.use(sessions({ secret: SECRET, store }))
    probe.get('/', (c) => {
      const session = c.get('session')
      const prefs = session.get<{ theme: string }>('prefs') as { theme: string }
      prefs.theme = 'light'
      // A second get hands out the same object, already changed; the comparison is with the
      // value as loaded, not as first handed out.
      expect(session.get('prefs')).toEqual({ theme: 'light' })
      prefs.theme = 'dark'
      return c.text(String(session.get('user')))
    })
    const res = await probe.request('/', withCookie(cookie))
    expect(await res.text()).toBe('alice')
    expect(setCookies(res)).toEqual([])
    expect(store.calls.set).toBe(1)
  })

  it('compares a key set, deleted and set again with its value as loaded', async () => {
    const { app, store } = setup()
    const cookie = await login(app)
    const probe = new Hono()
    probe.use(sessions({ secret: SECRET, store }))
    probe.post('/', (c) => {
      const session = c.get('session')
      session.set('user', 'mallory')
      session.delete('user')
      session.set('user', 'alice')
      return c.text('ok')
    })
    const res = await probe.request('/', withCookie(cookie, 'POST'))
    expect(setCookies(res)).toEqual([])
    expect(store.calls.set).toBe(1)
  })

  it('saves changes when the handler throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { app } = setup()
    const cookie = await login(app)
    const res = await app.request('/throw', withCookie(cookie, 'POST'))
    expect(res.status).toBe(500)
    const read = await app.request('/read', withCookie(cookie))
    expect((await read.json()).data).toEqual({ user: 'alice', attempts: 1 })
  })

  it('saves and rethrows when next() itself rejects', async () => {
    const store = new MemorySessionStore()
    const mw = sessions({ secret: SECRET, store })
    const c = new Context(new Request('http://localhost/'))
    const failure = new Error('downstream')
    const next = async () => {
      c.get('session').set('seen', true)
      throw failure
    }
    await expect(mw(c, next)).rejects.toBe(failure)
    expect(store.size).toBe(1)
    expect(c.res.headers.getSetCookie()[0]).toMatch(/^sid=/)
    store.destroy_()
  })

  it('stores keys such as __proto__ as plain data', async () => {
    const { app } = setup()
    const res = await app.request('/set/__proto__/polluted', { method: 'POST' })
    const read = await app.request('/read', withCookie(sid(res)))
    const { data } = await read.json()
    expect(Object.keys(data)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('sessions: data JSON cannot store', () => {
  it.each([
    ['a BigInt', () => 10n],
    [
      'a cycle',
      () => {
        const a: Record<string, unknown> = {}
        a.self = a
        return a
      },
    ],
    ['a Map (JSON would store {})', () => new Map([['a', 1]])],
    ['a Set nested in an object', () => ({ tags: new Set(['a']) })],
    ['a function', () => () => 1],
    ['a symbol', () => Symbol('x')],
  ])(
    'set() throws a TypeError naming the key for %s, and the session stays intact',
    async (_label, make) => {
      const { app, store } = setup()
      app.post('/bad', (c) => {
        try {
          c.get('session').set('bad', make())
        } catch (err) {
          return c.text(err instanceof TypeError ? err.message : 'other', 400)
        }
        return c.text('stored')
      })
      const cookie = await login(app)
      const res = await app.request('/bad', withCookie(cookie, 'POST'))
      expect(res.status).toBe(400)
      expect(await res.text()).toMatch(/^session\.set\("bad"\): .*JSON/)
      const read = await app.request('/read', withCookie(cookie))
      expect((await read.json()).data).toEqual({ user: 'alice' })
      expect(store.calls.set).toBe(1)
    },
  )

  it('saves nothing and keeps the stored data when a nested mutation cannot be serialised', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { app, store } = setup()
    app.post('/nested-bigint', (c) => {
      c.get('session').get<unknown[]>('cart')?.push(1n)
      return c.text('ok')
    })
    const cookie = await login(app)
    const id = cookie.slice(4, 47)
    await store.inner.set(id, { user: 'alice', cart: [] }, 60)
    const writes = store.calls.set
    const res = await app.request('/nested-bigint', withCookie(cookie, 'POST'))
    expect(res.status).toBe(500)
    expect(store.calls.set).toBe(writes)
    expect(await store.inner.get(id)).toEqual({ user: 'alice', cart: [] })
  })

  it('passes on the handler error, not the serialisation error, when both happen', async () => {
    const store = new MemorySessionStore()
    const mw = sessions({ secret: SECRET, store })
    const c = new Context(new Request('http://localhost/'))
    const failure = new Error('handler failed first')
    const next = async () => {
      c.get('session').set('list', [])
      c.get('session').get<unknown[]>('list')?.push(1n)
      throw failure
    }
    await expect(mw(c, next)).rejects.toBe(failure)
    expect(store.size).toBe(0)
    store.destroy_()
  })
})

describe('sessions: hostile or stale cookies give a fresh session', () => {
  it.each([
    ['a tampered ID', (v: string) => `${v.slice(0, 4)}${v[4] === 'A' ? 'B' : 'A'}${v.slice(5)}`],
    ['a tampered signature', (v: string) => `${v.slice(0, -1)}${v.at(-1) === 'A' ? 'B' : 'A'}`],
    ['no signature', (v: string) => v.slice(0, v.indexOf('.'))],
    ['an empty signature', (v: string) => v.slice(0, v.indexOf('.') + 1)],
    ['the signature only', (v: string) => v.slice(v.indexOf('.'))],
    ['an empty value', () => 'sid='],
    ['garbage', () => 'sid=%00%ff..'],
    ['an oversized value', (v: string) => `${v}${'A'.repeat(5000)}`],
  ])('for %s, without asking the store', async (_, mutate) => {
    const { app, store } = setup()
    const cookie = await login(app)
    const gets = store.calls.get
    const res = await app.request('/read', withCookie(mutate(cookie)))
    expect(await res.json()).toEqual({ isNew: true, id: null, data: {} })
    expect(store.calls.get).toBe(gets)
    expect(setCookies(res)).toEqual([])
  })

  it('for a cookie signed with another secret', async () => {
    const other = setup({ secret: 'some-other-secret-entirely-1234567' })
    const cookie = await login(other.app)
    const { app } = setup()
    expect((await (await app.request('/read', withCookie(cookie))).json()).isNew).toBe(true)
  })

  it('for a validly signed but unknown ID, and never adopts that ID', async () => {
    const a = setup()
    const cookie = await login(a.app)
    // Same secret, different store: the ID is signed correctly but unknown here.
    const b = setup()
    const read = await b.app.request('/read', withCookie(cookie))
    expect((await read.json()).isNew).toBe(true)
    const write = await b.app.request('/set/x/y', withCookie(cookie, 'POST'))
    expect(sid(write)).not.toBe(cookie)
  })

  it('for an expired session', async () => {
    let now = 0
    const store = countingStore(() => now)
    const app = new Hono()
    app.use(sessions({ secret: SECRET, store, maxAge: 60 }))
    app.post('/', (c) => {
      c.get('session').set('a', 1)
      return c.text('ok')
    })
    app.get('/', (c) => c.json(c.get('session').isNew))
    const cookie = sid(await app.request('/', { method: 'POST' }))
    now = 59_999
    expect(await (await app.request('/', withCookie(cookie))).json()).toBe(false)
    now = 60_000
    expect(await (await app.request('/', withCookie(cookie))).json()).toBe(true)
  })
})

describe('sessions: secret rotation', () => {
  it('accepts cookies signed by any listed secret and signs new ones with the first', async () => {
    const store = new MemorySessionStore()
    const old = new Hono()
    old.use(sessions({ secret: 'old-secret-0123456789abcdef0123456789', store }))
    old.post('/', (c) => {
      c.get('session').set('user', 'bob')
      return c.text('ok')
    })
    const rotated = new Hono()
    rotated.use(
      sessions({
        secret: ['new-secret-0123456789abcdef0123456789', 'old-secret-0123456789abcdef0123456789'],
        store,
      }),
    )
    rotated.get('/', (c) => c.json(c.get('session').toJSON()))
    rotated.post('/', (c) => {
      c.get('session').set('seen', true)
      return c.text('ok')
    })
    const oldCookie = sid(await old.request('/', { method: 'POST' }))
    expect(await (await rotated.request('/', withCookie(oldCookie))).json()).toEqual({
      user: 'bob',
    })
    const resigned = sid(await rotated.request('/', withCookie(oldCookie, 'POST')))
    expect(resigned.split('.')[0]).toBe(oldCookie.split('.')[0])
    expect(resigned).not.toBe(oldCookie)
    const newOnly = new Hono()
    newOnly.use(sessions({ secret: 'new-secret-0123456789abcdef0123456789', store }))
    newOnly.get('/', (c) => c.json(c.get('session').toJSON()))
    expect(await (await newOnly.request('/', withCookie(resigned))).json()).toEqual({
      user: 'bob',
      seen: true,
    })
    expect(await (await newOnly.request('/', withCookie(oldCookie))).json()).toEqual({})
    store.destroy_()
  })
})

describe('sessions: regenerate and destroy', () => {
  it('regenerate moves the data to a new ID and destroys the old one', async () => {
    const { app, store } = setup()
    const before = await login(app)
    const res = await app.request('/login', withCookie(before, 'POST'))
    const after = sid(res)
    expect(after).not.toBe(before)
    expect(store.inner.size).toBe(1)
    const read = await app.request('/read', withCookie(after))
    expect((await read.json()).data).toEqual({ user: 'alice' })
    const stale = await app.request('/read', withCookie(before))
    expect((await stale.json()).isNew).toBe(true)
  })

  it('regenerate on a fresh session simply stores it under a new ID', async () => {
    const { app, store } = setup()
    const res = await app.request('/login', { method: 'POST' })
    expect(sid(res)).toMatch(/^sid=/)
    expect(store.calls.destroy).toBe(0)
  })

  it('destroy deletes the store entry and clears the cookie', async () => {
    const { app, store } = setup()
    const cookie = await login(app)
    const res = await app.request('/logout', withCookie(cookie, 'POST'))
    expect(setCookies(res)[0]).toMatch(/^sid=; Max-Age=0; .*Path=\//)
    expect(store.inner.size).toBe(0)
    const after = await app.request('/read', withCookie(cookie))
    expect((await after.json()).isNew).toBe(true)
  })

  it('destroy without a stored session sets no cookie', async () => {
    const { app, store } = setup()
    const res = await app.request('/logout', { method: 'POST' })
    expect(setCookies(res)).toEqual([])
    expect(store.calls.destroy).toBe(0)
  })

  it('values set after destroy start a new session under a new ID', async () => {
    const store = new MemorySessionStore()
    const app = new Hono()
    app.use(sessions({ secret: SECRET, store }))
    app.post('/a', (c) => {
      c.get('session').set('user', 'a')
      return c.text('ok')
    })
    app.post('/switch', (c) => {
      const s = c.get('session')
      s.destroy()
      s.set('user', 'b')
      return c.text('ok')
    })
    const first = sid(await app.request('/a', { method: 'POST' }))
    const second = sid(await app.request('/switch', withCookie(first, 'POST')))
    expect(second).not.toBe(first)
    expect(store.size).toBe(1)
    store.destroy_()
  })

  it('clearing every value deletes the session like destroy', async () => {
    const { app, store } = setup()
    const cookie = await login(app)
    const res = await app.request('/clear', withCookie(cookie, 'POST'))
    expect(setCookies(res)[0]).toMatch(/^sid=; Max-Age=0/)
    expect(store.inner.size).toBe(0)
  })
})

describe("sessions: the handler's outcome on a remembered cookie (no async frame)", () => {
  /**
   * A memory store, the middleware, and a cookie whose signature the middleware has verified once
   * (the common request: it is remembered, and the session loads without waiting for anything).
   */
  async function remembered() {
    const store = new MemorySessionStore()
    const mw = sessions({ secret: SECRET, store })
    const app = new Hono()
    app.use(mw)
    app.post('/login', (c) => {
      c.get('session').set('user', 'alice')
      return c.text('ok')
    })
    app.get('/read', (c) => c.json(c.get('session').toJSON()))
    const cookie = sid(await app.request('/login', { method: 'POST' }))
    expect(await (await app.request('/read', withCookie(cookie))).json()).toEqual({ user: 'alice' })
    const id = (cookie.split('=')[1] as string).split('.')[0] as string
    const context = () => new Context(new Request('http://localhost/', withCookie(cookie)))
    return { store, mw, cookie, id, context }
  }
  const session = (c: Context): Session => c.get('session')

  const failures: [string, (c: Context, failure: Error) => Promise<void>][] = [
    [
      'throws synchronously',
      (c, failure) => {
        session(c).set('attempts', 1)
        throw failure
      },
    ],
    [
      'throws after an await',
      async (c, failure) => {
        await Promise.resolve()
        session(c).set('attempts', 1)
        throw failure
      },
    ],
    [
      'returns a rejected promise',
      (c, failure) => {
        session(c).set('attempts', 1)
        return Promise.reject(failure)
      },
    ],
  ]
  for (const [name, next] of failures) {
    it(`saves the change and passes the error on, as a rejected promise, when next() ${name}`, async () => {
      const { store, mw, id, context } = await remembered()
      const c = context()
      const failure = new Error('downstream')
      let result: Promise<void> | undefined
      expect(() => {
        result = mw(c, () => next(c, failure)) as Promise<void>
      }).not.toThrow()
      await expect(result).rejects.toBe(failure)
      expect(session(c).id).toBe(id)
      expect(await store.get(id)).toEqual({ user: 'alice', attempts: 1 })
      expect(c.res.headers.getSetCookie()[0]).toMatch(new RegExp(`^sid=${id}\\.`))
      store.destroy_()
    })
  }

  it('passes the error on without a save when next() throws and nothing changed', async () => {
    const { store, mw, id, context } = await remembered()
    const c = context()
    const failure = new Error('downstream')
    const result = mw(c, () => {
      throw failure
    })
    await expect(result).rejects.toBe(failure)
    expect(await store.get(id)).toEqual({ user: 'alice' })
    expect(c.res.headers.getSetCookie()).toEqual([])
    store.destroy_()
  })

  it('loads the session before next() runs, and saves only once its promise settles', async () => {
    const { store, mw, id, context } = await remembered()
    const c = context()
    let release = () => {}
    let ran = false
    const result = mw(c, () => {
      ran = true
      return new Promise<void>((resolve) => {
        release = () => {
          session(c).set('late', true)
          resolve()
        }
      })
    })
    expect(ran).toBe(true)
    expect(session(c).get('user')).toBe('alice')
    await Promise.resolve()
    expect(await store.get(id)).toEqual({ user: 'alice' })
    release()
    await expect(result).resolves.toBeUndefined()
    expect(await store.get(id)).toEqual({ user: 'alice', late: true })
    store.destroy_()
  })

  it('resolves to nothing and writes nothing when the handler leaves the session alone', async () => {
    const { store, mw, id, context } = await remembered()
    const c = context()
    const set = vi.spyOn(store, 'set')
    const update = vi.spyOn(store, 'update')
    await expect(mw(c, () => Promise.resolve())).resolves.toBeUndefined()
    expect(set).not.toHaveBeenCalled()
    expect(update).not.toHaveBeenCalled()
    expect(c.res.headers.getSetCookie()).toEqual([])
    expect(await store.get(id)).toEqual({ user: 'alice' })
    store.destroy_()
  })

  it('moves the data to a new ID when the handler regenerates the session', async () => {
    const { store, mw, id, context } = await remembered()
    const c = context()
    await mw(c, async () => {
      session(c).regenerate()
      session(c).set('role', 'admin')
    })
    const next = (c.res.headers.getSetCookie()[0] as string).slice(4).split('.')[0] as string
    expect(next).not.toBe(id)
    expect(await store.get(id)).toBeNull()
    expect(await store.get(next)).toEqual({ user: 'alice', role: 'admin' })
    store.destroy_()
  })

  it('deletes the session and clears the cookie when the handler destroys it, then throws', async () => {
    const { store, mw, id, context } = await remembered()
    const c = context()
    const failure = new Error('after logout')
    await expect(
      mw(c, () => {
        session(c).destroy()
        throw failure
      }),
    ).rejects.toBe(failure)
    expect(await store.get(id)).toBeNull()
    expect(c.res.headers.getSetCookie()[0]).toMatch(/^sid=; Max-Age=0/)
    store.destroy_()
  })

  it('answers 503 as a rejected promise when the save fails', async () => {
    const { store, mw, context } = await remembered()
    const c = context()
    vi.spyOn(store, 'update').mockRejectedValue(new Error('down'))
    vi.spyOn(store, 'set').mockRejectedValue(new Error('down'))
    const result = mw(c, async () => {
      session(c).set('attempts', 2)
    })
    await expect(result).rejects.toMatchObject({ status: 503 })
    store.destroy_()
  })
})

describe('sessions: store failures', () => {
  const failing = (method: 'get' | 'set' | 'destroy'): SessionStore => {
    const inner = new MemorySessionStore()
    return {
      get: (id) => (method === 'get' ? Promise.reject(new Error('down')) : inner.get(id)),
      set: (id, d, m) =>
        method === 'set' ? Promise.reject(new Error('down')) : inner.set(id, d, m),
      destroy: (id) =>
        method === 'destroy' ? Promise.reject(new Error('down')) : inner.destroy(id),
    }
  }

  it('answers 503 without running the handler when get fails', async () => {
    const good = setup()
    const cookie = await login(good.app)
    const handler = vi.fn((c) => c.text('ok'))
    const app = new Hono()
    app.use(sessions({ secret: SECRET, store: failing('get') }))
    app.get('/', handler)
    const res = await app.request('/', withCookie(cookie))
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('Session store unavailable')
    expect(handler).not.toHaveBeenCalled()
  })

  it('answers 503 and sets no cookie when set fails', async () => {
    const app = new Hono()
    app.use(sessions({ secret: SECRET, store: failing('set') }))
    app.post('/', (c) => {
      c.get('session').set('a', 1)
      return c.text('ok')
    })
    const res = await app.request('/', { method: 'POST' })
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('Session store unavailable')
    expect(setCookies(res)).toEqual([])
  })

  it('answers 503 and sets no new cookie when destroying the old ID fails on regenerate', async () => {
    const store = failing('destroy')
    const app = new Hono()
    app.use(sessions({ secret: SECRET, store }))
    app.post('/a', (c) => {
      c.get('session').set('a', 1)
      return c.text('ok')
    })
    app.post('/login', (c) => {
      c.get('session').regenerate()
      return c.text('ok')
    })
    const cookie = sid(await app.request('/a', { method: 'POST' }))
    const res = await app.request('/login', withCookie(cookie, 'POST'))
    expect(res.status).toBe(503)
    expect(setCookies(res)).toEqual([])
  })

  it('never asks a store about requests without a session cookie', async () => {
    const app = new Hono()
    app.use(sessions({ secret: SECRET, store: failing('get') }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(200)
  })
})

describe('sessions: options', () => {
  it('uses cookieName, maxAge, contextKey and cookie attributes', async () => {
    const store = new MemorySessionStore()
    const app = new Hono()
    app.use(
      sessions({
        secret: SECRET,
        store,
        cookieName: '__Host-app',
        maxAge: 3600,
        contextKey: 'sess',
        cookie: { sameSite: 'Strict', httpOnly: true },
      }),
    )
    app.post('/', (c) => {
      ;(c.get('sess' as 'session') as { set(k: string, v: unknown): void }).set('a', 1)
      return c.text('ok')
    })
    const res = await app.request('/', { method: 'POST' })
    expect(setCookies(res)[0]).toMatch(
      /^__Host-app=[^;]+; Max-Age=3600; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    )
    store.destroy_()
  })

  it('passes domain and path through (HttpOnly stays)', async () => {
    const store = new MemorySessionStore()
    const app = new Hono()
    app.use(
      sessions({
        secret: SECRET,
        store,
        cookie: { domain: 'example.com', path: '/app', httpOnly: true, secure: true },
      }),
    )
    app.post('/', (c) => {
      c.get('session').set('a', 1)
      return c.text('ok')
    })
    const line = setCookies(await app.request('/', { method: 'POST' }))[0]
    expect(line).toMatch(/Domain=example\.com; Path=\/app; HttpOnly; Secure; SameSite=Lax/)
    store.destroy_()
  })

  it('creates its default store lazily, one per middleware', async () => {
    const spy = vi.spyOn(globalThis, 'setInterval')
    const mwA = sessions({ secret: SECRET })
    const mwB = sessions({ secret: SECRET })
    expect(spy).not.toHaveBeenCalled()
    const a = new Hono()
    a.use(mwA)
    a.post('/', (c) => {
      c.get('session').set('x', 1)
      return c.text('ok')
    })
    a.get('/', (c) => c.json(c.get('session').toJSON()))
    const b = new Hono()
    b.use(mwB)
    b.get('/', (c) => c.json(c.get('session').toJSON()))
    const cookie = sid(await a.request('/', { method: 'POST' }))
    expect(await (await a.request('/', withCookie(cookie))).json()).toEqual({ x: 1 })
    expect(await (await b.request('/', withCookie(cookie))).json()).toEqual({})
  })

  it.each([
    ['no options', undefined, /"secret" is required/],
    ['a missing secret', {}, /"secret" must be/],
    ['an empty secret', { secret: '' }, /"secret"/],
    ['an empty secret list', { secret: [] }, /"secret"/],
    ['an empty secret in the list', { secret: ['a', ''] }, /"secret"/],
    ['a bad cookie name', { secret: SECRET, cookieName: 'a;b' }, /cookieName/],
    ['maxAge 0', { secret: SECRET, maxAge: 0 }, /"maxAge"/],
    ['maxAge beyond 400 days', { secret: SECRET, maxAge: 34_560_001 }, /400 days/],
    ['a store without destroy', { secret: SECRET, store: { get() {}, set() {} } }, /"store"/],
    ['cookie.maxAge', { secret: SECRET, cookie: { maxAge: 5 } }, /unknown option "maxAge"/],
    [
      'SameSite=None without Secure',
      { secret: SECRET, cookie: { sameSite: 'None' } },
      /Secure|secure/,
    ],
    ['a bad sameSite', { secret: SECRET, cookie: { sameSite: 'loose' } }, /sameSite/],
    ['a path with ;', { secret: SECRET, cookie: { path: '/;x' } }, /cookie.path/],
    [
      '__Host- with a domain',
      { secret: SECRET, cookieName: '__Host-s', cookie: { domain: 'a.b' } },
      /__Host-/,
    ],
    [
      '__Secure- with secure: false',
      { secret: SECRET, cookieName: '__Secure-s', cookie: { secure: false } },
      /secure/,
    ],
    ['an empty contextKey', { secret: SECRET, contextKey: '' }, /contextKey/],
    ['a typo', { secret: SECRET, maxage: 5 }, /unknown option "maxage"/],
    ['a one-character secret', { secret: 'x' }, /at least 32 characters/],
    ['a 31-character secret', { secret: 'x'.repeat(31) }, /at least 32 characters/],
    ['a short secret in a rotation list', { secret: [SECRET, 'old'] }, /at least 32 characters/],
    ['cookie.httpOnly: false', { secret: SECRET, cookie: { httpOnly: false } }, /httpOnly/],
    ['a non-boolean rolling', { secret: SECRET, rolling: 1 }, /"rolling"/],
    ['a zero absoluteTimeout', { secret: SECRET, absoluteTimeout: 0 }, /"absoluteTimeout"/],
    ['a fractional absoluteTimeout', { secret: SECRET, absoluteTimeout: 1.5 }, /"absoluteTimeout"/],
    [
      'a store whose update is not a function',
      { secret: SECRET, store: { get() {}, set() {}, destroy() {}, update: 1 } },
      /"store"/,
    ],
  ])('throws a TypeError at construction for %s', (_, options, message) => {
    expect(() => sessions(options as unknown as SessionsOptions)).toThrow(TypeError)
    expect(() => sessions(options as unknown as SessionsOptions)).toThrow(message)
  })

  it('keeps SessionData assignable from plain objects (a type check: tsc fails otherwise)', () => {
    expectTypeOf<{ a: number; nested: { b: number[] } }>().toExtend<SessionData>()
    expectTypeOf<SessionData>().not.toExtend<string>()
  })
})
