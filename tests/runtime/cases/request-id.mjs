export default {
  name: 'requestId',
  from: '@palisade/middleware/request-id',
  exports: ['requestId'],
  async run({ mod: { requestId }, Hono, t }) {
    const app = new Hono()
    app.use('*', requestId())
    app.get('/', (c) => c.text(c.get('requestId')))
    let res = await app.request('/')
    const generated = res.headers.get('x-request-id')
    t.match(
      'generates an ID and writes it to the response',
      generated,
      /^[A-Za-z0-9._:=+/-]{1,255}$/,
    )
    t.equal('handler sees the same ID', await res.text(), generated)

    res = await app.request('/', { headers: { 'X-Request-ID': 'upstream-123' } })
    t.equal('reuses a well-formed upstream ID', res.headers.get('x-request-id'), 'upstream-123')

    res = await app.request('/', { headers: { 'X-Request-ID': 'bad id "quoted"' } })
    t.ok('replaces an ID with spaces/quotes', res.headers.get('x-request-id') !== 'bad id "quoted"')
    res = await app.request('/', { headers: { 'X-Request-ID': 'a'.repeat(256) } })
    t.ok('replaces a 256-character ID', res.headers.get('x-request-id')?.length !== 256)

    const own = new Hono()
    own.use('*', requestId({ generate: () => 'fixed-id', trustUpstream: false, contextKey: 'rid' }))
    own.get('/', (c) => c.text(c.get('rid')))
    res = await own.request('/', { headers: { 'X-Request-ID': 'upstream-123' } })
    t.equal(
      'trustUpstream: false ignores the client ID',
      res.headers.get('x-request-id'),
      'fixed-id',
    )
    t.equal('contextKey + generate', await res.text(), 'fixed-id')
  },
}
