// The CommonJS build, loaded with require() in every runtime: a CJS app end to end, and CJS
// middleware inside an ESM Hono app (the dual-package case: a rejection thrown by the CJS copy of
// HTTPException must still become its 4xx response, not a 500).
import { createRequire } from 'node:module'

export default {
  name: 'cjs',
  from: '@palisade/middleware',
  exports: [],
  barrel: false,
  async run({ Hono: EsmHono, t }) {
    const require = createRequire(import.meta.url)
    const resolved = require.resolve('@palisade/middleware')
    t.match('require() resolves to the CJS build', resolved, /\/dist\/index\.cjs$/)
    const mw = require('@palisade/middleware')
    const cors = require('@palisade/middleware/cors')
    t.ok('subpath and root CJS exports agree', cors.cors === mw.cors, 'cors differs')

    const { Hono } = require('hono')
    const app = new Hono()
    app.use('*', mw.cors({ origin: 'https://a.example' }))
    app.use('/upload', mw.bodyLimit({ max: 4 }))
    app.post('/upload', (c) => c.text('ok'))
    let res = await app.request('/upload', {
      method: 'POST',
      body: 'too long',
      headers: { Origin: 'https://a.example' },
    })
    await t.status('CJS app: bodyLimit → 413', res, 413, 'Content Too Large')

    const mixed = new EsmHono()
    mixed.use('*', mw.ipGuard({ list: ['10.0.0.0/8'] }))
    mixed.get('/', (c) => c.text('ok'))
    res = await mixed.request('/', { headers: { 'X-Forwarded-For': '10.0.0.1' } })
    await t.status(
      'CJS middleware in an ESM app: rejection keeps its 403',
      res,
      403,
      'Access denied',
    )
  },
}
