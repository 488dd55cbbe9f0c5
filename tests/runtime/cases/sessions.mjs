const cookieValue = (res, name) => {
  const m = (res.headers.get('set-cookie') ?? '').match(new RegExp(`(?:^|, )${name}=([^;]*)`))
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
    app.get('/peek', (c) => c.json({ views: c.get('session').views ?? 0 }))
    app.get('/count', (c) => {
      const s = c.get('session')
      s.views = (s.views ?? 0) + 1
      return c.json({ views: s.views })
    })

    let res = await app.request('/peek')
    t.equal('an untouched new session sets no cookie', res.headers.get('set-cookie'), null)

    res = await app.request('/count')
    const sid = cookieValue(res, 'sid')
    t.match(
      'a written session sets a signed sid cookie <id>.<sig>',
      sid,
      /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
    )
    t.match('cookie is HttpOnly; SameSite=Lax; Path=/', res.headers.get('set-cookie'), /HttpOnly/i)

    res = await app.request('/count', { headers: { Cookie: `sid=${sid}` } })
    t.equal('the session persists across requests', (await res.json()).views, 2)

    const [id, sig] = sid.split('.')
    const forged = `${id}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`
    res = await app.request('/peek', { headers: { Cookie: `sid=${forged}` } })
    t.equal('a tampered signature gives a fresh session', (await res.json()).views, 0)
    res = await app.request('/peek', { headers: { Cookie: 'sid=garbage' } })
    await t.status('a garbage cookie is not an error', res, 200)
    store.destroy_()
  },
}
