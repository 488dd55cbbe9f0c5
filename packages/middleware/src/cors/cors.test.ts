import { type Context, Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { type CorsOptions, cors } from './index'

const APP = 'https://app.example.com'
const OTHER = 'https://other.example.com'

function appWith(options?: CorsOptions, handler = vi.fn((c) => c.text('ok'))) {
  const app = new Hono()
  app.use('*', cors(options))
  app.all('/r', handler)
  return { app, handler }
}

function preflight(origin?: string, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { 'access-control-request-method': 'POST', ...extra }
  if (origin) headers.origin = origin
  return { method: 'OPTIONS', headers }
}

describe('cors: origin', () => {
  it('sends no Access-Control-Allow-Origin when origin is unset', async () => {
    const { app } = appWith()
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('sends no Access-Control-Allow-Origin on a preflight when origin is unset', async () => {
    const { app, handler } = appWith()
    const res = await app.request('/r', preflight(APP))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(handler).not.toHaveBeenCalled()
  })

  it('reflects a single configured origin', async () => {
    const { app } = appWith({ origin: APP })
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
  })

  it('reflects only the listed origin that asked, from an array', async () => {
    const { app } = appWith({ origin: [APP, OTHER] })
    const a = await app.request('/r', { headers: { origin: APP } })
    const b = await app.request('/r', { headers: { origin: OTHER } })
    expect(a.headers.get('access-control-allow-origin')).toBe(APP)
    expect(b.headers.get('access-control-allow-origin')).toBe(OTHER)
  })

  it('compares origins case-insensitively and reflects the request value', async () => {
    const { app } = appWith({ origin: 'https://App.Example.com' })
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
  })

  it('answers "*" for any origin when origin is "*"', async () => {
    const { app } = appWith({ origin: '*' })
    const res = await app.request('/r', { headers: { origin: 'https://anyone.test' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('vary')).toBeNull()
  })

  it('answers "*" also to a request without Origin when origin is "*"', async () => {
    const { app } = appWith({ origin: '*' })
    const res = await app.request('/r')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('sends no Allow-Origin to a request without an Origin header', async () => {
    const { app } = appWith({ origin: APP })
    const res = await app.request('/r')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('vary')).toBe('Origin')
  })

  it.each([
    ['an unlisted origin', OTHER],
    ['a suffix attack', 'https://app.example.com.evil.test'],
    ['a prefix attack', 'https://evilapp.example.com'],
    ['another scheme', 'http://app.example.com'],
    ['another port', 'https://app.example.com:8443'],
    ['a trailing slash', 'https://app.example.com/'],
    ['the null origin', 'null'],
    ['an empty origin', ''],
    ['a list smuggled in one header', `${APP}, ${OTHER}`],
  ])('does not allow %s', async (_, origin) => {
    const { app, handler } = appWith({ origin: APP, credentials: true, exposeHeaders: ['x-total'] })
    const res = await app.request('/r', { headers: { origin } })
    expect(res.status).toBe(200)
    expect(handler).toHaveBeenCalledOnce()
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    expect(res.headers.get('access-control-expose-headers')).toBeNull()
    expect(res.headers.get('vary')).toBe('Origin')
  })

  it('does not allow an unlisted origin on a preflight, which still ends at the middleware', async () => {
    const { app, handler } = appWith({ origin: APP, credentials: true })
    const res = await app.request('/r', preflight('https://evil.test'))
    expect(res.status).toBe(204)
    expect(handler).not.toHaveBeenCalled()
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  })
})

describe('cors: preflight', () => {
  it('answers 204 with the default methods and headers without reaching the handler', async () => {
    const { app, handler } = appWith({ origin: APP })
    const res = await app.request('/r', preflight(APP))
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect(handler).not.toHaveBeenCalled()
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(res.headers.get('access-control-allow-methods')).toBe(
      'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    )
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization')
    expect(res.headers.get('access-control-max-age')).toBeNull()
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    expect(res.headers.get('vary')).toBe('Origin')
  })

  it('uses allowMethods, allowHeaders, maxAge and credentials', async () => {
    const { app } = appWith({
      origin: APP,
      allowMethods: ['GET', 'QUERY'],
      allowHeaders: ['x-custom', 'content-type'],
      maxAge: 600,
      credentials: true,
    })
    const res = await app.request('/r', preflight(APP))
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, QUERY')
    expect(res.headers.get('access-control-allow-headers')).toBe('x-custom, content-type')
    expect(res.headers.get('access-control-max-age')).toBe('600')
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
  })

  it('sends Max-Age 0 when maxAge is 0', async () => {
    const { app } = appWith({ origin: APP, maxAge: 0 })
    const res = await app.request('/r', preflight(APP))
    expect(res.headers.get('access-control-max-age')).toBe('0')
  })

  it('omits Allow-Methods and Allow-Headers when configured empty', async () => {
    const { app } = appWith({ origin: APP, allowMethods: [], allowHeaders: [] })
    const res = await app.request('/r', preflight(APP))
    expect(res.headers.get('access-control-allow-methods')).toBeNull()
    expect(res.headers.get('access-control-allow-headers')).toBeNull()
  })

  it('never reflects the requested headers, only the configured ones', async () => {
    const { app } = appWith({ origin: APP })
    const res = await app.request(
      '/r',
      preflight(APP, { 'access-control-request-headers': 'x-evil, x-admin' }),
    )
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization')
  })

  it('does not send Expose-Headers on a preflight', async () => {
    const { app } = appWith({ origin: APP, exposeHeaders: ['x-total'] })
    const res = await app.request('/r', preflight(APP))
    expect(res.headers.get('access-control-expose-headers')).toBeNull()
  })

  it('passes a plain OPTIONS request without Access-Control-Request-Method to the handler', async () => {
    const { app, handler } = appWith({ origin: APP })
    const res = await app.request('/r', { method: 'OPTIONS', headers: { origin: APP } })
    expect(handler).toHaveBeenCalledOnce()
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(res.headers.get('access-control-allow-methods')).toBeNull()
  })

  it('does not treat a GET carrying Access-Control-Request-Method as a preflight', async () => {
    const { app, handler } = appWith({ origin: APP })
    const res = await app.request('/r', {
      headers: { origin: APP, 'access-control-request-method': 'DELETE' },
    })
    expect(handler).toHaveBeenCalledOnce()
    expect(res.status).toBe(200)
  })

  it('answers a preflight for a path without a route', async () => {
    const app = new Hono()
    app.use('*', cors({ origin: APP }))
    const res = await app.request('/nowhere', preflight(APP))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
  })

  it('has no Vary on a preflight when origin is "*"', async () => {
    const { app } = appWith({ origin: '*' })
    const res = await app.request('/r', preflight(APP))
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('vary')).toBeNull()
  })

  it('never copies the request Vary header onto the preflight response', async () => {
    const { app } = appWith({ origin: APP })
    const res = await app.request('/r', preflight(APP, { vary: 'Accept-Encoding, Cookie' }))
    expect(res.headers.get('vary')).toBe('Origin')
  })
})

describe('cors: preflight keeps what earlier middleware set (as Hono does)', () => {
  function withEarlier(set: (c: Context) => void, options: CorsOptions = { origin: APP }) {
    const app = new Hono()
    app.use('/api/*', async (c, next) => {
      set(c)
      await next()
    })
    app.use('/api/*', cors(options))
    app.all('/api/test', (c) => c.text('ok'))
    return app
  }

  it('keeps a header an earlier middleware set with c.header()', async () => {
    const app = withEarlier((c) => {
      c.header('X-Request-ID', 'abc-123')
      c.header('X-Frame-Options', 'DENY')
    })
    const res = await app.request('/api/test', preflight(APP))
    expect(res.status).toBe(204)
    expect(res.headers.get('x-request-id')).toBe('abc-123')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
  })

  // Ported from Hono: 'Append "Origin" to Vary header on OPTIONS preflight, if response has
  // some Vary header'. Hono also appends Access-Control-Request-Headers because it reflects the
  // requested headers when allowHeaders is empty; we never reflect them, so only Origin is added.
  it('merges Origin into a Vary an earlier middleware set', async () => {
    const app = withEarlier((c) => c.header('Vary', 'Accept-Encoding', { append: true }))
    const res = await app.request('/api/test', preflight(APP))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Origin')
  })

  it('does not add Origin twice, nor next to Vary: *', async () => {
    const twice = withEarlier((c) => c.header('Vary', 'origin'))
    expect((await twice.request('/api/test', preflight(APP))).headers.get('vary')).toBe('origin')
    const star = withEarlier((c) => c.header('Vary', '*'))
    expect((await star.request('/api/test', preflight(APP))).headers.get('vary')).toBe('*')
  })

  it('keeps an earlier Vary untouched when origin is "*" (nothing depends on Origin)', async () => {
    const app = withEarlier((c) => c.header('Vary', 'Accept-Encoding'), { origin: '*' })
    const res = await app.request('/api/test', preflight(APP))
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
  })

  it('overrides CORS headers an earlier middleware set with its own values', async () => {
    const app = withEarlier((c) => {
      c.header('Access-Control-Allow-Origin', 'https://evil.test')
      c.header('Access-Control-Allow-Methods', 'TRACE')
    })
    const res = await app.request('/api/test', preflight(APP))
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(res.headers.get('access-control-allow-methods')).toBe(
      'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    )
  })

  it('drops a Content-Type or Content-Length set earlier (a 204 has no body)', async () => {
    const app = withEarlier((c) => {
      c.header('Content-Type', 'application/json')
      c.header('Content-Length', '42')
    })
    const res = await app.request('/api/test', preflight(APP))
    expect(res.status).toBe(204)
    expect(res.headers.get('content-type')).toBeNull()
    expect(res.headers.get('content-length')).toBeNull()
  })

  it('does not leak headers set for one preflight into the next', async () => {
    let n = 0
    const app = withEarlier((c) => {
      n++
      if (n === 1) c.header('X-Once', 'yes')
    })
    await app.request('/api/test', preflight(APP))
    const second = await app.request('/api/test', preflight(APP))
    expect(second.headers.get('x-once')).toBeNull()
    expect(second.headers.get('vary')).toBe('Origin')
  })
})

describe('cors: actual responses', () => {
  it('adds Expose-Headers and Allow-Credentials for an allowed origin', async () => {
    const { app } = appWith({ origin: APP, exposeHeaders: ['x-total', 'etag'], credentials: true })
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.headers.get('access-control-expose-headers')).toBe('x-total, etag')
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
  })

  it('sends no Expose-Headers by default', async () => {
    const { app } = appWith({ origin: APP })
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.headers.get('access-control-expose-headers')).toBeNull()
  })

  it('does not send Allow-Methods on actual responses', async () => {
    const { app } = appWith({ origin: APP })
    const res = await app.request('/r', { method: 'POST', headers: { origin: APP } })
    expect(res.headers.get('access-control-allow-methods')).toBeNull()
  })

  it('keeps the handler body and status', async () => {
    const { app } = appWith(
      { origin: APP },
      vi.fn((c) => c.json({ a: 1 }, 201)),
    )
    const res = await app.request('/r', { method: 'POST', headers: { origin: APP } })
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ a: 1 })
  })

  it('adds the CORS headers to an error response from app.onError', async () => {
    const app = new Hono()
    app.use('*', cors({ origin: APP }))
    app.get('/r', () => {
      throw new Error('boom')
    })
    app.onError((_, c) => c.text('failed', 500))
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.status).toBe(500)
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
  })

  it('adds the CORS headers to a response whose headers are immutable', async () => {
    const app = new Hono()
    app.use('*', cors({ origin: APP }))
    app.get('/r', () => Response.redirect('https://example.com/next', 302))
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('https://example.com/next')
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(res.headers.get('vary')).toBe('Origin')
  })
})

describe('cors: Vary', () => {
  const withVary = (vary: string) =>
    vi.fn((c) => {
      c.header('Vary', vary)
      return c.text('ok')
    })

  it('appends Origin to a Vary the handler set', async () => {
    const { app } = appWith({ origin: APP }, withVary('Accept-Encoding'))
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Origin')
  })

  it.each(['Origin', 'origin', 'Accept, ORIGIN', 'Accept,Origin , Cookie'])(
    'does not duplicate Origin already in Vary %j',
    async (vary) => {
      const { app } = appWith({ origin: APP }, withVary(vary))
      const res = await app.request('/r', { headers: { origin: APP } })
      expect(res.headers.get('vary')).toBe(vary)
    },
  )

  it('leaves Vary: * alone', async () => {
    const { app } = appWith({ origin: APP }, withVary('*'))
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.headers.get('vary')).toBe('*')
  })

  it('never copies the request Vary header to the response', async () => {
    const { app } = appWith({ origin: APP })
    const res = await app.request('/r', { headers: { origin: APP, vary: 'X-Attacker' } })
    expect(res.headers.get('vary')).toBe('Origin')
  })

  it('does not add Origin twice when the middleware runs twice', async () => {
    const app = new Hono()
    app.use('*', cors({ origin: APP }))
    app.use('*', cors({ origin: APP }))
    app.get('/r', (c) => c.text('ok'))
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.headers.get('vary')).toBe('Origin')
  })

  it('adds no Vary when origin is unset', async () => {
    const { app } = appWith()
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.headers.get('vary')).toBeNull()
  })
})

describe('cors: option validation', () => {
  it.each<[string, unknown, RegExp]>([
    ['credentials with "*"', { origin: '*', credentials: true }, /credentials cannot be combined/],
    ['"*" inside a list', { origin: [APP, '*'] }, /on its own/],
    ['an origin with a path', { origin: 'https://a.test/app' }, /is not an origin/],
    ['an origin with a trailing slash', { origin: 'https://a.test/' }, /is not an origin/],
    ['a bare host', { origin: 'a.test' }, /is not an origin/],
    ['an empty origin', { origin: '' }, /is not an origin/],
    ['an origin with CRLF', { origin: 'https://a.test\r\nSet-Cookie: x=1' }, /is not an origin/],
    ['a non-string origin', { origin: 42 }, /"origin" must be a string/],
    ['a non-string origin entry', { origin: [APP, 1] }, /"origin" must be a string/],
    ['a non-boolean credentials', { credentials: 'true' }, /"credentials" must be a boolean/],
    ['a negative maxAge', { maxAge: -1 }, /"maxAge" must be a non-negative integer/],
    ['a fractional maxAge', { maxAge: 1.5 }, /"maxAge"/],
    ['a string maxAge', { maxAge: '600' }, /"maxAge"/],
    ['a method with a space', { allowMethods: ['GET POST'] }, /not a valid token/],
    ['a header with CRLF', { allowHeaders: ['x-a\r\nx-b'] }, /not a valid token/],
    ['an expose header with a comma', { exposeHeaders: ['a,b'] }, /not a valid token/],
    ['allowMethods not an array', { allowMethods: 'GET' }, /"allowMethods" must be an array/],
    ['an empty header name', { allowHeaders: [''] }, /"allowHeaders" must be an array/],
    ['an unknown option', { orign: APP }, /unknown option "orign"/],
    ['options that are not an object', 'https://a.test', /options must be an object/],
  ])('throws a cors TypeError for %s', (_, options, message) => {
    expect(() => cors(options as CorsOptions)).toThrow(TypeError)
    expect(() => cors(options as CorsOptions)).toThrow(/^cors: /)
    expect(() => cors(options as CorsOptions)).toThrow(message)
  })

  it('accepts credentials with a listed origin and returns a named function', () => {
    const mw = cors({ origin: [APP], credentials: true })
    expect(mw.name).toBe('cors')
  })

  it('accepts an empty origin list, which allows no origin', async () => {
    const { app } = appWith({ origin: [] })
    const res = await app.request('/r', { headers: { origin: APP } })
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })
})
