import { Hono } from 'hono'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { generateSpec } from '../document/generate'
import { openapi } from './openapi'

// Counts document generations: the wrapper must build the document once per set of routes.
vi.mock('../document/generate', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../document/generate')>()
  return { ...actual, generateSpec: vi.fn(actual.generateSpec) }
})
const generations = vi.mocked(generateSpec)

const info = { title: 'Cached API', version: '1.0.0' }

function build() {
  const api = openapi(new Hono(), { info })
  api.get('/users/:id', (c) => c.json({ id: c.req.param('id') }), {
    openapi: {
      responses: { 200: { description: 'A user', schema: z.object({ id: z.string() }) } },
    },
  })
  // Registration checks each route on its own; only whole-document generations count below.
  generations.mockClear()
  return api
}

describe('document cache', () => {
  beforeEach(() => {
    generations.mockClear()
  })

  it('generates the document once for 1,000 spec requests', async () => {
    const api = build()
    const bodies = new Set<string>()
    for (let i = 0; i < 1000; i++) bodies.add(await (await api.request('/openapi.json')).text())
    expect(generations).toHaveBeenCalledTimes(1)
    expect(bodies.size).toBe(1)
  })

  it('does not generate the document to serve the pages or their files', async () => {
    const api = build()
    for (let i = 0; i < 10; i++) {
      await api.request('/explorer')
      await api.request('/reference')
    }
    expect(generations).not.toHaveBeenCalled()
  })

  it('generates again only after a route is added, then caches again', async () => {
    const api = build()
    const first = api.spec()
    for (let i = 0; i < 5; i++) expect(api.spec()).toBe(first)
    expect(generations).toHaveBeenCalledTimes(1)
    api.post('/users', (c) => c.text('created', 201))
    api.use(async (_c, next) => next()) // middleware does not change the document
    generations.mockClear() // the route check at registration
    for (let i = 0; i < 5; i++) await api.request('/openapi.json')
    expect(generations).toHaveBeenCalledTimes(1)
    expect(Object.keys(api.spec().paths)).toEqual(['/users/{id}', '/users'])
    expect(generations).toHaveBeenCalledTimes(1)
  })

  it('serves the mounted document from the same generation', async () => {
    const api = build()
    const root = new Hono().route('/a', api.app).route('/b', api.app)
    for (let i = 0; i < 100; i++) {
      await root.request('/a/openapi.json')
      await root.request('/b/openapi.json')
      await api.request('/openapi.json')
    }
    expect(generations).toHaveBeenCalledTimes(1)
  })
})
