import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { paddedCookies } from '../../test/padded-cookies'
import { MemorySessionStore, sessions } from './index'

const SECRET = 'session-secret-for-tests-0123456789'

function setup(cookieName = 'sid') {
  const store = new MemorySessionStore()
  const app = new Hono()
  app.use(sessions({ secret: SECRET, store, cookieName }))
  app.post('/login/:user', (c) => {
    const s = c.get('session')
    s.regenerate()
    s.set('user', c.req.param('user'))
    return c.text('ok')
  })
  app.get('/me', (c) => c.json(c.get('session').toJSON()))
  return { app, store }
}

/** `value` of the session cookie a response set. */
function cookieValue(res: Response, name = 'sid'): string {
  const line = res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`)) ?? ''
  return line.split(';')[0]?.slice(name.length + 1) ?? ''
}
const me = async (app: Hono, cookie: string) =>
  (await app.request('/me', { headers: { Cookie: cookie } })).json()

describe('sessions: duplicate cookies (cookie tossing)', () => {
  it('a junk sid placed first does not log the user out', async () => {
    const { app } = setup()
    const mine = cookieValue(await app.request('/login/alice', { method: 'POST' }))
    for (const junk of ['junk', 'x.y', `${mine.split('.')[0]}.AAAA`, 'a'.repeat(500), '']) {
      expect(await me(app, `sid=${junk}; sid=${mine}`)).toEqual({ user: 'alice' })
    }
  })

  it('a validly signed foreign sid placed first is not adopted over the user own', async () => {
    const { app } = setup()
    const victim = cookieValue(await app.request('/login/alice', { method: 'POST' }))
    const attacker = cookieValue(await app.request('/login/mallory', { method: 'POST' }))
    // Two live sessions: there is no telling which is the user's, so neither is used.
    expect(await me(app, `sid=${attacker}; sid=${victim}`)).toEqual({})
    expect(await me(app, `sid=${victim}; sid=${attacker}`)).toEqual({})
  })

  it('answers alike when the signatures are checked anew and when they are remembered', async () => {
    // The first request verifies both signatures (the asynchronous way); later ones find them
    // remembered and read the memory store without a promise. Both must refuse the pair.
    const { app } = setup()
    const victim = cookieValue(await app.request('/login/alice', { method: 'POST' }))
    const attacker = cookieValue(await app.request('/login/mallory', { method: 'POST' }))
    for (let i = 0; i < 3; i++) {
      expect(await me(app, `sid=${attacker}; sid=${victim}`)).toEqual({})
      expect(await me(app, `sid=junk; sid=${victim}`)).toEqual({ user: 'alice' })
      expect(await me(app, `sid=${victim}; sid=${victim}`)).toEqual({ user: 'alice' })
    }
  })

  it('a store that extends MemorySessionStore and overrides get is asked through its get', async () => {
    const reads: string[] = []
    class Audited extends MemorySessionStore {
      override async get(id: string) {
        reads.push(id)
        return super.get(id)
      }
    }
    const store = new Audited()
    const app = new Hono()
    app.use(sessions({ secret: SECRET, store }))
    app.post('/login/:user', (c) => {
      c.get('session').set('user', c.req.param('user'))
      return c.text('ok')
    })
    app.get('/me', (c) => c.json(c.get('session').toJSON()))
    const mine = cookieValue(await app.request('/login/alice', { method: 'POST' }))
    for (let i = 0; i < 3; i++) expect(await me(app, `sid=${mine}`)).toEqual({ user: 'alice' })
    expect(reads).toEqual(Array(3).fill(mine.split('.')[0]))
  })

  it('a validly signed but dead sid placed first does not shadow the live one', async () => {
    const { app, store } = setup()
    const victim = cookieValue(await app.request('/login/alice', { method: 'POST' }))
    const attacker = cookieValue(await app.request('/login/mallory', { method: 'POST' }))
    await store.destroy(attacker.split('.')[0] as string)
    expect(await me(app, `sid=${attacker}; sid=${victim}`)).toEqual({ user: 'alice' })
  })

  it('the same cookie sent twice is one session, not an ambiguity', async () => {
    const { app } = setup()
    const mine = cookieValue(await app.request('/login/alice', { method: 'POST' }))
    expect(await me(app, `sid=${mine}; sid=${mine}`)).toEqual({ user: 'alice' })
  })

  // Padding: junk copies (from cookies planted at other paths, which browsers send in path
  // order) pushing the user's own copy out of sight while the attacker's valid one stays in it.
  const padded = (n: number, at: number, planted: string[]) => paddedCookies('sid', n, at, planted)

  it.each([5, 50, 500])(
    'never adopts an attacker session hidden among %i copies, wherever it sits',
    async (n) => {
      const { app } = setup()
      const victim = cookieValue(await app.request('/login/alice', { method: 'POST' }))
      const attacker = cookieValue(await app.request('/login/mallory', { method: 'POST' }))
      for (const at of [0, 1, 3, Math.floor(n / 2), n - 2]) {
        expect(await me(app, padded(n, at, [attacker, victim]))).toEqual({})
        expect(await me(app, `${padded(n - 1, at, [attacker])}; sid=${victim}`)).toEqual({})
      }
    },
  )

  it('reads all of up to 8 copies: 4 junk copies in front log nobody out', async () => {
    const { app } = setup()
    const mine = cookieValue(await app.request('/login/alice', { method: 'POST' }))
    expect(await me(app, padded(5, 4, [mine]))).toEqual({ user: 'alice' })
    expect(await me(app, padded(8, 7, [mine]))).toEqual({ user: 'alice' })
    // 50 or 500 copies are more than are examined: ambiguous, a fresh session.
    expect(await me(app, padded(50, 49, [mine]))).toEqual({})
    expect(await me(app, padded(500, 0, [mine]))).toEqual({})
  })

  it('a session cookie of another name is never read', async () => {
    const { app } = setup()
    const mine = cookieValue(await app.request('/login/alice', { method: 'POST' }))
    expect(await me(app, `xsid=${mine}; sidx=${mine}`)).toEqual({})
  })
})

describe('sessions: __Host- cookie names', () => {
  it('sets __Host-sid with Secure, Path=/ and no Domain, even on http', async () => {
    const { app } = setup('__Host-sid')
    const res = await app.request('/login/alice', { method: 'POST' })
    const line = res.headers.getSetCookie()[0] as string
    expect(line).toMatch(
      /^__Host-sid=[^;]+; Max-Age=86400; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    )
    expect(line).not.toMatch(/Domain/i)
    const value = cookieValue(res, '__Host-sid')
    expect(await me(app, `__Host-sid=${value}`)).toEqual({ user: 'alice' })
  })

  it.each([
    ['a Domain', { domain: 'example.com' }, /__Host-/],
    ['a Path other than /', { path: '/app' }, /__Host-/],
    ['secure: false', { secure: false }, /secure/],
  ])('refuses __Host- with %s at construction', (_, cookie, message) => {
    expect(() => sessions({ secret: SECRET, cookieName: '__Host-sid', cookie })).toThrow(message)
  })

  it('a plain sid planted by a sibling subdomain does not shadow __Host-sid', async () => {
    const { app } = setup('__Host-sid')
    const mine = cookieValue(await app.request('/login/alice', { method: 'POST' }), '__Host-sid')
    const attacker = cookieValue(
      await app.request('/login/mallory', { method: 'POST' }),
      '__Host-sid',
    )
    // The browser refuses a __Host- cookie with a Domain, so the attacker can only plant "sid".
    expect(await me(app, `sid=${attacker}; __Host-sid=${mine}`)).toEqual({ user: 'alice' })
  })
})
