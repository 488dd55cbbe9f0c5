export default {
  name: 'ssrfGuard',
  from: '@palisade/middleware/ssrf-guard',
  exports: ['ssrfGuard', 'checkUrl'],
  async run({ mod: { ssrfGuard, checkUrl }, Hono, t }) {
    const app = new Hono()
    app.use('/fetch', ssrfGuard())
    app.post('/fetch', async (c) => c.text(`handler saw ${(await c.req.json()).url ?? 'no url'}`))
    const post = (body) =>
      app.request('/fetch', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      })

    // IP literals only: the matrix runs offline, and these never reach DNS.
    const blocked = [
      'http://127.0.0.1/',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://localhost:8080/',
      'http://api.localhost/',
      'http://metadata.google.internal/',
    ]
    for (const url of blocked)
      await t.status(`blocks ${url}`, await post({ url }), 403, 'Forbidden URL')
    await t.status(
      'file: scheme → 400 Invalid URL',
      await post({ url: 'file:///etc/passwd' }),
      400,
      'Invalid URL',
    )
    await t.status('unparseable URL → 400', await post({ url: 'http://[::1' }), 400)
    await t.status(
      'public IP literal passes, body still readable',
      await post({ url: 'http://93.184.216.34/' }),
      200,
      'handler saw http://93.184.216.34/',
    )
    await t.status('body without url passes', await post({ other: 1 }), 200, 'handler saw no url')

    const r = await checkUrl('http://192.168.1.10/', { allowPrivate: true })
    t.ok('checkUrl: allowPrivate opens RFC 1918', r.ok === true, JSON.stringify(r))
    const loop = await checkUrl('http://127.0.0.1/', { allowPrivate: true })
    t.ok(
      'checkUrl: loopback stays blocked with allowPrivate',
      loop.ok === false && loop.status === 403,
    )
    // Hostname path with an injected resolver (no network): any blocked answer blocks.
    const rebinding = await checkUrl('http://example.test/', {
      resolve: async () => ['93.184.216.34', '10.0.0.5'],
    })
    t.ok('checkUrl: hostname resolving to a private address is blocked', rebinding.ok === false)
    const pub = await checkUrl('http://example.test/', { resolve: async () => ['93.184.216.34'] })
    t.ok('checkUrl: hostname resolving to a public address passes', pub.ok === true)
    const fail = await checkUrl('http://example.test/', {
      resolve: async () => {
        throw new Error('ENOTFOUND')
      },
    })
    t.ok(
      'checkUrl: failed lookup blocks (fail closed)',
      fail.ok === false && fail.reason === 'dns-failure',
    )
  },
}
