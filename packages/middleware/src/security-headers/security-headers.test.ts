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

const FULL_SET = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'referrer-policy': 'no-referrer',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-permitted-cross-domain-policies': 'none',
  'permissions-policy':
    'accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), ' +
    'magnetometer=(), microphone=(), payment=(), usb=()',
}

describe('securityHeaders: the full set (opt-in)', () => {
  it('is off by default: none of the full-set headers is sent', async () => {
    const res = await get()
    for (const name of Object.keys(FULL_SET)) expect(res.headers.get(name)).toBeNull()
  })

  // Ported from helmet's and Hono's "all headers enabled" cases. Where SPEC fixes a default we
  // keep SPEC's value: X-Frame-Options DENY (helmet/Hono SAMEORIGIN), HSTS max-age=63072000
  // (helmet 31536000, Hono 15552000), CSP default-src 'self' (helmet a longer policy).
  it("adds helmet's values for every full-set header, on top of SPEC's four", async () => {
    const res = await get({ full: true })
    for (const [name, value] of Object.entries({ ...DEFAULTS, ...FULL_SET })) {
      expect(res.headers.get(name), name).toBe(value)
    }
  })

  it('lets one header of the full set be changed or turned off', async () => {
    const res = await get({
      full: true,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: 'strict-origin-when-cross-origin',
      originAgentCluster: false,
      xDnsPrefetchControl: 'on',
      xPermittedCrossDomainPolicies: 'master-only',
      permissionsPolicy: 'camera=()',
    })
    expect(res.headers.get('cross-origin-embedder-policy')).toBeNull()
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('origin-agent-cluster')).toBeNull()
    expect(res.headers.get('x-dns-prefetch-control')).toBe('on')
    expect(res.headers.get('x-permitted-cross-domain-policies')).toBe('master-only')
    expect(res.headers.get('permissions-policy')).toBe('camera=()')
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin')
  })

  it('treats an option explicitly set to undefined as unset', async () => {
    const res = await get({ full: true, referrerPolicy: undefined })
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
  })

  it.each<[string, SecurityHeadersOptions, string, string]>([
    [
      'COEP credentialless',
      { crossOriginEmbedderPolicy: 'credentialless' },
      'cross-origin-embedder-policy',
      'credentialless',
    ],
    ['Origin-Agent-Cluster', { originAgentCluster: true }, 'origin-agent-cluster', '?1'],
    ['X-DNS-Prefetch-Control', { xDnsPrefetchControl: 'off' }, 'x-dns-prefetch-control', 'off'],
    [
      'X-Permitted-Cross-Domain-Policies',
      { xPermittedCrossDomainPolicies: 'none' },
      'x-permitted-cross-domain-policies',
      'none',
    ],
  ])('sends %s on its own without full', async (_, options, name, value) => {
    const res = await get(options)
    expect(res.headers.get(name)).toBe(value)
    expect(res.headers.get('cross-origin-opener-policy')).toBeNull()
  })

  it('keeps a full-set header the handler set', async () => {
    const res = await get({ full: true }, (c) => {
      c.header('Cross-Origin-Resource-Policy', 'cross-origin')
      return c.text('ok')
    })
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
  })
})

const NONCE = /'nonce-([A-Za-z0-9_-]{22})'/

describe('securityHeaders: nonce', () => {
  it('puts a fresh nonce in script-src and style-src and in c.get("cspNonce")', async () => {
    const res = await get({ nonce: true }, (c) => c.text(c.get('cspNonce')))
    const nonce = await res.text()
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(res.headers.get('content-security-policy')).toBe(
      `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'`,
    )
  })

  it('gives every request its own nonce', async () => {
    const app = new Hono()
    app.use('*', securityHeaders({ nonce: true }))
    app.get('/', (c) => c.text(c.get('cspNonce')))
    const seen = new Set<string>()
    for (let i = 0; i < 50; i++) {
      const res = await app.request('/')
      const nonce = await res.text()
      expect(res.headers.get('content-security-policy')).toContain(`'nonce-${nonce}'`)
      seen.add(nonce)
    }
    expect(seen.size).toBe(50)
  })

  // Ported from Hono: 'CSP nonce for script-src' and 'CSP nonce for script-src and style-src'.
  it('appends the nonce to script-src and style-src the policy already has', async () => {
    const res = await get(
      { nonce: true, contentSecurityPolicy: "script-src 'self'; style-src 'self'" },
      (c) => c.text(`nonce: ${c.get('cspNonce')}`),
    )
    const csp = res.headers.get('content-security-policy') as string
    const nonce = NONCE.exec(csp)?.[1]
    expect(csp).toBe(`script-src 'self' 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'`)
    expect(await res.text()).toBe(`nonce: ${nonce}`)
  })

  it('also fills script-src-elem and style-src-elem, and leaves a none directive alone', async () => {
    const policy = "default-src 'self'; script-src-elem https://cdn.test; style-src 'none'"
    const res = await get({ nonce: true, contentSecurityPolicy: policy })
    const csp = res.headers.get('content-security-policy') as string
    const nonce = NONCE.exec(csp)?.[1]
    expect(csp).toBe(
      `default-src 'self'; script-src-elem https://cdn.test 'nonce-${nonce}'; style-src 'none'; script-src 'self' 'nonce-${nonce}'`,
    )
  })

  it('does not invent a script-src when the policy has neither it nor default-src', async () => {
    const res = await get({ nonce: true, contentSecurityPolicy: "img-src 'self'" })
    expect(res.headers.get('content-security-policy')).toBe("img-src 'self'")
  })

  it('keeps a CSP the handler set, and the nonce is still in the context', async () => {
    const res = await get({ nonce: true }, (c) => {
      c.header('Content-Security-Policy', `script-src 'nonce-${c.get('cspNonce')}'`)
      return c.text(c.get('cspNonce'))
    })
    expect(res.headers.get('content-security-policy')).toBe(
      `script-src 'nonce-${await res.text()}'`,
    )
  })

  it('sets no cspNonce without nonce: true', async () => {
    const res = await get(undefined, (c) => c.text(String(c.get('cspNonce'))))
    expect(await res.text()).toBe('undefined')
  })
})

describe('securityHeaders: report-only', () => {
  it('sends the policy as Content-Security-Policy-Report-Only instead of enforcing it', async () => {
    const res = await get({ contentSecurityPolicyReportOnly: true })
    expect(res.headers.get('content-security-policy')).toBeNull()
    expect(res.headers.get('content-security-policy-report-only')).toBe("default-src 'self'")
  })

  // Ported from Hono's "all headers enabled": both headers at once.
  it('sends a second, report-only policy next to the enforced one', async () => {
    const res = await get({ contentSecurityPolicyReportOnly: "default-src 'none'" })
    expect(res.headers.get('content-security-policy')).toBe("default-src 'self'")
    expect(res.headers.get('content-security-policy-report-only')).toBe("default-src 'none'")
  })

  // Ported from Hono: 'supports nonces in both policies'.
  it('puts the same nonce in both policies', async () => {
    const res = await get({
      nonce: true,
      contentSecurityPolicy: "script-src 'self'",
      contentSecurityPolicyReportOnly: "style-src 'self'",
    })
    const nonce = NONCE.exec(res.headers.get('content-security-policy') as string)?.[1]
    expect(nonce).toBeTruthy()
    expect(res.headers.get('content-security-policy-report-only')).toBe(
      `style-src 'self' 'nonce-${nonce}'`,
    )
  })

  it('keeps a report-only policy the handler set', async () => {
    const res = await get({ contentSecurityPolicyReportOnly: true }, (c) => {
      c.header('Content-Security-Policy-Report-Only', "img-src 'self'")
      return c.text('ok')
    })
    expect(res.headers.get('content-security-policy-report-only')).toBe("img-src 'self'")
  })
})

describe('securityHeaders: validation of the new options', () => {
  it.each<[string, unknown, RegExp]>([
    ['full not a boolean', { full: 'yes' }, /"full" must be a boolean/],
    ['nonce not a boolean', { nonce: 1 }, /"nonce" must be a boolean/],
    ['an unknown COEP', { crossOriginEmbedderPolicy: 'require' }, /"crossOriginEmbedderPolicy"/],
    ['an unknown DNS prefetch value', { xDnsPrefetchControl: 'OFF' }, /"xDnsPrefetchControl"/],
    [
      'an unknown cross-domain policy',
      { xPermittedCrossDomainPolicies: 'any' },
      /"xPermittedCrossDomainPolicies"/,
    ],
    ['originAgentCluster not a boolean', { originAgentCluster: '?1' }, /"originAgentCluster"/],
    [
      'a report-only policy with CR/LF',
      { contentSecurityPolicyReportOnly: 'a\r\nb' },
      /control characters/,
    ],
    [
      'report-only true without a CSP',
      { contentSecurityPolicy: false, contentSecurityPolicyReportOnly: true },
      /needs a contentSecurityPolicy/,
    ],
    ['a nonce without any CSP', { contentSecurityPolicy: false, nonce: true }, /"nonce" needs/],
  ])('throws a securityHeaders TypeError for %s', (_, options, message) => {
    const make = () => securityHeaders(options as SecurityHeadersOptions)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^securityHeaders: /)
    expect(make).toThrow(message)
  })
})
