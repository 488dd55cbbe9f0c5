import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Served, serveOnLoopback } from '../../../test/node-server'
import { cors } from '../../cors'
import { rateLimit } from '../../rate-limit'
import { securityHeaders } from '../../security-headers'
import { headerPairs, setResponseHeaderPairs } from './header-pairs'
import { HEADER_VALUE, TOKEN } from './header-syntax'
import { editResponseHeaders, setResponseHeader } from './headers'

describe('editResponseHeaders', () => {
  it('edits the current response in place', async () => {
    const app = new Hono()
    app.use('*', async (c, next) => {
      await next()
      editResponseHeaders(c, (h) => h.set('x-added', '1'))
    })
    app.get('/', (c) => c.text('body', 201))
    const res = await app.request('/')
    expect(res.status).toBe(201)
    expect(res.headers.get('x-added')).toBe('1')
    expect(await res.text()).toBe('body')
  })

  it('copies a response with immutable headers once, keeping status, headers and body', async () => {
    const app = new Hono()
    app.use('*', async (c, next) => {
      await next()
      editResponseHeaders(c, (h) => h.set('x-added', '1'))
    })
    app.get('/', () => Response.redirect('https://example.com/there', 307))
    const res = await app.request('/')
    expect(res.status).toBe(307)
    expect(res.headers.get('location')).toBe('https://example.com/there')
    expect(res.headers.get('x-added')).toBe('1')
  })

  it('does not swallow errors other than the immutable-headers TypeError', async () => {
    const app = new Hono()
    let caught: unknown
    app.use('*', async (c, next) => {
      await next()
      try {
        editResponseHeaders(c, () => {
          throw new RangeError('mine')
        })
      } catch (err) {
        caught = err
      }
    })
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    expect(caught).toBeInstanceOf(RangeError)
  })
})

describe('setResponseHeader', () => {
  it('sets the header in place, or on a copy of a response with immutable headers', async () => {
    const app = new Hono()
    app.use('*', async (c, next) => {
      await next()
      setResponseHeader(c, 'x-added', '1')
    })
    app.get('/', (c) => c.text('body', 201))
    app.get('/away', () => Response.redirect('https://example.com/there', 307))
    const res = await app.request('/')
    expect(res.status).toBe(201)
    expect(res.headers.get('x-added')).toBe('1')
    expect(await res.text()).toBe('body')
    const moved = await app.request('/away')
    expect(moved.status).toBe(307)
    expect(moved.headers.get('location')).toBe('https://example.com/there')
    expect(moved.headers.get('x-added')).toBe('1')
  })
})

describe('setResponseHeaderPairs', () => {
  const pairs = headerPairs([
    ['X-Frame-Options', 'DENY'],
    ['x-added', '1'],
  ])

  /**
   * Routes answering with a handler's own X-Frame-Options: a plain record handed to the Response
   * (on @hono/node-server the edits go into that record's copy), Hono's headers (a `Headers`),
   * none, and an immutable response.
   */
  function appWith(keep: boolean): Hono {
    const app = new Hono()
    app.use('*', async (c, next) => {
      await next()
      setResponseHeaderPairs(c, pairs, keep)
    })
    app.get('/record', () => new Response('raw', { headers: { 'X-Frame-Options': 'SAMEORIGIN' } }))
    app.get('/header', (c) => {
      c.header('x-frame-options', 'SAMEORIGIN')
      return c.text('body', 201)
    })
    app.get('/none', (c) => c.text('none'))
    app.get('/away', () => Response.redirect('https://example.com/there', 307))
    return app
  }

  it('lower-cases the names once and refuses the ones a header record cannot hold', () => {
    expect(pairs).toEqual([
      ['x-frame-options', 'DENY'],
      ['x-added', '1'],
    ])
    expect(() => headerPairs([['Set-Cookie', 'a=1']])).toThrow(TypeError)
    expect(() => headerPairs([['__proto__', 'x']])).toThrow(TypeError)
  })

  for (const keep of [true, false]) {
    it(`sets every pair, ${keep ? 'keeping' : 'replacing'} a value the handler set (standard Response)`, async () => {
      const app = appWith(keep)
      for (const path of ['/record', '/header']) {
        const res = await app.request(path)
        expect(res.headers.get('x-frame-options'), path).toBe(keep ? 'SAMEORIGIN' : 'DENY')
        expect(res.headers.get('x-added'), path).toBe('1')
      }
      const none = await app.request('/none')
      expect(none.headers.get('x-frame-options')).toBe('DENY')
      expect(await none.text()).toBe('none')
      const moved = await app.request('/away')
      expect(moved.status).toBe(307)
      expect(moved.headers.get('location')).toBe('https://example.com/there')
      expect(moved.headers.get('x-added')).toBe('1')
    })

    it(`sets every pair, ${keep ? 'keeping' : 'replacing'} a value the handler set (@hono/node-server)`, async () => {
      const served = await serveOnLoopback(appWith(keep))
      try {
        for (const path of ['/record', '/header']) {
          const res = await fetch(`${served.base}${path}`)
          expect(res.headers.get('x-frame-options'), path).toBe(keep ? 'SAMEORIGIN' : 'DENY')
          expect(res.headers.get('x-added'), path).toBe('1')
          await res.text()
        }
        const none = await fetch(`${served.base}/none`)
        expect(none.headers.get('x-frame-options')).toBe('DENY')
        expect(await none.text()).toBe('none')
      } finally {
        await served.close()
      }
    })
  }
})

describe('TOKEN and HEADER_VALUE', () => {
  it.each(['GET', 'X-Request-ID', 'content-type', "a!#$%&'*+.^_`|~z"])('TOKEN accepts %j', (v) => {
    expect(TOKEN.test(v)).toBe(true)
  })

  it.each(['', 'a b', 'a:b', 'a\r\nb', 'a,b', 'a;b', 'é', '(a)'])('TOKEN rejects %j', (v) => {
    expect(TOKEN.test(v)).toBe(false)
  })

  it.each(["default-src 'self'", 'a\tb', '', 'caf\u00e9'])('HEADER_VALUE accepts %j', (v) => {
    expect(HEADER_VALUE.test(v)).toBe(true)
  })

  it.each(['a\rb', 'a\nb', 'a\u0000b', 'a\u007fb', '\u0100'])('HEADER_VALUE rejects %j', (v) => {
    expect(HEADER_VALUE.test(v)).toBe(false)
  })
})

/**
 * @hono/node-server answers `c.json()` with a lightweight Response whose headers stay a plain
 * object until someone asks for `.headers`. Before 2.0.3 (honojs/node-server#357), headers edited
 * through `.headers` were lost as soon as anything later read the body, as Hono's own
 * `c.header()` does on a finished response: securityHeaders, cors and rateLimit answered without
 * their headers. The package's adapter floor is a version that keeps them; this holds it there.
 */
describe('headers edited in place, served by @hono/node-server', () => {
  let served: Served
  let base: string

  beforeAll(async () => {
    const app = new Hono()
    app.use('/outer-header/*', async (c, next) => {
      await next()
      c.header('x-outer', '1')
    })
    app.use('/outer-body/*', async (c, next) => {
      await next()
      const text = await c.res.clone().text()
      c.res = new Response(text.toUpperCase(), c.res)
    })
    app.use(securityHeaders())
    app.use(cors({ origin: 'https://app.example' }))
    app.use(rateLimit({ max: 100, keyGenerator: () => 'one' }))
    app.get('*', (c) => c.json({ ok: true }))
    served = await serveOnLoopback(app)
    base = served.base
  })

  afterAll(() => served.close())

  const expectPalisadeHeaders = (res: Response) => {
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(res.headers.get('vary')).toBe('Origin')
    expect(res.headers.get('ratelimit-limit')).toBe('100')
  }

  for (const path of ['/plain', '/outer-header/x', '/outer-body/x']) {
    it(`keeps every edited header on ${path}`, async () => {
      const res = await fetch(`${base}${path}`, { headers: { origin: 'https://app.example' } })
      expect(res.status).toBe(200)
      expectPalisadeHeaders(res)
      if (path.startsWith('/outer-header')) expect(res.headers.get('x-outer')).toBe('1')
      expect(await res.text()).toBe(path.startsWith('/outer-body') ? '{"OK":TRUE}' : '{"ok":true}')
    })
  }
})
