const setCookie = (res) => res.headers.get('set-cookie') ?? ''
const cookieValue = (res, name) => {
  const m = setCookie(res).match(new RegExp(`(?:^|, )${name}=([^;]*)`))
  return m ? m[1] : null
}

export default {
  name: 'sessions',
  from: '@palisade/middleware/sessions',
  exports: ['sessions', 'MemorySessionStore'],
  async run({ mod: { sessions, MemorySessionStore }, Hono, t }) {
    const store = new MemorySessionStore()
    const app = new Hono()
    app.use('*', sessions({ secret: 'runtime-matrix-session-secret-0123456789', store }))
    app.get('/peek', (c) => c.json({ views: c.get('session').get('views') ?? 0 }))
    app.get('/count', (c) => {
      const s = c.get('session')
      s.set('views', (s.get('views') ?? 0) + 1)
      return c.json({ views: s.get('views') })
    })
    app.post('/login', (c) => {
      const s = c.get('session')
      s.regenerate()
      s.set('user', 'u1')
      return c.text('welcome')
    })
    app.post('/logout', (c) => {
      c.get('session').destroy()
      return c.text('bye')
    })
    const withSid = (path, sid, method = 'GET') =>
      app.request(path, { method, headers: sid ? { Cookie: `sid=${sid}` } : {} })

    let res = await app.request('/peek')
    t.equal('an untouched new session sets no cookie', res.headers.get('set-cookie'), null)

    res = await app.request('/count')
    const sid = cookieValue(res, 'sid') ?? ''
    t.match(
      'a written session sets a signed cookie <id>.<sig>',
      sid,
      /^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]+$/,
    )
    t.match(
      'cookie is HttpOnly and SameSite=Lax',
      setCookie(res),
      /HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/i,
    )

    res = await withSid('/count', sid)
    t.equal('the session persists across requests', (await res.json()).views, 2)

    const [id, sig = ''] = sid.split('.')
    const forged = `${id}.${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`
    res = await withSid('/peek', forged)
    t.equal('a tampered signature gives a fresh session', (await res.json()).views, 0)
    await t.status('a garbage cookie is not an error', await withSid('/peek', 'garbage'), 200)

    res = await withSid('/login', sid, 'POST')
    const newSid = cookieValue(res, 'sid') ?? ''
    t.ok('regenerate issues a new ID', newSid.length > 0 && newSid.split('.')[0] !== id, newSid)
    res = await withSid('/peek', newSid)
    t.equal('regenerate keeps the data', (await res.json()).views, 2)
    res = await withSid('/peek', sid)
    t.equal('the old ID is destroyed', (await res.json()).views, 0)

    res = await withSid('/logout', newSid, 'POST')
    t.match(
      'destroy clears the cookie',
      setCookie(res),
      /sid=;|Max-Age=0|Expires=Thu, 01 Jan 1970/i,
    )
    res = await withSid('/peek', newSid)
    t.equal('a destroyed session is gone from the store', (await res.json()).views, 0)
    store.destroy_()
  },
}
