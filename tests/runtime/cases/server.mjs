// Through each runtime's real HTTP server (Node: @hono/node-server, Bun.serve, Deno.serve), where
// the client IP comes from the connection instead of a header, and bodies arrive as real streams.

export async function listen(app, runtime) {
  if (runtime === 'bun') {
    const server = globalThis.Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })
    return { port: server.port, close: async () => server.stop(true) }
  }
  if (runtime === 'deno') {
    const server = globalThis.Deno.serve(
      { port: 0, hostname: '127.0.0.1', onListen() {} },
      app.fetch,
    )
    return { port: server.addr.port, close: () => server.shutdown() }
  }
  const { serve } = await import('@hono/node-server')
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        port: info.port,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.()
            server.close(() => done())
          }),
      }),
    )
  })
}

export default {
  name: 'server',
  from: '@palisade/middleware',
  exports: ['ipGuard', 'rateLimit', 'bodyLimit', 'requestTimeout', 'requestId'],
  barrel: false,
  async run({ mod, Hono, t, runtime }) {
    const { ipGuard, rateLimit, bodyLimit, requestTimeout, requestId } = mod
    const app = new Hono()
    app.use('*', requestId())
    app.use('/deny/*', ipGuard({ mode: 'deny', list: ['127.0.0.0/8', '::1'] }))
    app.use('/allow/*', ipGuard({ mode: 'allow', list: ['127.0.0.1', '::1'] }))
    app.use('/limited/*', rateLimit({ max: 1, windowMs: 60_000 }))
    app.use('/upload/*', bodyLimit({ max: 1024 }))
    app.use('/slow/*', requestTimeout({ ms: 50 }))
    app.get('/deny/x', (c) => c.text('ok'))
    app.get('/allow/x', (c) => c.text('ok'))
    app.get('/limited/x', (c) => c.text('ok'))
    app.post('/upload/x', async (c) => c.text(`got ${(await c.req.arrayBuffer()).byteLength}`))
    app.get('/slow/x', async (c) => {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 1000)
        c.get('timeoutSignal').addEventListener('abort', () => {
          clearTimeout(timer)
          resolve()
        })
      })
      return c.text('late')
    })

    const server = await listen(app, runtime)
    const url = (p) => `http://127.0.0.1:${server.port}${p}`
    const get = (p, headers = {}) => fetch(url(p), { headers })
    try {
      const spoof = { 'X-Forwarded-For': '203.0.113.9' }
      let res = await get('/deny/x', spoof)
      await t.status('ipGuard uses the connection address, not a spoofed X-Forwarded-For', res, 403)
      res = await get('/allow/x', spoof)
      await t.status('ipGuard allow-list matches the real client 127.0.0.1', res, 200, 'ok')

      await t.status('rateLimit: first request', await get('/limited/x', spoof), 200)
      const second = await get('/limited/x', { 'X-Forwarded-For': '198.51.100.1' })
      await t.status(
        'rateLimit keys on the connection IP (changing XFF does not help)',
        second,
        429,
      )

      const chunks = (n, size) =>
        new ReadableStream({
          start(controller) {
            for (let i = 0; i < n; i++) controller.enqueue(new Uint8Array(size))
            controller.close()
          },
        })
      const upload = (body) => fetch(url('/upload/x'), { method: 'POST', body, duplex: 'half' })
      await t.status('bodyLimit: chunked upload over max → 413', await upload(chunks(8, 512)), 413)
      await t.status(
        'bodyLimit: chunked upload under max passes',
        await upload(chunks(2, 256)),
        200,
        'got 512',
      )
      await t.status(
        'bodyLimit: Content-Length upload over max → 413',
        await upload(new Uint8Array(2048)),
        413,
      )

      res = await get('/slow/x')
      await t.status('requestTimeout → 408 over a real connection', res, 408)
      t.match(
        'requestId header on a rejected response',
        res.headers.get('x-request-id'),
        /^[\w.:=+/-]+$/,
      )
    } finally {
      await server.close()
    }
  },
}
