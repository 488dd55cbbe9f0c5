export default {
  name: 'bodyLimit',
  from: '@palisade/middleware/body-limit',
  exports: ['bodyLimit'],
  async run({ mod: { bodyLimit }, Hono, t }) {
    let handlerRan = false
    const app = new Hono()
    app.use('*', bodyLimit({ max: 16 }))
    app.post('/', async (c) => {
      handlerRan = true
      return c.text(`got ${(await c.req.text()).length}`)
    })

    let res = await app.request('/', { method: 'POST', body: 'x'.repeat(16) })
    await t.status('body at the limit is readable by the handler', res, 200, 'got 16')

    handlerRan = false
    res = await app.request('/', { method: 'POST', body: 'x'.repeat(17) })
    await t.status('Content-Length over max → 413', res, 413, 'Content Too Large')
    t.ok('handler did not run for an oversized body', !handlerRan)

    // A streamed body has no Content-Length: it must be counted as it arrives.
    const stream = (chunks) =>
      new ReadableStream({
        start(controller) {
          for (const c of chunks) controller.enqueue(new TextEncoder().encode(c))
          controller.close()
        },
      })
    handlerRan = false
    res = await app.request(
      new Request('http://localhost/', {
        method: 'POST',
        body: stream(['x'.repeat(10), 'x'.repeat(10)]),
        duplex: 'half',
      }),
    )
    await t.status('streamed body over max → 413', res, 413)
    t.ok('handler did not run for an oversized stream', !handlerRan)

    res = await app.request(
      new Request('http://localhost/', {
        method: 'POST',
        body: stream(['abc', 'def']),
        duplex: 'half',
      }),
    )
    await t.status('streamed body under max reaches the handler intact', res, 200, 'got 6')
  },
}
