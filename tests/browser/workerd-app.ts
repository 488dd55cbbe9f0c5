/**
 * A documented app as a Cloudflare Worker, for tests/browser/workerd-pages.test.ts: `openapi()`
 * with its spec, explorer and reference pages, behind `securityHeaders()` and `rateLimit`,
 * bundled from source and served by workerd through miniflare.
 */
import { rateLimit } from '@palisade/middleware/rate-limit'
import { securityHeaders } from '@palisade/middleware/security-headers'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'

const app = new Hono()
app.use('*', securityHeaders())
app.use('/books/*', rateLimit({ max: 100 }))
const api = openapi(app, { info: { title: 'Books on Workers', version: '1.0.0' } })

const book = {
  type: 'object',
  properties: { id: { type: 'string' }, title: { type: 'string' } },
  required: ['id', 'title'],
}

api.get('/books', (c) => c.json([{ id: '1', title: 'Dune' }]), {
  openapi: { summary: 'List books', responses: { 200: { description: 'Books' } } },
})
api.post('/books', async (c) => c.json({ id: '2', ...(await c.req.json()) }, 201), {
  openapi: {
    summary: 'Add a book',
    request: { body: { type: 'object', properties: { title: { type: 'string' } } } },
    responses: { 201: { description: 'Created', schema: book } },
  },
})

export default app
