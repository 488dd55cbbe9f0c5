export default {
  name: 'contentTypeGuard',
  from: '@palisade/middleware/content-type-guard',
  exports: ['contentTypeGuard'],
  async run({ mod: { contentTypeGuard }, Hono, t }) {
    const app = new Hono()
    app.use('*', contentTypeGuard({ required: ['application/json', 'multipart/*'] }))
    app.all('/', (c) => c.text('ok'))
    const post = (ct) =>
      app.request('/', { method: 'POST', body: 'x', headers: ct ? { 'Content-Type': ct } : {} })

    await t.status('application/json passes', await post('application/json'), 200)
    await t.status(
      'parameters and case are ignored',
      await post('Application/JSON; charset=utf-8'),
      200,
    )
    await t.status('multipart/* wildcard', await post('multipart/form-data; boundary=x'), 200)
    await t.status('text/plain → 415', await post('text/plain'), 415, 'Unsupported Media Type')
    const noType = await app.request('/', { method: 'POST', body: new Uint8Array([1, 2]) })
    await t.status('missing Content-Type → 415', noType, 415)
    await t.status('GET is not guarded', await app.request('/'), 200)
  },
}
