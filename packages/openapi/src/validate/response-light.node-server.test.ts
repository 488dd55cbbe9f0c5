// The response check on a real @hono/node-server (issue 42): a route whose declared status has
// no schema answers with node-server's lightweight response still holding the plain header
// record it was built with. Reading `res.headers` (the Content-Type, which decides nothing
// there) turned that record into undici Headers, which the server then copied back into a record
// on every request: 12–15 µs a request over HTTP for the six middleware behind the wrapper.
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openapi } from '../app/openapi'

/** True when `res` is node-server's lightweight response with its header record untouched. */
function recordKept(res: Response): boolean {
  const bag = res as unknown as Record<symbol, unknown>
  const key = Object.getOwnPropertySymbols(res).find((k) => Array.isArray(bag[k]))
  const headers = key === undefined ? undefined : (bag[key] as unknown[])[2]
  return typeof headers === 'object' && headers !== null && !(headers instanceof Headers)
}

const seen: Record<string, boolean> = {}
let server: ReturnType<typeof serve>
let base = ''

beforeAll(async () => {
  const app = new Hono()
  app.use(async (c, next) => {
    await next()
    seen[c.req.path] = recordKept(c.res)
  })
  const api = openapi(app, { info: { title: 't', version: '1' } })
  api.get('/me', (c) => c.json({ ok: true }), {
    openapi: { responses: { 200: { description: 'The caller' } } },
  })
  server = serve({ fetch: api.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

it('leaves the header record of a declared status without a schema unread', async () => {
  const res = await fetch(`${base}/me`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  expect(await res.json()).toEqual({ ok: true })
  expect(seen['/me']).toBe(true)
})
