export default {
  name: 'apiKey',
  from: '@palisade/middleware/api-key',
  exports: ['apiKey', 'MemoryApiKeyStore'],
  async run({ mod: { apiKey, MemoryApiKeyStore }, Hono, t }) {
    const store = new MemoryApiKeyStore()
    const id = await store.add('sk_live_runtime_matrix', { plan: 'pro' })
    t.ok('add returns an id', typeof id === 'string' && id.length > 0)

    const app = new Hono()
    app.use('/h/*', apiKey({ store }))
    app.use('/q/*', apiKey({ store, extractFrom: 'query' }))
    app.use(
      '/b/*',
      apiKey({ store, extractFrom: 'both', headerName: 'X-Key', contextKey: 'client' }),
    )
    app.get('/h/x', (c) => c.json(c.get('apiKey')))
    app.get('/q/x', (c) => c.json(c.get('apiKey')))
    app.get('/b/x', (c) => c.json(c.get('client')))

    let res = await app.request('/h/x', { headers: { 'X-API-Key': 'sk_live_runtime_matrix' } })
    t.equal('valid header key → 200', res.status, 200)
    const info = await res.json()
    t.ok(
      'context holds { id, metadata }',
      info.id === id && info.metadata?.plan === 'pro',
      JSON.stringify(info),
    )

    res = await app.request('/h/x', { headers: { 'X-API-Key': 'sk_live_wrong' } })
    const text = await res.text()
    t.ok(
      'invalid key → 401 Invalid API key',
      res.status === 401 && text === 'Invalid API key',
      `${res.status} ${text}`,
    )
    t.ok('the key is not echoed in the rejection', !text.includes('sk_live'))
    await t.status('missing key → 401', await app.request('/h/x'), 401, 'Invalid API key')
    await t.status(
      'query extraction',
      await app.request('/q/x?api_key=sk_live_runtime_matrix'),
      200,
    )
    await t.status(
      'header-only mode ignores the query',
      await app.request('/h/x?api_key=sk_live_runtime_matrix'),
      401,
    )
    await t.status(
      'both mode, custom header',
      await app.request('/b/x', { headers: { 'X-Key': 'sk_live_runtime_matrix' } }),
      200,
    )

    await store.remove('sk_live_runtime_matrix')
    t.equal('removed key no longer validates', await store.validate('sk_live_runtime_matrix'), null)
    await store.destroy()
  },
}
