// The header-record path on a real @hono/node-server: what goes on the wire must be what the
// standard path (`c.res.headers`) puts there, the caller's own objects are never written to, and
// every later reader of `c.res` sees the edits.
import fc from 'fast-check'
import { type Context, Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Served, serveOnLoopback } from '../../../test/node-server'
import { cors } from '../../cors'
import { rateLimit } from '../../rate-limit'
import { requestId } from '../../request-id'
import { securityHeaders } from '../../security-headers'
import { MemorySessionStore, sessions } from '../../sessions'
import { editResponseHeaders } from './headers'
import { recordHeaders } from './light-response'
import { internalsSwitchedOff } from './node-server'

/** Undici's own Response, taken before node-server puts its lightweight class in its place. */
const StandardResponse = globalThis.Response
const ORIGIN = 'https://app.example'

/** One response a handler can return, built from plain data (so fast-check can shrink it). */
interface Answer {
  status: number
  body: 'text' | 'bytes' | 'none'
  headers: [string, string][]
}

function build(Ctor: typeof Response, a: Answer): Response {
  const body = a.body === 'text' ? 'hello' : a.body === 'bytes' ? new Uint8Array([104, 105]) : null
  const headers: Record<string, string> = {}
  for (const [name, value] of a.headers) headers[name] = value
  return new Ctor(body, { status: a.status, headers })
}

const answers = new Map<string, Answer>()
let handled = 0

let served: Served
let base: string
const constant = { 'Content-Type': 'application/json' }
const constantCopy = { ...constant }
const observed: Record<string, unknown> = {}

beforeAll(async () => {
  const app = new Hono()
  // Outer readers, each reaching the finished response a different way after the middleware.
  app.use('/outer/body-first/*', async (c, next) => {
    await next()
    observed.bodyUsed = c.res.bodyUsed // materialises the lightweight response from its init
    c.header('x-outer', '1')
  })
  app.use('/outer/headers/*', async (c, next) => {
    await next()
    observed.headers = Object.fromEntries(c.res.headers)
  })
  app.use('/outer/text/*', async (c, next) => {
    await next()
    observed.text = await c.res.clone().text()
    observed.type = c.res.headers.get('content-type')
  })
  app.use(securityHeaders())
  app.use(cors({ origin: ORIGIN, exposeHeaders: ['x-request-id'] }))
  // A user's middleware between Palisade's (after requestId and rateLimit edited the record),
  // editing through the standard API: cors and securityHeaders must then edit what it left.
  app.use('/between/*', async (c, next) => {
    await next()
    c.res.headers.set('x-frame-options', 'SAMEORIGIN')
  })
  app.use(requestId())
  app.use(rateLimit({ max: 1_000_000, keyGenerator: () => 'everyone' }))
  app.use(
    '/session/*',
    sessions({
      secret: 'light-response-test-secret-0123456789abcdef',
      store: new MemorySessionStore(),
    }),
  )
  app.get('/session/*', (c) => {
    c.get('session').set('visits', 1)
    return new Response('{}', {
      headers: { 'Set-Cookie': 'theme=dark; Path=/', 'Content-Type': 'application/json' },
    })
  })
  app.get('/answer/:kind/:id', (c) => {
    const a = answers.get(c.req.param('id'))
    if (!a) return c.text('no such answer', 404)
    handled++
    return build(c.req.param('kind') === 'light' ? Response : StandardResponse, a)
  })
  // Own keys a literal cannot make, as a handler passing parsed JSON on would: `__proto__` and
  // names of Object.prototype's members.
  const hostile = '{"__proto__":"p","constructor":"c","toString":"t","Content-Type":"text/plain"}'
  app.get('/hostile/light', () => new Response('x', { headers: JSON.parse(hostile) }))
  app.get('/hostile/standard', () => new StandardResponse('x', { headers: JSON.parse(hostile) }))
  // A handler's own RateLimit headers, in any case: rateLimit's draft-6 values replace them.
  const ownQuota = {
    'RateLimit-Remaining': 'mine',
    ratelimit_other: 'kept',
    'RATELIMIT-POLICY': 'p',
  }
  app.get('/own-quota/light', () => new Response('x', { headers: ownQuota }))
  app.get('/own-quota/standard', () => new StandardResponse('x', { headers: ownQuota }))
  app.get('/untyped/bare', () => new Response('x'))
  app.get('/untyped/record', () => new Response('x', { headers: { 'x-a': '1' } }))
  app.get('/constant/*', (c) => c.body('{"n":1}', 200, constant))
  app.get('/redirect/*', () => Response.redirect('https://app.example/there', 303))
  app.get('/stream/*', () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'))
        controller.close()
      },
    })
    return new Response(stream, { headers: { 'content-type': 'text/plain' } })
  })
  app.get('*', (c) => c.json({ ok: true }))
  served = await serveOnLoopback(app)
  base = served.base
})

afterAll(() => served.close())

/** The response's headers as a plain object, without the ones that differ per response. */
function wire(res: Response): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of res.headers) {
    if (name === 'date' || name === 'x-request-id' || name.startsWith('ratelimit')) continue
    out[name] = value
  }
  return out
}

describe('header records on @hono/node-server', () => {
  it('puts on the wire what the standard path puts there, for any response', async () => {
    const name = fc.constantFrom<string>(
      'Vary',
      'vary',
      'VARY',
      'Cache-Control',
      'x-custom',
      'X-Custom',
      'Content-Language',
      'x-frame-options',
      'Access-Control-Allow-Origin',
    )
    const value = fc.stringMatching(/^[a-zA-Z0-9=;,/ -]{1,12}$/).map((v) => v.trim() || 'v')
    const answer = fc
      .record({
        status: fc.constantFrom(200, 201, 203, 404, 418, 500),
        body: fc.constantFrom('text', 'bytes', 'none') as fc.Arbitrary<Answer['body']>,
        headers: fc.array(fc.tuple(name, value), { maxLength: 5 }),
        type: fc.constantFrom(undefined, 'application/json', 'Content-Type'),
        origin: fc.boolean(),
      })
      .map(({ type, origin, ...a }) => {
        // A body without a declared type is typed differently by undici and node-server (a
        // difference of theirs, not of this path): every body declares one here.
        const headers = [...a.headers]
        if (a.body !== 'none' || type) {
          headers.push([type === 'Content-Type' ? type : 'content-type', 'text/plain'])
        }
        return { answer: { ...a, headers }, origin }
      })
    let id = 0
    await fc.assert(
      fc.asyncProperty(answer, async ({ answer: a, origin }) => {
        const key = String(id++)
        answers.set(key, a)
        const headers: Record<string, string> = origin ? { origin: ORIGIN } : {}
        const light = await fetch(`${base}/answer/light/${key}`, { headers })
        const standard = await fetch(`${base}/answer/standard/${key}`, { headers })
        expect(light.status).toBe(standard.status)
        expect(wire(light)).toEqual(wire(standard))
        expect(light.headers.get('ratelimit-limit')).toBe('1000000')
        expect(await light.text()).toBe(await standard.text())
      }),
      { numRuns: 60 },
    )
    expect(handled).toBeGreaterThanOrEqual(120)
  })

  it('never writes to the header object a handler passed in', async () => {
    for (const origin of [ORIGIN, undefined, ORIGIN]) {
      const res = await fetch(`${base}/constant/x`, { headers: origin ? { origin } : {} })
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe(origin ?? null)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(await res.text()).toBe('{"n":1}')
    }
    expect(constant).toEqual(constantCopy)
    expect(Object.keys(constant)).toEqual(['Content-Type'])
  })

  it('keeps the edits for an outer middleware that reads the body first', async () => {
    const res = await fetch(`${base}/outer/body-first/x`, { headers: { origin: ORIGIN } })
    expect(observed.bodyUsed).toBe(false)
    expect(res.headers.get('x-outer')).toBe('1')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(res.headers.get('ratelimit-limit')).toBe('1000000')
    expect(await res.json()).toEqual({ ok: true })
  })

  it('shows the edits to an outer middleware reading c.res.headers or the body', async () => {
    await (await fetch(`${base}/outer/headers/x`, { headers: { origin: ORIGIN } })).text()
    expect(observed.headers).toMatchObject({
      'access-control-allow-origin': ORIGIN,
      'content-type': 'application/json',
      'x-frame-options': 'DENY',
      'ratelimit-limit': '1000000',
    })
    await (await fetch(`${base}/outer/text/x`)).text()
    expect(observed.text).toBe('{"ok":true}')
    expect(observed.type).toBe('application/json')
  })

  it('respects a user edit made through c.res.headers between two Palisade middleware', async () => {
    const res = await fetch(`${base}/between/x`, { headers: { origin: ORIGIN } })
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(res.headers.get('ratelimit-limit')).toBe('1000000')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
  })

  it('sends every Set-Cookie line apart, the handler’s and the session’s', async () => {
    const res = await fetch(`${base}/session/x`, { headers: { origin: ORIGIN } })
    const cookies = res.headers.getSetCookie()
    expect(cookies).toHaveLength(2)
    expect(cookies[0]).toBe('theme=dark; Path=/')
    expect(cookies[1]).toMatch(/^sid=/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('vary')).toBe('Origin')
  })

  it('answers a record with __proto__, constructor and toString keys as the standard path does', async () => {
    const light = await fetch(`${base}/hostile/light`, { headers: { origin: ORIGIN } })
    const standard = await fetch(`${base}/hostile/standard`, { headers: { origin: ORIGIN } })
    expect(light.status).toBe(200)
    expect(wire(light)).toEqual(wire(standard))
    expect(light.headers.get('constructor')).toBe('c')
    expect(light.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(await light.text()).toBe('x')
  })

  it('sends rateLimit’s four draft-6 headers over a handler’s own, on either path', async () => {
    for (const kind of ['light', 'standard', 'light']) {
      const res = await fetch(`${base}/own-quota/${kind}`)
      expect(res.headers.get('ratelimit-limit')).toBe('1000000')
      expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d+$/)
      expect(res.headers.get('ratelimit-reset')).toMatch(/^\d+$/)
      expect(res.headers.get('ratelimit-policy')).toBe('1000000;w=60')
      expect(res.headers.get('ratelimit_other')).toBe('kept')
      expect(await res.text()).toBe('x')
    }
  })

  it('types a body without a type as node-server does on the standard path', async () => {
    for (const path of ['/untyped/bare', '/untyped/record']) {
      const res = await fetch(`${base}${path}`)
      expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(await res.text()).toBe('x')
    }
  })

  it('edits redirects and leaves streamed bodies to the standard path', async () => {
    const redirect = await fetch(`${base}/redirect/x`, { redirect: 'manual' })
    expect(redirect.status).toBe(303)
    expect(redirect.headers.get('location')).toBe('https://app.example/there')
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff')
    const stream = await fetch(`${base}/stream/x`)
    expect(await stream.text()).toBe('streamed')
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff')
    expect(stream.headers.get('content-type')).toBe('text/plain')
  })
})

describe('recordHeaders', () => {
  it('answers only for node-server’s lightweight class, and edits a copy of its record', async () => {
    const seen: unknown[] = []
    const app = new Hono()
    app.use(async (c, next) => {
      await next()
      seen.push(recordHeaders(c as Context) !== undefined)
    })
    app.get('/light', () => new Response('x', { headers: { 'content-type': 'text/plain' } }))
    app.get('/standard', () => new StandardResponse('x'))
    await app.request('/light')
    await app.request('/standard')
    // The lightweight class is global once a node-server is serving (beforeAll); switched off
    // (tests/versions/run.mjs), no response is edited through its record.
    expect(seen).toEqual([Response !== StandardResponse && !internalsSwitchedOff(), false])
  })

  it('gives Headers’ answers: case-insensitive names, joined appends, no inherited members', async () => {
    expect(Response).not.toBe(StandardResponse) // the record path, as node-server is serving
    const app = new Hono()
    const answers: unknown[] = []
    app.use(async (c, next) => {
      await next()
      editResponseHeaders(c, (h) => {
        answers.push(h.get('VARY'), h.has('constructor'), h.get('toString'))
        h.append('Vary', 'Origin')
        h.set('X-Two', '2')
        h.delete('x-gone')
        answers.push(h.get('vary'), h.get('x-two'), h.has('x-gone'))
        expect(() => h.append('Set-Cookie', 'a=1')).toThrow(/Set-Cookie/)
      })
    })
    app.get('/', () => new Response('x', { headers: { Vary: 'Accept', 'x-gone': '1' } }))
    const res = await app.request('/')
    expect(answers).toEqual(['Accept', false, null, 'Accept, Origin', '2', false])
    expect(res.headers.get('vary')).toBe('Accept, Origin')
    expect(res.headers.get('x-two')).toBe('2')
    expect(res.headers.get('x-gone')).toBeNull()
  })
})
