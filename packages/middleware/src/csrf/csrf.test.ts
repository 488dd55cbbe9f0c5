import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type CsrfOptions, csrf } from './index'

function setup(options: CsrfOptions = {}) {
  const app = new Hono()
  app.use(csrf(options))
  app.get('/form', (c) => c.text(c.get('csrfToken')))
  app.on(['POST', 'PUT', 'PATCH', 'DELETE', 'QUERY'], '/submit', async (c) => {
    // The handler must still be able to read the body the middleware looked at.
    const type = c.req.header('content-type') ?? ''
    if (type.includes('json')) return c.json({ body: await c.req.json() })
    if (type.includes('form')) return c.json({ body: Object.fromEntries(await c.req.formData()) })
    return c.json({ body: await c.req.text() })
  })
  return app
}

/** The token cookie a GET hands out: `{ token, cookie: 'XSRF-TOKEN=…' }`. */
async function getToken(app: Hono, url = '/form') {
  const res = await app.request(url)
  const line = res.headers.getSetCookie()[0] ?? ''
  const token = await res.text()
  return { token, cookie: line.split(';')[0] as string, line }
}

function post(
  app: Hono,
  init: { cookie?: string; headers?: Record<string, string>; body?: BodyInit; method?: string },
) {
  const headers: Record<string, string> = { ...init.headers }
  if (init.cookie) headers.Cookie = init.cookie
  return app.request('/submit', { method: init.method ?? 'POST', headers, body: init.body ?? null })
}

async function expectForbidden(res: Response) {
  expect(res.status).toBe(403)
  expect(await res.text()).toBe('Invalid CSRF token')
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('csrf: token cookie', () => {
  it('sets a readable, Lax, Path=/ cookie on a request without one and exposes csrfToken', async () => {
    const { token, cookie, line } = await getToken(setup())
    expect(token).toMatch(/^[0-9a-f-]{36}$/)
    expect(cookie).toBe(`XSRF-TOKEN=${token}`)
    expect(line).toBe(`XSRF-TOKEN=${token}; Path=/; SameSite=Lax`)
  })

  it('marks the cookie Secure on https', async () => {
    const { line } = await getToken(setup(), 'https://example.com/form')
    expect(line).toMatch(/; Secure/)
  })

  it('keeps an existing cookie and does not set it again', async () => {
    const app = setup()
    const { token, cookie } = await getToken(app)
    const res = await app.request('/form', { headers: { Cookie: cookie } })
    expect(await res.text()).toBe(token)
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it('hands over the first usable copy on a safe request, past an empty or oversized one', async () => {
    const app = setup()
    const cookie = `XSRF-TOKEN=; XSRF-TOKEN=${'a'.repeat(600)}; XSRF-TOKEN=mine; XSRF-TOKEN=other`
    const res = await app.request('/form', { headers: { Cookie: cookie } })
    expect(await res.text()).toBe('mine')
    expect(res.headers.getSetCookie()).toEqual([])
    // More copies than are examined: no usable cookie, so a fresh one is set.
    const padded = Array.from({ length: 9 }, () => 'XSRF-TOKEN=mine').join('; ')
    const fresh = await app.request('/form', { headers: { Cookie: padded } })
    expect(await fresh.text()).toMatch(/^[0-9a-f-]{36}$/)
    expect(fresh.headers.getSetCookie()[0]).toMatch(/^XSRF-TOKEN=[0-9a-f-]{36};/)
  })

  it('uses generateToken, cookieName and cookie attributes', async () => {
    const app = setup({
      generateToken: () => 'fixed-token',
      cookieName: 'csrf',
      cookie: {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/app',
        maxAge: 3600,
        domain: 'example.com',
      },
    })
    const { token, line } = await getToken(app)
    expect(token).toBe('fixed-token')
    expect(line).toBe(
      'csrf=fixed-token; Max-Age=3600; Domain=example.com; Path=/app; HttpOnly; SameSite=Strict',
    )
  })

  it("sets the cookie on the handler's Response in place, without rebuilding it", async () => {
    const app = new Hono()
    const own = new Response('raw')
    let seen: Response | undefined
    app.use(async (c, next) => {
      await next()
      seen = c.res
    })
    app.use(csrf({ generateToken: () => 'fixed-token' }))
    app.get('/', () => own)
    const res = await app.request('/')
    expect(seen).toBe(own)
    expect(res.headers.getSetCookie()).toEqual(['XSRF-TOKEN=fixed-token; Path=/; SameSite=Lax'])
    expect(await res.text()).toBe('raw')
  })

  it('sets the cookie on a response whose headers are immutable', async () => {
    const app = new Hono()
    app.use(csrf({ generateToken: () => 'fixed-token' }))
    app.get('/', () => Response.redirect('https://example.com/form', 302))
    const res = await app.request('/')
    expect(res.headers.get('location')).toBe('https://example.com/form')
    expect(res.headers.getSetCookie()).toEqual(['XSRF-TOKEN=fixed-token; Path=/; SameSite=Lax'])
  })

  it('does not draw randomness at construction', () => {
    const uuid = vi.spyOn(crypto, 'randomUUID')
    const random = vi.spyOn(crypto, 'getRandomValues')
    csrf({ secret: 's'.repeat(32) })
    expect(uuid).not.toHaveBeenCalled()
    expect(random).not.toHaveBeenCalled()
  })

  it('gives a 500, not a weak token, when generateToken returns something unusable', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    for (const bad of ['', 'has space', 'semi;colon', 42]) {
      const app = setup({ generateToken: () => bad as string })
      expect((await app.request('/form')).status).toBe(500)
    }
  })
})

describe('csrf: unsafe methods', () => {
  it('accepts a POST whose header equals the cookie', async () => {
    const app = setup()
    const { token, cookie } = await getToken(app)
    const res = await post(app, { cookie, headers: { 'X-XSRF-Token': token } })
    expect(res.status).toBe(200)
  })

  it.each(['PUT', 'PATCH', 'DELETE'])('checks %s', async (method) => {
    const app = setup()
    const { token, cookie } = await getToken(app)
    await expectForbidden(await post(app, { method, cookie }))
    expect((await post(app, { method, cookie, headers: { 'x-xsrf-token': token } })).status).toBe(
      200,
    )
  })

  it.each(['GET', 'HEAD', 'OPTIONS'])('lets %s through without a token', async (method) => {
    const app = new Hono()
    app.use(csrf())
    app.all('/', (c) => c.text('ok'))
    expect((await app.request('/', { method })).status).toBe(200)
  })

  it('lets QUERY through without a token by default', async () => {
    const res = await post(setup(), {
      method: 'QUERY',
      body: 'q',
      headers: { 'content-type': 'text/plain' },
    })
    expect(res.status).toBe(200)
  })

  it('checks QUERY when safeMethods leaves it out, and skips listed methods', async () => {
    const app = setup({ safeMethods: ['get', 'POST'] })
    await expectForbidden(await post(app, { method: 'QUERY' }))
    expect((await post(app, {})).status).toBe(200)
  })

  it('uses a custom headerName', async () => {
    const app = setup({ headerName: 'X-CSRF' })
    const { token, cookie } = await getToken(app)
    await expectForbidden(await post(app, { cookie, headers: { 'X-XSRF-Token': token } }))
    expect((await post(app, { cookie, headers: { 'X-CSRF': token } })).status).toBe(200)
  })

  it('sets no cookie on a rejected request and does not run the handler', async () => {
    const handler = vi.fn((c) => c.text('ok'))
    const app = new Hono()
    app.use(csrf())
    app.post('/', handler)
    const res = await app.request('/', { method: 'POST' })
    expect(res.status).toBe(403)
    expect(handler).not.toHaveBeenCalled()
  })
})

describe('csrf: body field', () => {
  it('accepts the token in a JSON body and the handler can still read it', async () => {
    const app = setup()
    const { token, cookie } = await getToken(app)
    const res = await post(app, {
      cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ _csrf: token, name: 'x' }),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ body: { _csrf: token, name: 'x' } })
  })

  it('accepts a +json media type with parameters', async () => {
    const app = setup()
    const { token, cookie } = await getToken(app)
    const res = await post(app, {
      cookie,
      headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' },
      body: JSON.stringify({ _csrf: token }),
    })
    expect(res.status).toBe(200)
  })

  it('accepts the token in an urlencoded form and the handler can still read it', async () => {
    const app = setup()
    const { token, cookie } = await getToken(app)
    const res = await post(app, {
      cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: token, name: 'x' }).toString(),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ body: { _csrf: token, name: 'x' } })
  })

  it('accepts the token in a multipart form with a file, and the handler can still read it', async () => {
    const app = setup()
    const { token, cookie } = await getToken(app)
    const form = new FormData()
    form.set('_csrf', token)
    form.set('file', new Blob([new Uint8Array([0, 255, 1, 254])]), 'a.bin')
    const res = await app.request('/submit', {
      method: 'POST',
      headers: { Cookie: cookie },
      body: form,
    })
    expect(res.status).toBe(200)
    const { body } = await res.json()
    expect(body._csrf).toBe(token)
  })

  it('uses a custom bodyField', async () => {
    const app = setup({ bodyField: 'token' })
    const { token, cookie } = await getToken(app)
    const json = { 'content-type': 'application/json' }
    await expectForbidden(
      await post(app, { cookie, headers: json, body: JSON.stringify({ _csrf: token }) }),
    )
    const ok = await post(app, { cookie, headers: json, body: JSON.stringify({ token }) })
    expect(ok.status).toBe(200)
  })

  it('reads a body that an earlier middleware parsed through Hono', async () => {
    const app = new Hono()
    app.use(async (c, next) => {
      await c.req.json()
      await next()
    })
    app.use(csrf())
    app.post('/', async (c) => c.json(await c.req.json()))
    const { token, cookie } = await getToken(setup())
    const res = await app.request('/', {
      method: 'POST',
      headers: { Cookie: cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ _csrf: token }),
    })
    expect(res.status).toBe(200)
  })

  it.each([
    ['text/plain (a CORS-simple type)', 'text/plain', (t: string) => `_csrf=${t}`],
    ['no Content-Type', undefined, (t: string) => `_csrf=${t}`],
    ['malformed JSON', 'application/json', (t: string) => `{"_csrf":"${t}"`],
    ['a JSON array', 'application/json', (t: string) => JSON.stringify([t])],
    ['a non-string JSON field', 'application/json', () => JSON.stringify({ _csrf: 1 })],
    ['a nested JSON field', 'application/json', (t: string) => JSON.stringify({ a: { _csrf: t } })],
    ['the field in an inherited property', 'application/json', () => '{"__proto__":{"_csrf":"x"}}'],
    ['a broken multipart body', 'multipart/form-data; boundary=x', (t: string) => `_csrf=${t}`],
    [
      'a file upload named _csrf',
      'multipart/form-data; boundary=b',
      (t: string) =>
        `--b\r\nContent-Disposition: form-data; name="_csrf"; filename="t.txt"\r\n\r\n${t}\r\n--b--\r\n`,
    ],
  ])('rejects a token sent in a body with %s', async (_, type, body) => {
    const app = setup()
    const { token, cookie } = await getToken(app)
    const headers: Record<string, string> = type ? { 'content-type': type } : {}
    await expectForbidden(await post(app, { cookie, headers, body: body(token) }))
  })
})

describe('csrf: attacks', () => {
  it('rejects a request without the cookie, even with a header', async () => {
    const app = setup()
    const { token } = await getToken(app)
    await expectForbidden(await post(app, { headers: { 'X-XSRF-Token': token } }))
  })

  it('rejects a request with the cookie but no header or field', async () => {
    const app = setup()
    const { cookie } = await getToken(app)
    await expectForbidden(await post(app, { cookie }))
  })

  it('rejects a header that does not match the cookie', async () => {
    const app = setup()
    const { cookie } = await getToken(app)
    const other = (await getToken(app)).token
    await expectForbidden(await post(app, { cookie, headers: { 'X-XSRF-Token': other } }))
  })

  it.each([
    ['a prefix of the token', (t: string) => t.slice(0, -1)],
    ['the token plus a character', (t: string) => `${t}0`],
    ['the token in upper case', (t: string) => t.toUpperCase()],
  ])('rejects %s in the header', async (_, mutate) => {
    const app = setup()
    const { token, cookie } = await getToken(app)
    await expectForbidden(await post(app, { cookie, headers: { 'X-XSRF-Token': mutate(token) } }))
  })

  it('rejects an empty cookie with an empty header', async () => {
    await expectForbidden(
      await post(setup(), { cookie: 'XSRF-TOKEN=', headers: { 'X-XSRF-Token': '' } }),
    )
  })

  it('rejects an empty header and empty body field against a real cookie', async () => {
    const app = setup()
    const { cookie } = await getToken(app)
    await expectForbidden(
      await post(app, {
        cookie,
        headers: { 'X-XSRF-Token': '', 'content-type': 'application/json' },
        body: JSON.stringify({ _csrf: '' }),
      }),
    )
  })

  it('replaces an empty cookie with a fresh token on a safe request', async () => {
    const app = setup()
    const res = await app.request('/form', { headers: { Cookie: 'XSRF-TOKEN=' } })
    expect(res.headers.getSetCookie()[0]).toMatch(/^XSRF-TOKEN=[0-9a-f-]{36};/)
  })

  it('accepts an attacker-chosen matching pair without a secret (the known limit of naive double submit)', async () => {
    // Documents why `secret` exists: a cookie planted by a sibling subdomain passes the naive check.
    const res = await post(setup(), {
      cookie: 'XSRF-TOKEN=planted',
      headers: { 'X-XSRF-Token': 'planted' },
    })
    expect(res.status).toBe(200)
  })

  it('ignores an oversized cookie and header', async () => {
    const big = 'a'.repeat(600)
    await expectForbidden(
      await post(setup(), { cookie: `XSRF-TOKEN=${big}`, headers: { 'X-XSRF-Token': big } }),
    )
  })
})

describe('csrf: signed tokens (secret)', () => {
  const SECRET = 'csrf-secret-0123456789abcdef0123456789'

  it('issues <random>.<hmac> tokens and accepts them back', async () => {
    const app = setup({ secret: SECRET })
    const { token, cookie } = await getToken(app)
    expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/)
    expect((await post(app, { cookie, headers: { 'X-XSRF-Token': token } })).status).toBe(200)
  })

  it('rejects a planted cookie/header pair the server never signed', async () => {
    const app = setup({ secret: SECRET })
    await expectForbidden(
      await post(app, { cookie: 'XSRF-TOKEN=planted', headers: { 'X-XSRF-Token': 'planted' } }),
    )
  })

  it('rejects a token signed with another secret, and replaces it on the next safe request', async () => {
    const foreign = await getToken(setup({ secret: 'some-other-secret-abcdef0123456789abcdef' }))
    const app = setup({ secret: SECRET })
    await expectForbidden(
      await post(app, { cookie: foreign.cookie, headers: { 'X-XSRF-Token': foreign.token } }),
    )
    const res = await app.request('/form', { headers: { Cookie: foreign.cookie } })
    const fresh = await res.text()
    expect(fresh).not.toBe(foreign.token)
    expect(res.headers.getSetCookie()[0]).toContain(`XSRF-TOKEN=${fresh}`)
  })

  it('rejects a token with a tampered random part or signature', async () => {
    const app = setup({ secret: SECRET })
    const { token } = await getToken(app)
    const dot = token.indexOf('.')
    for (const bad of [
      `${token[0] === '0' ? '1' : '0'}${token.slice(1)}`,
      `${token.slice(0, dot + 1)}${token[dot + 1] === 'A' ? 'B' : 'A'}${token.slice(dot + 2)}`,
      `${token.slice(0, -1)}${token.at(-1) === 'A' ? 'B' : 'A'}`,
      token.slice(0, dot),
    ]) {
      await expectForbidden(
        await post(app, { cookie: `XSRF-TOKEN=${bad}`, headers: { 'X-XSRF-Token': bad } }),
      )
    }
  })

  it('accepts tokens signed by any listed secret (rotation)', async () => {
    const old = await getToken(setup({ secret: 'old-secret-0123456789abcdef0123456789' }))
    const app = setup({
      secret: ['new-secret-0123456789abcdef0123456789', 'old-secret-0123456789abcdef0123456789'],
    })
    expect(
      (await post(app, { cookie: old.cookie, headers: { 'X-XSRF-Token': old.token } })).status,
    ).toBe(200)
  })
})

describe('csrf: origins', () => {
  const origins = ['https://app.example.com', 'https://admin.example.com']

  async function withOrigin(headers: Record<string, string>) {
    const app = setup({ origins })
    const { token, cookie } = await getToken(app)
    return post(app, { cookie, headers: { 'X-XSRF-Token': token, ...headers } })
  }

  it('accepts a listed Origin', async () => {
    expect((await withOrigin({ Origin: 'https://admin.example.com' })).status).toBe(200)
  })

  it.each([
    ['another site', 'https://evil.example'],
    ['a sibling subdomain', 'https://evil.example.com'],
    ['the right host over http', 'http://app.example.com'],
    ['another port', 'https://app.example.com:8443'],
    ['the opaque origin null', 'null'],
    ['a suffix trick', 'https://app.example.com.evil.example'],
  ])('rejects %s in Origin even with a valid token', async (_, origin) => {
    await expectForbidden(await withOrigin({ Origin: origin }))
  })

  it('falls back to the Referer when Origin is absent', async () => {
    expect((await withOrigin({ Referer: 'https://app.example.com/page?x=1' })).status).toBe(200)
    await expectForbidden(await withOrigin({ Referer: 'https://evil.example/page' }))
    await expectForbidden(await withOrigin({ Referer: 'not a url' }))
  })

  it('leaves requests without Origin and Referer to the token check', async () => {
    expect((await withOrigin({})).status).toBe(200)
    const app = setup({ origins })
    await expectForbidden(await post(app, {}))
  })

  it('does not check origins on safe methods', async () => {
    const app = setup({ origins })
    const res = await app.request('/form', { headers: { Origin: 'https://evil.example' } })
    expect(res.status).toBe(200)
  })
})

describe('csrf: options', () => {
  it.each([
    ['a bad cookieName', { cookieName: 'a b' }, /cookieName/],
    ['an empty headerName', { headerName: '' }, /headerName/],
    ['a headerName with a colon', { headerName: 'X:Y' }, /headerName/],
    ['an empty bodyField', { bodyField: '' }, /bodyField/],
    ['safeMethods with an empty entry', { safeMethods: ['GET', ''] }, /safeMethods/],
    ['a non-function generateToken', { generateToken: 'x' }, /generateToken/],
    ['an empty secret', { secret: '' }, /secret/],
    ['an empty secret list', { secret: [] }, /secret/],
    ['an origin with a path', { origins: ['https://a.example/path'] }, /origins/],
    ['an origin without a scheme', { origins: ['a.example'] }, /origins/],
    ['empty origins', { origins: [] }, /origins/],
    ['SameSite=None without Secure', { cookie: { sameSite: 'None' } }, /secure/],
    ['an unknown cookie option', { cookie: { priority: 'High' } }, /unknown option "priority"/],
    ['a typo', { header: 'X' }, /unknown option "header"/],
  ])('throws a TypeError at construction for %s', (_, options, message) => {
    expect(() => csrf(options as unknown as CsrfOptions)).toThrow(TypeError)
    expect(() => csrf(options as unknown as CsrfOptions)).toThrow(message)
  })

  it('accepts an origin written with a trailing slash', () => {
    expect(() => csrf({ origins: ['https://a.example/'] })).not.toThrow()
  })
})
