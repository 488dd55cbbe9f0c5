export default {
  name: 'xssSanitize',
  from: '@palisade/middleware/xss-sanitize',
  exports: ['xssSanitize', 'sanitizedBody'],
  async run({ mod: { xssSanitize, sanitizedBody }, Hono, t }) {
    const app = new Hono()
    app.use('*', xssSanitize())
    app.post('/', async (c) => c.json({ clean: sanitizedBody(c) ?? null, raw: await c.req.text() }))
    const post = (text, type = 'application/json') =>
      app.request('/', { method: 'POST', body: text, headers: { 'Content-Type': type } })

    const raw = '{"name":"<script>alert(1)</script>","nested":{"list":[{"q":"a\\"b\'c&d"}]},"n":5}'
    const res = await post(raw)
    t.equal('JSON body → 200', res.status, 200)
    const { clean, raw: seen } = await res.json()
    t.equal('strings are HTML-entity encoded', clean?.name, '&lt;script&gt;alert(1)&lt;/script&gt;')
    t.match(
      'encoding reaches objects in arrays in objects',
      clean?.nested?.list?.[0]?.q,
      /^a&quot;b&#(x27|39);c&amp;d$/,
    )
    t.equal('non-strings untouched', clean?.n, 5)
    t.equal('the raw body stays readable and unchanged', seen, raw)

    const proto = await post('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"x":1}}}')
    const body = await proto.json()
    t.ok(
      '__proto__ stays plain data',
      body.clean && Object.hasOwn(body.clean, '__proto__'),
      JSON.stringify(body),
    )
    t.equal('no prototype pollution', {}.polluted, undefined)

    await t.status('malformed JSON → 400', await post('{"a":'), 400, 'Malformed JSON')
    const text = await post('hello <b>', 'text/plain')
    t.equal('non-JSON request: sanitizedBody is undefined', (await text.json()).clean, null)

    const { sanitizedQuery } = await import('@palisade/middleware/xss-sanitize')
    const scoped = new Hono()
    scoped.use('*', xssSanitize({ fields: ['bio', 'q'], sanitizeQuery: true }))
    scoped.post('/', (c) => c.json({ body: sanitizedBody(c), query: sanitizedQuery(c) ?? null }))
    const r = await scoped.request('/?q=%3Cimg%20onerror%3Dx%3E', {
      method: 'POST',
      body: '{"bio":"<b>hi</b>","html":"<i>kept</i>"}',
      headers: { 'Content-Type': 'application/json' },
    })
    const out = await r.json()
    t.equal('fields: the named key is encoded', out.body?.bio, '&lt;b&gt;hi&lt;/b&gt;')
    t.equal('fields: other keys are left alone', out.body?.html, '<i>kept</i>')
    t.equal(
      'sanitizeQuery encodes query values (fields apply to query keys too)',
      out.query?.q,
      '&lt;img onerror=x&gt;',
    )
  },
}
