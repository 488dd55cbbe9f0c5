import { type Handler, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { type SecurityHeadersOptions, securityHeaders } from './index'

const DEFAULTS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'content-security-policy': "default-src 'self'",
}
const OPT_IN = [
  'referrer-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'permissions-policy',
]

async function get(options?: SecurityHeadersOptions, handler: Handler = (c) => c.text('ok')) {
  const app = new Hono()
  app.use('*', securityHeaders(options))
  app.get('/', handler)
  return app.request('/')
}

describe('securityHeaders: defaults', () => {
  it('adds exactly the four default headers', async () => {
    const res = await get()
    for (const [name, value] of Object.entries(DEFAULTS)) {
      expect(res.headers.get(name)).toBe(value)
    }
    for (const name of OPT_IN) expect(res.headers.get(name)).toBeNull()
  })

  it('keeps the handler body and status', async () => {
    const res = await get(undefined, (c) => c.json({ ok: true }, 201))
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ ok: true })
  })

  it('adds the headers to a 404 response', async () => {
    const app = new Hono()
    app.use('*', securityHeaders())
    const res = await app.request('/missing')
    expect(res.status).toBe(404)
    expect(res.headers.get('x-frame-options')).toBe('DENY')
  })

  it('adds the headers to an error response', async () => {
    const res = await get(undefined, () => {
      throw new HTTPException(403, { message: 'no' })
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('content-security-policy')).toBe("default-src 'self'")
  })

  it('adds the headers to a response whose headers are immutable', async () => {
    const res = await get(undefined, () => Response.redirect('https://example.com/', 301))
    expect(res.status).toBe(301)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('is not reconfigured by one request for the next', async () => {
    const app = new Hono()
    app.use('*', securityHeaders())
    app.get('/own', (c) => {
      c.header('X-Frame-Options', 'SAMEORIGIN')
      return c.text('ok')
    })
    app.get('/', (c) => c.text('ok'))
    await app.request('/own')
    const res = await app.request('/')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
  })
})

describe('securityHeaders: contentSecurityPolicy', () => {
  it('replaces the default CSP with the option', async () => {
    const csp = "default-src 'self'; img-src https:"
    const res = await get({ contentSecurityPolicy: csp })
    expect(res.headers.get('content-security-policy')).toBe(csp)
  })

  it('keeps a CSP the handler set', async () => {
    const res = await get(undefined, (c) => {
      c.header('Content-Security-Policy', "script-src 'nonce-abc'")
      return c.html('<p>hi</p>')
    })
    expect(res.headers.get('content-security-policy')).toBe("script-src 'nonce-abc'")
  })

  it('keeps a CSP the handler set on a raw Response', async () => {
    const res = await get(
      undefined,
      () => new Response('x', { headers: { 'content-security-policy': "default-src 'none'" } }),
    )
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'")
  })

  it('sends no CSP when contentSecurityPolicy is false', async () => {
    const res = await get({ contentSecurityPolicy: false })
    expect(res.headers.get('content-security-policy')).toBeNull()
    expect(res.headers.get('x-frame-options')).toBe('DENY')
  })
})

describe('securityHeaders: any header the handler set is kept', () => {
  it.each([
    ['X-Frame-Options', 'SAMEORIGIN'],
    ['Strict-Transport-Security', 'max-age=60'],
    ['Content-Security-Policy', "frame-ancestors 'none'"],
    ['Referrer-Policy', 'origin'],
    ['Cross-Origin-Resource-Policy', 'cross-origin'],
  ])('keeps %s: %s', async (name, value) => {
    const options = {
      referrerPolicy: 'no-referrer',
      crossOriginResourcePolicy: 'same-origin',
    } as const
    const res = await get(options, (c) => {
      c.header(name, value)
      return c.text('ok')
    })
    expect(res.headers.get(name)).toBe(value)
  })
})

describe('securityHeaders: disabling defaults', () => {
  it.each<[keyof SecurityHeadersOptions, string]>([
    ['xContentTypeOptions', 'x-content-type-options'],
    ['xFrameOptions', 'x-frame-options'],
    ['strictTransportSecurity', 'strict-transport-security'],
    ['contentSecurityPolicy', 'content-security-policy'],
  ])('%s: false removes only %s', async (option, header) => {
    const res = await get({ [option]: false })
    expect(res.headers.get(header)).toBeNull()
    for (const [name, value] of Object.entries(DEFAULTS)) {
      if (name !== header) expect(res.headers.get(name)).toBe(value)
    }
  })

  it('sends nothing when every default is disabled', async () => {
    const res = await get({
      contentSecurityPolicy: false,
      xContentTypeOptions: false,
      xFrameOptions: false,
      strictTransportSecurity: false,
    })
    for (const name of Object.keys(DEFAULTS)) expect(res.headers.get(name)).toBeNull()
  })

  it('accepts xContentTypeOptions: true and xFrameOptions: SAMEORIGIN', async () => {
    const res = await get({ xContentTypeOptions: true, xFrameOptions: 'SAMEORIGIN' })
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
  })

  it('uses a custom Strict-Transport-Security value', async () => {
    const res = await get({
      strictTransportSecurity: 'max-age=31536000; includeSubDomains; preload',
    })
    expect(res.headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains; preload',
    )
  })
})

describe('securityHeaders: opt-in headers', () => {
  it.each<[SecurityHeadersOptions, string, string]>([
    [{ referrerPolicy: 'no-referrer' }, 'referrer-policy', 'no-referrer'],
    [
      { referrerPolicy: ['no-referrer', 'strict-origin-when-cross-origin'] },
      'referrer-policy',
      'no-referrer, strict-origin-when-cross-origin',
    ],
    [{ crossOriginOpenerPolicy: 'same-origin' }, 'cross-origin-opener-policy', 'same-origin'],
    [
      { crossOriginOpenerPolicy: 'same-origin-allow-popups' },
      'cross-origin-opener-policy',
      'same-origin-allow-popups',
    ],
    [{ crossOriginResourcePolicy: 'same-site' }, 'cross-origin-resource-policy', 'same-site'],
    [
      { permissionsPolicy: 'camera=(), geolocation=()' },
      'permissions-policy',
      'camera=(), geolocation=()',
    ],
  ])('%j sets %s', async (options, header, value) => {
    const res = await get(options)
    expect(res.headers.get(header)).toBe(value)
    for (const [name, v] of Object.entries(DEFAULTS)) expect(res.headers.get(name)).toBe(v)
  })

  it('treats false on an opt-in header as off', async () => {
    const res = await get({ referrerPolicy: false, permissionsPolicy: false })
    expect(res.headers.get('referrer-policy')).toBeNull()
    expect(res.headers.get('permissions-policy')).toBeNull()
  })
})

describe('securityHeaders: option validation', () => {
  it.each<[string, unknown, RegExp]>([
    ['an unknown option', { contentSecurityPolcy: 'x' }, /unknown option "contentSecurityPolcy"/],
    [
      'a CSP with CRLF (header injection)',
      { contentSecurityPolicy: "default-src 'self'\r\nSet-Cookie: a=b" },
      /control characters/,
    ],
    ['a CSP with NUL', { contentSecurityPolicy: 'a\u0000b' }, /control characters/],
    ['an empty CSP', { contentSecurityPolicy: '' }, /non-empty string or false/],
    ['a blank CSP', { contentSecurityPolicy: '   ' }, /non-empty string or false/],
    ['CSP true', { contentSecurityPolicy: true }, /non-empty string or false/],
    ['a numeric HSTS', { strictTransportSecurity: 63072000 }, /strictTransportSecurity/],
    ['an HSTS with LF', { strictTransportSecurity: 'max-age=1\nX: y' }, /control characters/],
    ['an unknown X-Frame-Options', { xFrameOptions: 'ALLOW-FROM https://a.test' }, /xFrameOptions/],
    ['a lowercase X-Frame-Options', { xFrameOptions: 'deny' }, /xFrameOptions/],
    ['a string xContentTypeOptions', { xContentTypeOptions: 'nosniff' }, /must be a boolean/],
    ['an unknown referrer policy', { referrerPolicy: 'never' }, /referrerPolicy/],
    ['an empty referrer list', { referrerPolicy: [] }, /referrerPolicy/],
    ['referrer policy true', { referrerPolicy: true }, /referrerPolicy/],
    ['an unknown COOP', { crossOriginOpenerPolicy: 'same' }, /crossOriginOpenerPolicy/],
    ['an unknown CORP', { crossOriginResourcePolicy: 'none' }, /crossOriginResourcePolicy/],
    ['a Permissions-Policy with CR', { permissionsPolicy: 'camera=()\r' }, /control characters/],
    ['options that are an array', [], /options must be an object/],
  ])('throws a securityHeaders TypeError for %s', (_, options, message) => {
    const make = () => securityHeaders(options as SecurityHeadersOptions)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^securityHeaders: /)
    expect(make).toThrow(message)
  })

  it('returns a named function', () => {
    expect(securityHeaders().name).toBe('securityHeaders')
  })
})
