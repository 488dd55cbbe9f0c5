export default {
  name: 'cors',
  from: '@palisade/middleware/cors',
  exports: ['cors'],
  async run({ mod: { cors }, Hono, t }) {
    const app = new Hono()
    let reachedHandler = false
    app.use('/none/*', cors())
    app.use('/api/*', cors({ origin: ['https://a.example'], credentials: true, maxAge: 600 }))
    app.all('*', (c) => {
      reachedHandler = true
      c.header('Vary', 'Accept-Encoding')
      return c.text('ok')
    })

    let res = await app.request('/none/x', { headers: { Origin: 'https://a.example' } })
    t.equal(
      'no Allow-Origin when origin is unset',
      res.headers.get('access-control-allow-origin'),
      null,
    )

    res = await app.request('/api/x', { headers: { Origin: 'https://a.example' } })
    t.equal(
      'listed origin is reflected',
      res.headers.get('access-control-allow-origin'),
      'https://a.example',
    )
    t.equal('credentials allowed', res.headers.get('access-control-allow-credentials'), 'true')
    t.match(
      "Vary: Origin appended to the handler's Vary",
      res.headers.get('vary'),
      /Accept-Encoding.*Origin|Origin.*Accept-Encoding/i,
    )

    res = await app.request('/api/x', { headers: { Origin: 'https://evil.example' } })
    t.equal(
      'unlisted origin gets no Allow-Origin',
      res.headers.get('access-control-allow-origin'),
      null,
    )

    reachedHandler = false
    res = await app.request('/api/x', {
      method: 'OPTIONS',
      headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'PUT' },
    })
    await t.status('preflight answers 204', res, 204)
    t.ok('preflight does not reach the handler', !reachedHandler)
    t.match('preflight Allow-Methods', res.headers.get('access-control-allow-methods'), /PUT/)
    t.match(
      'preflight Allow-Headers',
      res.headers.get('access-control-allow-headers'),
      /content-type/i,
    )
    t.equal('preflight Max-Age', res.headers.get('access-control-max-age'), '600')
  },
}
