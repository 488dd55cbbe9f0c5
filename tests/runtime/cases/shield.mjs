export default {
  name: 'shield',
  from: '@palisade/middleware/shield',
  exports: ['shield'],
  async run({ mod: { shield }, Hono, t }) {
    const app = new Hono()
    app.use('*', shield())
    app.post('/', async (c) => {
      try {
        return c.json({ got: await c.req.json() })
      } catch {
        return c.text('the handler refuses malformed JSON', 400)
      }
    })
    app.get('*', (c) => c.text('ok'))
    const post = (text, type = 'application/json') =>
      app.request('/', { method: 'POST', body: text, headers: { 'Content-Type': type } })

    const clean = await post('{"name":"O\'Brien","n":1}')
    t.equal('a clean JSON body → 200', clean.status, 200)
    t.equal('the body stays readable by the handler', (await clean.json()).got?.name, "O'Brien")
    await t.status(
      'an attack in a JSON field → 403',
      await post('{"c":"<script>alert(1)</script>"}'),
      403,
      'Forbidden',
    )
    await t.status(
      'an attack in the query → 403',
      await app.request('/s?q=%27%20OR%201%3D1--'),
      403,
      'Forbidden',
    )
    t.equal('a scanner probe → 403', (await app.request('/.env')).status, 403)
    t.equal(
      'malformed JSON passes shield (inspected as text) to the handler',
      (await post('{"a":')).status,
      400,
    )
    t.equal(
      'malformed JSON carrying an attack → 403',
      (await post('{"a":"<script>", oops')).status,
      403,
    )

    // A gzip body is decoded (DecompressionStream) and inspected; the handler gets it as sent.
    const gzip = async (text) =>
      new Uint8Array(
        await new Response(
          new Blob([text]).stream().pipeThrough(new CompressionStream('gzip')),
        ).arrayBuffer(),
      )
    const encoded = (bytes) =>
      app.request('/', {
        method: 'POST',
        body: bytes,
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      })
    t.equal(
      'an attack in a gzip JSON body → 403',
      (await encoded(await gzip('{"c":"<script>alert(1)</script>"}'))).status,
      403,
    )
    t.equal(
      'a clean gzip JSON body passes shield (this handler does not decode it: 400)',
      (await encoded(await gzip('{"c":"hello"}'))).status,
      400,
    )

    const dry = new Hono()
    dry.use('*', shield({ dryRun: true }))
    dry.get('*', (c) => c.text('ok'))
    t.equal('dry run lets the attack through', (await dry.request('/?q=%3Cscript%3E')).status, 200)
  },
}
