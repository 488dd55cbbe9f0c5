// Every body-reading middleware in one chain, served by the runtime's real HTTP server: bodyLimit
// counts the stream, csrf, ssrfGuard and xssSanitize each read the body, and the handler still
// reads it intact. Catches ordering and stream-reuse bugs that single-middleware cases cannot.
import { listen } from './server.mjs'

const cookieValue = (res, name) => {
  const m = (res.headers.get('set-cookie') ?? '').match(new RegExp(`(?:^|, )${name}=([^;]*)`))
  return m ? decodeURIComponent(m[1]) : null
}

export default {
  name: 'stack',
  from: '@palisade/middleware',
  exports: ['requestId', 'logger', 'securityHeaders', 'cors', 'bodyLimit', 'rateLimit', 'csrf'],
  barrel: false,
  async run({ mod, Hono, t, runtime }) {
    const lines = []
    const app = new Hono()
    app.use('*', mod.requestId())
    app.use('*', mod.logger({ sink: (l) => lines.push(l) }))
    app.use('*', mod.securityHeaders())
    app.use('*', mod.cors({ origin: 'https://app.example', credentials: true }))
    app.use('*', mod.bodyLimit({ max: 2048 }))
    app.use('*', mod.rateLimit({ max: 100 }))
    app.use('*', mod.csrf())
    app.use('/api/*', mod.ssrfGuard())
    app.use('/api/*', mod.xssSanitize())
    app.get('/token', (c) => c.text(c.get('csrfToken')))
    app.post('/api/fetch', async (c) => {
      const raw = await c.req.json()
      return c.json({ raw, clean: mod.sanitizedBody(c) })
    })

    const server = await listen(app, runtime)
    const url = (p) => `http://127.0.0.1:${server.port}${p}`
    try {
      let res = await fetch(url('/token'), { headers: { Origin: 'https://app.example' } })
      const token = cookieValue(res, 'XSRF-TOKEN') ?? ''
      t.equal('GET /token → 200', res.status, 200)
      t.equal(
        'cors + securityHeaders on the same response',
        `${res.headers.get('access-control-allow-origin')} ${res.headers.get('x-frame-options')}`,
        'https://app.example DENY',
      )
      await res.text()

      const headers = {
        'Content-Type': 'application/json',
        Cookie: `XSRF-TOKEN=${encodeURIComponent(token)}`,
        'X-XSRF-Token': token,
      }
      const post = (body, extra = {}) =>
        fetch(url('/api/fetch'), {
          method: 'POST',
          headers: { ...headers, ...extra },
          body,
          duplex: 'half',
        })
      const body = JSON.stringify({ url: 'http://93.184.216.34/', note: '<b>hi</b>' })

      res = await post(body)
      const out =
        res.status === 200 ? await res.json() : { status: res.status, text: await res.text() }
      t.ok('the whole chain passes a good request', res.status === 200, JSON.stringify(out))
      t.equal('the handler reads the raw body intact', out.raw?.note, '<b>hi</b>')
      t.equal('sanitizedBody after every other reader', out.clean?.note, '&lt;b&gt;hi&lt;/b&gt;')

      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(body))
          controller.close()
        },
      })
      res = await post(stream)
      await t.status('a chunked JSON body passes the chain too', res, 200)

      res = await post(JSON.stringify({ url: 'http://127.0.0.1:6379/' }))
      await t.status('ssrfGuard inside the chain → 403', res, 403, 'Forbidden URL')
      res = await post(body, { 'X-XSRF-Token': 'wrong' })
      await t.status('csrf inside the chain → 403', res, 403, 'Invalid CSRF token')
      res = await post(JSON.stringify({ url: 'http://93.184.216.34/', pad: 'x'.repeat(4096) }))
      await t.status('bodyLimit inside the chain → 413', res, 413)
      t.ok(
        'rejections still carry the request ID',
        /^[\w.:=+/-]+$/.test(res.headers.get('x-request-id') ?? ''),
      )
      t.ok('logger saw every request', lines.length === 6, lines.join(' | '))
    } finally {
      await server.close()
    }
  },
}
