import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { paddedCookies } from '../../test/padded-cookies'
import { MemorySessionStore, sessions } from '../sessions'
import { type CsrfOptions, csrf } from './index'

/** One secret shared by sessions and csrf: the separation must hold anyway. */
const SECRET = 'one-shared-secret-for-sessions-and-csrf-0123'

/** sessions() then csrf(), as the README recommends. */
function setup(options: CsrfOptions = {}) {
  const store = new MemorySessionStore()
  const app = new Hono()
  app.use(sessions({ secret: SECRET, store }))
  app.use(csrf({ secret: SECRET, ...options }))
  app.get('/form', (c) => c.text(c.get('csrfToken')))
  app.post('/login/:user', (c) => {
    const s = c.get('session')
    s.regenerate()
    s.set('user', c.req.param('user'))
    return c.text('ok')
  })
  app.post('/logout', (c) => {
    c.get('session').destroy()
    return c.text('bye')
  })
  app.post('/transfer', (c) => c.text(`sent by ${c.get('session').get('user') ?? 'nobody'}`))
  return { app, store }
}

type Jar = Map<string, string>
/** Keeps the cookies a response sets, like a browser would (Max-Age=0 deletes). */
function keep(jar: Jar, res: Response): Response {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const eq = (pair as string).indexOf('=')
    const name = (pair as string).slice(0, eq)
    const value = (pair as string).slice(eq + 1)
    if (/Max-Age=0/.test(line)) jar.delete(name)
    else jar.set(name, value)
  }
  return res
}
const header = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')

async function browser(app: Hono) {
  const jar: Jar = new Map()
  const send = async (path: string, method = 'GET', extra: Record<string, string> = {}) =>
    keep(jar, await app.request(path, { method, headers: { cookie: header(jar), ...extra } }))
  await send('/form')
  return {
    jar,
    send,
    /** An unsafe request echoing the token from the cookie, as an SPA does. */
    submit: (path: string, extra: Record<string, string> = {}) =>
      send(path, 'POST', { 'x-xsrf-token': jar.get('XSRF-TOKEN') ?? '', ...extra }),
  }
}

describe('csrf + sessions: tokens bound to the session', () => {
  it('a logged-in user can submit, and the token keeps working across requests', async () => {
    const { app } = setup()
    const b = await browser(app)
    expect((await b.submit('/login/alice')).status).toBe(200)
    expect(await (await b.submit('/transfer')).text()).toBe('sent by alice')
    expect(await (await b.submit('/transfer')).text()).toBe('sent by alice')
  })

  it('login (regenerate) re-issues the token for the new session ID in the same response', async () => {
    const { app } = setup()
    const b = await browser(app)
    const before = b.jar.get('XSRF-TOKEN')
    const res = await b.submit('/login/alice')
    expect(res.headers.getSetCookie().some((l) => l.startsWith('XSRF-TOKEN='))).toBe(true)
    expect(b.jar.get('XSRF-TOKEN')).not.toBe(before)
    // the very next unsafe request works without a GET in between
    expect((await b.submit('/transfer')).status).toBe(200)
  })

  it("an attacker's own valid token (cookie and header) does not work with the victim's session", async () => {
    const { app } = setup()
    const victim = await browser(app)
    await victim.submit('/login/alice')
    const attacker = await browser(app)
    await attacker.submit('/login/mallory')
    const planted = attacker.jar.get('XSRF-TOKEN') as string
    // Cookie tossing: the attacker's token is planted in the victim's browser and submitted.
    const res = await app.request('/transfer', {
      method: 'POST',
      headers: {
        cookie: `XSRF-TOKEN=${planted}; sid=${victim.jar.get('sid')}`,
        'x-xsrf-token': planted,
      },
    })
    expect(res.status).toBe(403)
  })

  it('an anonymous token does not work once the user is logged in (fixation of the token)', async () => {
    const { app } = setup()
    const attacker = await browser(app)
    const anonymous = attacker.jar.get('XSRF-TOKEN') as string
    const victim = await browser(app)
    await victim.submit('/login/alice')
    const res = await app.request('/transfer', {
      method: 'POST',
      headers: {
        cookie: `XSRF-TOKEN=${anonymous}; sid=${victim.jar.get('sid')}`,
        'x-xsrf-token': anonymous,
      },
    })
    expect(res.status).toBe(403)
  })

  it('after logout the old token is replaced by an anonymous one', async () => {
    const { app } = setup()
    const b = await browser(app)
    await b.submit('/login/alice')
    const loggedIn = b.jar.get('XSRF-TOKEN')
    await b.submit('/logout')
    expect(b.jar.get('XSRF-TOKEN')).not.toBe(loggedIn)
    expect((await b.submit('/transfer')).status).toBe(200)
  })

  it('csrf before sessions still works, unbound (documented order: sessions first)', async () => {
    const app = new Hono()
    app.use(csrf({ secret: SECRET }))
    app.use(sessions({ secret: SECRET }))
    app.get('/form', (c) => c.text(c.get('csrfToken')))
    app.post('/x', (c) => c.text('ok'))
    const b = await browser(app)
    expect((await b.submit('/x')).status).toBe(200)
  })
})

describe('csrf + sessions: one shared secret, separate purposes', () => {
  it('a session cookie value never validates as a csrf token', async () => {
    const { app } = setup()
    const b = await browser(app)
    await b.submit('/login/alice')
    const sid = b.jar.get('sid') as string
    const res = await app.request('/transfer', {
      method: 'POST',
      headers: { cookie: `sid=${sid}; XSRF-TOKEN=${sid}`, 'x-xsrf-token': sid },
    })
    expect(res.status).toBe(403)
  })

  it('a csrf token never validates as a session cookie', async () => {
    const { app } = setup()
    const b = await browser(app)
    const token = b.jar.get('XSRF-TOKEN') as string
    const res = await app.request('/transfer', {
      method: 'POST',
      headers: { cookie: `sid=${token}; XSRF-TOKEN=${token}`, 'x-xsrf-token': token },
    })
    expect(await res.text()).toBe('sent by nobody')
  })

  it('csrf without sessions: a value signed by sessions() is not accepted either', async () => {
    const sessionsApp = new Hono()
    sessionsApp.use(sessions({ secret: SECRET }))
    sessionsApp.post('/', (c) => {
      c.get('session').set('a', 1)
      return c.text('ok')
    })
    const line = (await sessionsApp.request('/', { method: 'POST' })).headers.getSetCookie()[0]
    const sid = (line as string).split(';')[0]?.slice(4) as string
    const app = new Hono()
    app.use(csrf({ secret: SECRET }))
    app.post('/', (c) => c.text('ok'))
    const res = await app.request('/', {
      method: 'POST',
      headers: { cookie: `XSRF-TOKEN=${sid}`, 'x-xsrf-token': sid },
    })
    expect(res.status).toBe(403)
  })
})

describe('csrf: duplicate token cookies (cookie tossing)', () => {
  it('a junk XSRF-TOKEN placed first does not lock signed csrf out', async () => {
    const { app } = setup()
    const b = await browser(app)
    const mine = b.jar.get('XSRF-TOKEN') as string
    for (const junk of ['junk', 'a.b', `${mine.split('.')[0]}.AAAA`, 'x'.repeat(600)]) {
      const res = await app.request('/transfer', {
        method: 'POST',
        headers: { cookie: `XSRF-TOKEN=${junk}; XSRF-TOKEN=${mine}`, 'x-xsrf-token': mine },
      })
      expect(res.status).toBe(200)
      // our valid copy is kept: no new token is forced on the user
      expect(res.headers.getSetCookie()).toEqual([])
    }
  })

  it('the junk copy itself is never accepted as the token', async () => {
    const { app } = setup()
    const b = await browser(app)
    const mine = b.jar.get('XSRF-TOKEN') as string
    const res = await app.request('/transfer', {
      method: 'POST',
      headers: { cookie: `XSRF-TOKEN=junk; XSRF-TOKEN=${mine}`, 'x-xsrf-token': 'junk' },
    })
    expect(res.status).toBe(403)
  })

  it('exposes the valid copy, not the junk one, as csrfToken', async () => {
    const { app } = setup()
    const b = await browser(app)
    const mine = b.jar.get('XSRF-TOKEN') as string
    const res = await app.request('/form', {
      headers: { cookie: `XSRF-TOKEN=junk; XSRF-TOKEN=${mine}` },
    })
    expect(await res.text()).toBe(mine)
  })

  // Padding: junk copies (planted at other paths, sent in path order) around the user's own.
  const padded = (n: number, at: number, mine: string) => paddedCookies('XSRF-TOKEN', n, at, [mine])
  const transfer = (app: Hono, cookie: string, token: string) =>
    app.request('/transfer', { method: 'POST', headers: { cookie, 'x-xsrf-token': token } })

  it('5 copies (4 junk in front) do not lock a form out: up to 8 copies are all read', async () => {
    const { app } = setup()
    const mine = (await browser(app)).jar.get('XSRF-TOKEN') as string
    for (const at of [0, 2, 4])
      expect((await transfer(app, padded(5, at, mine), mine)).status).toBe(200)
    expect((await transfer(app, padded(8, 7, mine), mine)).status).toBe(200)
  })

  it.each([50, 500])(
    '%i copies are more than are examined: the request has no token cookie (403)',
    async (n) => {
      const { app } = setup()
      const mine = (await browser(app)).jar.get('XSRF-TOKEN') as string
      for (const at of [0, Math.floor(n / 2), n - 1]) {
        expect((await transfer(app, padded(n, at, mine), mine)).status).toBe(403)
        expect((await transfer(app, padded(n, at, mine), 'junk0')).status).toBe(403)
      }
    },
  )

  it('without a secret, a junk copy first does not lock the user out either', async () => {
    const app = new Hono()
    app.use(csrf())
    app.post('/', (c) => c.text('ok'))
    const res = await app.request('/', {
      method: 'POST',
      headers: { cookie: 'XSRF-TOKEN=junk; XSRF-TOKEN=mine-123', 'x-xsrf-token': 'mine-123' },
    })
    expect(res.status).toBe(200)
  })
})

describe('csrf: __Host- cookie name', () => {
  it('sets __Host-XSRF-TOKEN with Secure, Path=/, no Domain, readable by scripts', async () => {
    const app = new Hono()
    app.use(csrf({ secret: SECRET, cookieName: '__Host-XSRF-TOKEN' }))
    app.get('/', (c) => c.text(c.get('csrfToken')))
    app.post('/', (c) => c.text('ok'))
    const res = await app.request('/')
    const line = res.headers.getSetCookie()[0] as string
    expect(line).toMatch(/^__Host-XSRF-TOKEN=[^;]+; Path=\/; Secure; SameSite=Lax$/)
    const token = await res.text()
    const ok = await app.request('/', {
      method: 'POST',
      headers: {
        cookie: `XSRF-TOKEN=junk; __Host-XSRF-TOKEN=${token}`,
        'x-xsrf-token': token,
      },
    })
    expect(ok.status).toBe(200)
  })

  it.each([
    ['a Domain', { domain: 'example.com' }],
    ['a Path other than /', { path: '/app' }],
    ['secure: false', { secure: false }],
  ])('refuses __Host- with %s at construction', (_, cookie) => {
    expect(() => csrf({ cookieName: '__Host-XSRF-TOKEN', cookie })).toThrow(/^csrf: /)
  })
})

describe('csrf: secret length', () => {
  it.each([['x'], ['x'.repeat(31)], [[SECRET, 'short']]])('refuses %j', (secret) => {
    expect(() => csrf({ secret })).toThrow(/^csrf: "secret" must be at least 32 characters/)
  })
})
