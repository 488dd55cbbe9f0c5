// The header-record path on @hono/node-server 1.x (1.19.19, what apps that have not upgraded
// run). On 1.x, headers edited through `c.res.headers` on a `c.json()` response are dropped once
// something later reads the body (honojs/node-server#357, fixed in 2.0.3): the record path builds
// a Response whose own init carries the headers, so they survive there too. A file of its own:
// each test file has its own globals, and node-server puts its Response class in them.
import { serve } from '@hono/node-server-1'
import { Hono } from 'hono'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Served, serveOnLoopback } from '../../../test/node-server'
import { cors } from '../../cors'
import { rateLimit } from '../../rate-limit'
import { securityHeaders } from '../../security-headers'

const ORIGIN = 'https://app.example'
const constant = { 'Content-Type': 'application/json' }
let served: Served

beforeAll(async () => {
  const app = new Hono()
  app.use('/outer/*', async (c, next) => {
    await next()
    c.header('x-outer', '1') // reads the body first (bodyUsed), as on 2.x
  })
  app.use(securityHeaders())
  app.use(cors({ origin: ORIGIN }))
  app.use(rateLimit({ max: 1_000_000, keyGenerator: () => 'everyone' }))
  app.get('/constant/*', (c) => c.body('{}', 200, constant))
  app.get('*', (c) => c.json({ ok: true }))
  served = await serveOnLoopback(app, serve as unknown as Parameters<typeof serveOnLoopback>[1])
})

afterAll(() => served.close())

it('keeps every header when an outer middleware reads the body first (node-server#357)', async () => {
  for (const path of ['/plain', '/outer/x', '/constant/x']) {
    const res = await fetch(`${served.base}${path}`, { headers: { origin: ORIGIN } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(res.headers.get('ratelimit-limit')).toBe('1000000')
    if (path.startsWith('/outer')) expect(res.headers.get('x-outer')).toBe('1')
    await res.text()
  }
  expect(constant).toEqual({ 'Content-Type': 'application/json' })
})
