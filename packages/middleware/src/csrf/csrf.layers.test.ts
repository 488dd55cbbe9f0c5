import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { type CsrfOptions, csrf } from './index'

/**
 * The Fetch Metadata and Origin layers, with cases ported from Hono's csrf tests
 * (honojs/hono src/middleware/csrf/index.test.ts) where the semantics agree. Where they differ
 * (see the README): we check every content type, not only form-like ones, and a request without
 * `Origin` goes on to the token check instead of being refused.
 */
function setup(options: CsrfOptions = {}) {
  const handler = vi.fn((c) => c.text('hono'))
  const app = new Hono()
  app.use(csrf(options))
  app.get('/form', (c) => c.text(c.get('csrfToken')))
  app.options('/form', (c) => c.text('OK'))
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/form', handler)
  return { app, handler }
}

async function token(app: Hono, base = 'http://localhost') {
  const res = await app.request(`${base}/form`)
  const cookie = (res.headers.getSetCookie()[0] ?? '').split(';')[0] as string
  return { cookie, token: await res.text() }
}

/** A POST that carries a valid token, plus the given headers. */
async function post(
  app: Hono,
  headers: Record<string, string>,
  { method = 'POST', body = 'name=hono', base = 'http://localhost' } = {},
) {
  const t = await token(app, base)
  return app.request(`${base}/form`, {
    method,
    headers: { cookie: t.cookie, 'x-xsrf-token': t.token, ...headers },
    body,
  })
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

describe('csrf (ported from Hono): safe methods', () => {
  it.each(['GET', 'HEAD', 'OPTIONS'])(
    '%s is 200 for any request, cross-site included',
    async (m) => {
      const { app } = setup()
      const res = await app.request('http://localhost/form', {
        method: m,
        headers: { origin: 'http://example.com', 'sec-fetch-site': 'cross-site' },
      })
      expect(res.status).toBe(200)
    },
  )
})

describe('csrf (ported from Hono): Origin', () => {
  it('is 200 for a same-origin form POST', async () => {
    const { app } = setup()
    const res = await post(app, { ...FORM, origin: 'http://localhost' })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('hono')
  })

  it.each([
    ['application/x-www-form-urlencoded'],
    ['Application/x-www-form-urlencoded'],
    ['multipart/form-data; boundary=x'],
    ['text/plain'],
    // Hono lets JSON through (it assumes CORS stops it); we check every content type.
    ['application/json'],
    ['application/csp-report'],
  ])('is 403 for %s from another origin, even with a valid token', async (type) => {
    const { app, handler } = setup()
    const res = await post(app, { 'content-type': type, origin: 'http://example.com' })
    expect(res.status).toBe(403)
    expect(handler).not.toHaveBeenCalled()
  })

  it('is 403 for a cross-origin request without a content type', async () => {
    const { app, handler } = setup()
    const res = await post(app, { origin: 'http://example.com' }, { body: 'x' })
    expect(res.status).toBe(403)
    expect(handler).not.toHaveBeenCalled()
  })

  it.each(['PUT', 'PATCH', 'DELETE'])('checks the Origin on %s', async (method) => {
    const { app } = setup()
    expect((await post(app, { origin: 'http://example.com' }, { method })).status).toBe(403)
    expect((await post(app, { origin: 'http://localhost' }, { method })).status).toBe(200)
  })

  it('is 200 for an allowed origin given as a list, 403 for others', async () => {
    const { app } = setup({ origins: ['http://example.com', 'http://hono.example.com'] })
    expect((await post(app, { ...FORM, origin: 'http://hono.example.com' })).status).toBe(200)
    expect((await post(app, { ...FORM, origin: 'http://example.com' })).status).toBe(200)
    expect((await post(app, { ...FORM, origin: 'http://example.jp' })).status).toBe(403)
    // the option replaces the same-host default
    expect((await post(app, { ...FORM, origin: 'http://localhost' })).status).toBe(403)
  })
})

describe('csrf: default Origin rule (same host)', () => {
  it('accepts the same host over the other scheme (TLS ends at a proxy)', async () => {
    const { app } = setup()
    expect((await post(app, { origin: 'https://localhost' })).status).toBe(200)
  })

  it.each([
    ['another port', 'http://localhost:8080'],
    ['a sibling subdomain', 'http://evil.localhost'],
    ['a suffix trick', 'http://localhost.evil.example'],
    ['the opaque origin null', 'null'],
    ['credentials in the origin', 'http://localhost@evil.example'],
    ['an empty origin', ''],
  ])('rejects %s', async (_, origin) => {
    const { app } = setup()
    expect((await post(app, { origin })).status).toBe(403)
  })

  it('compares the host case-insensitively', async () => {
    const { app } = setup()
    expect((await post(app, { origin: 'http://LOCALHOST' })).status).toBe(200)
  })

  it('uses the Referer when Origin is absent, and the token alone when both are', async () => {
    const { app } = setup()
    expect((await post(app, { referer: 'http://localhost/page' })).status).toBe(200)
    expect((await post(app, { referer: 'http://evil.example/page' })).status).toBe(403)
    expect((await post(app, {})).status).toBe(200)
  })
})

describe('csrf: Fetch Metadata (Sec-Fetch-Site)', () => {
  it.each(['same-origin', 'none'])('lets %s through to the token check', async (site) => {
    const { app } = setup()
    expect((await post(app, { 'sec-fetch-site': site })).status).toBe(200)
  })

  it('rejects cross-site on an unsafe method, even with a valid token and no Origin', async () => {
    const { app, handler } = setup()
    const res = await post(app, { ...FORM, 'sec-fetch-site': 'cross-site' })
    expect(res.status).toBe(403)
    expect(handler).not.toHaveBeenCalled()
  })

  it('rejects cross-site with a foreign Origin', async () => {
    const { app } = setup()
    const headers = { 'sec-fetch-site': 'cross-site', origin: 'http://example.com' }
    expect((await post(app, headers)).status).toBe(403)
  })

  it('accepts cross-site when the Origin is listed in origins', async () => {
    const { app } = setup({ origins: ['https://app.example.org'] })
    const headers = { 'sec-fetch-site': 'cross-site', origin: 'https://app.example.org' }
    expect((await post(app, headers)).status).toBe(200)
  })

  it('same-site from a sibling subdomain is stopped by the Origin layer', async () => {
    const { app } = setup()
    const headers = { 'sec-fetch-site': 'same-site', origin: 'http://evil.localhost' }
    expect((await post(app, headers)).status).toBe(403)
  })

  it('an unknown Sec-Fetch-Site value is left to the other layers', async () => {
    const { app } = setup()
    expect((await post(app, { 'sec-fetch-site': 'bogus' })).status).toBe(200)
  })

  it('still needs the token when Origin and Fetch Metadata agree', async () => {
    const { app } = setup()
    const res = await app.request('http://localhost/form', {
      method: 'POST',
      headers: { ...FORM, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      body: 'name=hono',
    })
    expect(res.status).toBe(403)
  })
})
