// The switch of the borrowed internals (`globalThis.__PALISADE_NO_INTERNALS__`) on a real
// @hono/node-server: switched off, nothing of node-server's internals is read, and every answer
// (status, headers, body) is the one the internals give. The flag is turned on and off around
// the same served app, request by request.
import { Hono } from 'hono'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Served, serveOnLoopback } from '../../../test/node-server'
import { bodyLimit } from '../../body-limit'
import { cors } from '../../cors'
import { csrf } from '../../csrf'
import { rateLimit } from '../../rate-limit'
import { securityHeaders } from '../../security-headers'
import { ssrfGuard } from '../../ssrf-guard'
import { xssSanitize } from '../../xss-sanitize'
import { mayHaveBody } from './body'
import { recordHeaders } from './light-response'
import {
  internalsSwitchedOff,
  lightResponseParts,
  probeNodeServerInternals,
  socketMessage,
} from './node-server'

const ORIGIN = 'https://app.example'
/** What the run started with (tests/versions/run.mjs may have switched the internals off). */
const initial = internalsSwitchedOff()
const flag = globalThis as { __PALISADE_NO_INTERNALS__?: boolean }

function switchOff(off: boolean): void {
  if (off) flag.__PALISADE_NO_INTERNALS__ = true
  else delete flag.__PALISADE_NO_INTERNALS__
}

afterEach(() => switchOff(initial))

let served: Served
const reads: { record: boolean; message: boolean }[] = []

beforeAll(async () => {
  const app = new Hono()
  app.use(async (c, next) => {
    const message = socketMessage(c) !== undefined
    await next()
    reads.push({ record: lightResponseParts(c.res) !== undefined, message })
  })
  app.use(securityHeaders())
  app.use(cors({ origin: ORIGIN }))
  app.use(rateLimit({ max: 1_000_000, keyGenerator: () => 'everyone' }))
  app.use(bodyLimit({ max: 100 }))
  app.use(ssrfGuard())
  app.use(xssSanitize())
  app.use('/form/*', csrf({ origins: [ORIGIN] }))
  app.get('/json', (c) => c.json({ ok: true }))
  app.get('/text', (c) => c.text('hello', 201, { 'X-Mine': 'a' }))
  app.get('/bytes', (c) => c.body(new Uint8Array([104, 105])))
  app.get('/empty', (c) => c.body(null, 204))
  app.get('/redirect', () => Response.redirect('https://example.com/there', 307))
  app.get('/stream', () => new Response(new Blob(['streamed']).stream()))
  app.get('/has-body', (c) => c.text(String(mayHaveBody(c))))
  app.post('/echo', async (c) => c.json(await c.req.json()))
  app.post('/form/x', (c) => c.text('form ok'))
  app.post('/upload', async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)))
  served = await serveOnLoopback(app)
})

afterAll(() => served.close())

/** Every request of the table: what a browser or client sends to the stack above. */
const requests: [string, RequestInit?][] = [
  ['/json'],
  ['/json', { headers: { origin: ORIGIN } }],
  [
    '/json',
    { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } },
  ],
  ['/text'],
  ['/bytes'],
  ['/empty'],
  ['/redirect'],
  ['/stream'],
  ['/has-body'],
  ['/missing'],
  [
    '/echo',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"<b>x</b>"}' },
  ],
  [
    '/echo',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"u":"http://127.0.0.1/"}',
    },
  ],
  ['/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' }],
  ['/upload', { method: 'POST', body: 'x'.repeat(50) }],
  ['/upload', { method: 'POST', body: 'x'.repeat(5000) }],
  [
    '/form/x',
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      body: 'a=1',
    },
  ],
]

/** Status, headers (but the ones that change by the second) and body of one answer. */
async function answer(path: string, init?: RequestInit) {
  const res = await fetch(`${served.base}${path}`, { ...init, redirect: 'manual' })
  const headers = Object.fromEntries(
    [...res.headers].filter(
      ([name]) =>
        !['date', 'ratelimit-reset', 'ratelimit-remaining', 'keep-alive', 'connection'].includes(
          name,
        ),
    ),
  )
  return { status: res.status, headers, body: await res.text() }
}

describe('the switch of the borrowed internals, on a real @hono/node-server', () => {
  it('gives the same status, headers and body with the internals on and off', async () => {
    for (const [path, init] of requests) {
      switchOff(false)
      const on = await answer(path, init)
      switchOff(true)
      const off = await answer(path, init)
      expect({ path, ...off }).toEqual({ path, ...on })
    }
  })

  it('reads nothing of node-server’s internals when switched off, and reads them when on', async () => {
    switchOff(true)
    reads.length = 0
    await answer('/json')
    await answer('/upload', { method: 'POST', body: 'x' })
    expect(reads).toEqual([
      { record: false, message: false },
      { record: false, message: false },
    ])
    switchOff(false)
    reads.length = 0
    await answer('/json')
    await answer('/upload', { method: 'POST', body: 'x' })
    expect(reads).toEqual([
      { record: true, message: true },
      { record: true, message: true },
    ])
  })

  it('reports what it can read through the probe', () => {
    switchOff(false)
    expect(probeNodeServerInternals()).toEqual({ switchedOff: false, lightResponse: true })
    switchOff(true)
    expect(probeNodeServerInternals()).toEqual({ switchedOff: true, lightResponse: true })
  })

  it('leaves every response to the standard path when switched off', async () => {
    switchOff(true)
    const app = new Hono()
    let seen: unknown = 'not run'
    app.use(async (c, next) => {
      await next()
      seen = recordHeaders(c)
    })
    app.get('/', (c) => c.json({}))
    await app.request('/')
    expect(seen).toBeUndefined()
  })

  it('only takes `true` as the switch', () => {
    for (const value of [1, 'true', 'yes', {}]) {
      ;(flag as Record<string, unknown>).__PALISADE_NO_INTERNALS__ = value
      expect(internalsSwitchedOff()).toBe(false)
    }
  })
})
