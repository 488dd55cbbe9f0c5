import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { requestTimeout } from '../request-timeout'
import { MemorySessionStore, type SessionStore, sessions } from './index'

const SECRET = 'session-secret-for-tests-0123456789'

/**
 * A gate the test opens, and a barrier: handlers report that they have loaded the session and
 * then wait on the gate, so the test knows (without sleeping) that every held request has
 * loaded before any of them saves.
 */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  let count = 0
  const waiters: { n: number; resolve: () => void }[] = []
  const arrive = () => {
    count++
    for (const w of waiters.filter((w) => w.n <= count)) w.resolve()
  }
  /** Resolves once `n` handlers have arrived at the gate. */
  const arrived = (n: number) =>
    new Promise<void>((resolve) => {
      if (count >= n) resolve()
      else waiters.push({ n, resolve })
    })
  return { open, opened, arrive, arrived }
}

const cookieOf = (res: Response) =>
  (res.headers.getSetCookie().find((l) => l.startsWith('sid=')) ?? '').split(';')[0] as string

function setup(store: SessionStore) {
  const app = new Hono()
  app.use(sessions({ secret: SECRET, store }))
  let current: ReturnType<typeof gate> | undefined
  /** Waits at the current gate, if the test holds one. */
  const hold = async () => {
    const g = current
    if (g === undefined) return
    g.arrive()
    await g.opened
  }
  app.post('/set/:k/:v', async (c) => {
    const session = c.get('session')
    await hold()
    session.set(c.req.param('k'), c.req.param('v'))
    return c.text('ok')
  })
  app.post('/delete/:k', async (c) => {
    const session = c.get('session')
    await hold()
    session.delete(c.req.param('k'))
    return c.text('ok')
  })
  // Login in one tab: regenerate() keeps the data, with one more key.
  app.post('/regenerate/:k/:v', async (c) => {
    const session = c.get('session')
    session.regenerate()
    session.set(c.req.param('k'), c.req.param('v'))
    await hold()
    return c.text('ok')
  })
  app.post('/clear-set/:k/:v', async (c) => {
    const session = c.get('session')
    session.clear()
    session.set(c.req.param('k'), c.req.param('v'))
    await hold()
    return c.text('ok')
  })
  app.post('/destroy-set/:k/:v', async (c) => {
    const session = c.get('session')
    session.destroy()
    session.set(c.req.param('k'), c.req.param('v'))
    await hold()
    return c.text('ok')
  })
  app.post('/now/:k/:v', (c) => {
    c.get('session').set(c.req.param('k'), c.req.param('v'))
    return c.text('ok')
  })
  app.post('/logout', (c) => {
    c.get('session').destroy()
    return c.text('bye')
  })
  app.get('/read', (c) => c.json(c.get('session').toJSON()))
  return {
    app,
    hold: () => {
      current = gate()
      return current
    },
  }
}

const send = (app: Hono, cookie: string, path: string, method = 'POST') =>
  app.request(path, { method, headers: { Cookie: cookie } })

/** A store without `update`: sessions falls back to get + merge + set. */
function plainStore(): SessionStore {
  const inner = new MemorySessionStore()
  return {
    get: (id) => inner.get(id),
    set: (id, data, maxAge) => inner.set(id, data, maxAge),
    destroy: (id) => inner.destroy(id),
  }
}

describe.each([
  ['MemorySessionStore (atomic update)', () => new MemorySessionStore() as SessionStore],
  ['a store without update (get + merge + set)', plainStore],
])('sessions: concurrent requests on one session, %s', (_, makeStore) => {
  it('keeps the keys both requests wrote', async () => {
    const { app, hold } = setup(makeStore())
    const cookie = cookieOf(await send(app, '', '/set/user/alice'))
    const g = hold()
    const a = send(app, cookie, '/set/cart/apple')
    const b = send(app, cookie, '/set/theme/dark')
    await g.arrived(2) // both have loaded the same snapshot
    g.open()
    expect((await a).status).toBe(200)
    expect((await b).status).toBe(200)
    expect(await (await send(app, cookie, '/read', 'GET')).json()).toEqual({
      user: 'alice',
      cart: 'apple',
      theme: 'dark',
    })
  })

  it('a delete in one request and a write in another both take effect', async () => {
    const { app, hold } = setup(makeStore())
    const first = cookieOf(await send(app, '', '/set/user/alice'))
    await send(app, first, '/set/promo/x')
    const g = hold()
    const a = send(app, first, '/delete/promo')
    const b = send(app, first, '/set/cart/apple')
    await g.arrived(2)
    g.open()
    await Promise.all([a, b])
    expect(await (await send(app, first, '/read', 'GET')).json()).toEqual({
      user: 'alice',
      cart: 'apple',
    })
  })

  it('two writes to the same key: the later save wins, no merge inside a value', async () => {
    const { app, hold } = setup(makeStore())
    const cookie = cookieOf(await send(app, '', '/set/user/alice'))
    const g = hold()
    const a = send(app, cookie, '/set/theme/light')
    const b = send(app, cookie, '/set/theme/dark')
    await g.arrived(2)
    g.open()
    await Promise.all([a, b])
    const theme = ((await (await send(app, cookie, '/read', 'GET')).json()) as { theme: string })
      .theme
    expect(['light', 'dark']).toContain(theme)
  })
})

describe.each([
  ['MemorySessionStore (atomic update)', () => new MemorySessionStore() as SessionStore],
  ['a store without update (get + merge + set)', plainStore],
])('sessions: a destroy wins over every concurrent write, %s', (_, makeStore) => {
  /**
   * Request A loads the session and waits in its handler; a logout (request B) on the same
   * session completes; then A finishes and saves. Returns A's response.
   */
  async function afterLogout(
    app: Hono,
    hold: () => ReturnType<typeof gate>,
    cookie: string,
    path: string,
  ) {
    const g = hold()
    const a = send(app, cookie, path)
    await g.arrived(1)
    expect((await send(app, cookie, '/logout')).status).toBe(200)
    g.open()
    const res = await a
    expect(res.status).toBe(200)
    return res
  }

  it('a regenerate() finishing after a logout in another tab saves nothing, under no ID', async () => {
    const store = makeStore()
    const { app, hold } = setup(store)
    const cookie = cookieOf(await send(app, '', '/set/user/alice'))
    const res = await afterLogout(app, hold, cookie, '/regenerate/role/admin')
    // No new session cookie: the response deletes the cookie instead.
    expect(res.headers.getSetCookie().join('\n')).not.toMatch(/sid=[^;]+\./)
    expect(await (await send(app, cookie, '/read', 'GET')).json()).toEqual({})
    if (store instanceof MemorySessionStore) expect(store.size).toBe(0)
  })

  it('a clear() + set() landing after a logout does not write the old ID back', async () => {
    const store = makeStore()
    const { app, hold } = setup(store)
    const cookie = cookieOf(await send(app, '', '/set/user/alice'))
    await afterLogout(app, hold, cookie, '/clear-set/user/mallory')
    expect(await (await send(app, cookie, '/read', 'GET')).json()).toEqual({})
    if (store instanceof MemorySessionStore) expect(store.size).toBe(0)
  })

  it('a write in flight during logout does not re-create the destroyed ID', async () => {
    const store = makeStore()
    const { app, hold } = setup(store)
    const cookie = cookieOf(await send(app, '', '/set/user/alice'))
    await afterLogout(app, hold, cookie, '/set/cart/apple')
    expect(await (await send(app, cookie, '/read', 'GET')).json()).toEqual({})
    if (store instanceof MemorySessionStore) expect(store.size).toBe(0)
  })

  it.each([
    ['clear()', '/clear-set/note/mine', 'same'],
    ['destroy()', '/destroy-set/note/mine', 'new'],
  ])(
    'after %s, a key written by a concurrent request does not survive into the fresh session',
    async (_, path, id) => {
      const { app, hold } = setup(makeStore())
      const cookie = cookieOf(await send(app, '', '/set/user/alice'))
      const g = hold()
      const a = send(app, cookie, path)
      await g.arrived(1)
      // Another request writes a key (and saves) while A holds its cleared or destroyed session.
      expect((await send(app, cookie, '/now/theme/dark')).status).toBe(200)
      g.open()
      const res = await a
      const fresh = id === 'same' ? cookie : cookieOf(res)
      expect(fresh).toMatch(/^sid=/)
      expect(await (await send(app, fresh, '/read', 'GET')).json()).toEqual({ note: 'mine' })
    },
  )
})

describe('sessions: the store update is atomic on MemorySessionStore', () => {
  it('100 concurrent read-modify-writes of one key lose none', async () => {
    const store = new MemorySessionStore()
    await store.set('s', { n: 0 }, 60)
    await Promise.all(
      Array.from({ length: 100 }, () =>
        store.update('s', (cur) => (cur ? { n: (cur.n as number) + 1 } : null), 60),
      ),
    )
    expect(await store.get('s')).toEqual({ n: 100 })
    store.destroy_()
  })

  it('update never revives a missing session and deletes on {}', async () => {
    const store = new MemorySessionStore()
    expect(await store.update('gone', (cur) => (cur ? { a: 1 } : null), 60)).toBeNull()
    expect(await store.get('gone')).toBeNull()
    await store.set('s', { a: 1 }, 60)
    expect(await store.update('s', () => ({}), 60)).toEqual({})
    expect(await store.get('s')).toBeNull()
    store.destroy_()
  })
})

describe('sessions: no save after requestTimeout has answered', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

  it('a late regenerate() does not log the user out', async () => {
    const store = new MemorySessionStore()
    const app = new Hono()
    app.use(requestTimeout({ ms: 30 }))
    app.use(sessions({ secret: SECRET, store }))
    app.post('/login', (c) => {
      c.get('session').set('user', 'alice')
      return c.text('ok')
    })
    let late: Promise<void> = Promise.resolve()
    app.post('/slow', async (c) => {
      const session = c.get('session')
      let done!: () => void
      late = new Promise((r) => {
        done = r
      })
      await sleep(80)
      session.regenerate()
      session.set('user', 'mallory')
      done()
      return c.text('too late')
    })
    app.get('/me', (c) => c.json(c.get('session').toJSON()))
    const cookie = cookieOf(await app.request('/login', { method: 'POST' }))
    const res = await send(app, cookie, '/slow')
    expect(res.status).toBe(408)
    expect(cookieOf(res)).toBe('')
    await late
    await sleep(10) // let the middleware finish after the handler
    expect(await (await send(app, cookie, '/me', 'GET')).json()).toEqual({ user: 'alice' })
    expect(store.size).toBe(1)
    store.destroy_()
  })

  it('still saves when the handler finishes in time', async () => {
    const store = new MemorySessionStore()
    const app = new Hono()
    app.use(requestTimeout({ ms: 1000 }))
    app.use(sessions({ secret: SECRET, store }))
    app.post('/login', (c) => {
      c.get('session').set('user', 'alice')
      return c.text('ok')
    })
    expect(cookieOf(await app.request('/login', { method: 'POST' }))).toMatch(/^sid=/)
    store.destroy_()
  })
})
