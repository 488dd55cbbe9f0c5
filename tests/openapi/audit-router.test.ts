// `audit()` reads Hono's real router: routes registered past the wrapper (`api.app.get`,
// `route()`, `basePath()`, `on()`, `mount()`) are audited and reported `undocumented`, each
// registered route counts once (not each path template), and raw `app.use()` middleware counts
// where it really runs. Protection that is not (csrf alone, a declaration no middleware enforces,
// a regex-constrained `use()` that covers part of a route) is reported.
import {
  bodyLimit,
  csrf,
  describeMiddleware,
  jwtAuth,
  rateLimit,
  securityHeaders,
  sessions,
} from '@palisade/middleware'
import { openapi } from '@palisade/openapi'
import { type AuditFinding, audit } from '@palisade/openapi/audit'
import { Hono, type MiddlewareHandler } from 'hono'
import { mount } from 'hono/mount'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const secret = 'a-secret-of-at-least-32-characters!!'
const ok = { 200: { description: 'OK', schema: z.object({ ok: z.boolean() }) } }
const Body = z.object({ name: z.string() })
const info = { title: 'Audit', version: '1.0.0' }

/** An app where everything passes: each test adds one fault to it. */
function base() {
  const api = openapi(new Hono(), { info })
  api.use('*', securityHeaders(), rateLimit({ max: 100 }), bodyLimit({ max: 1024 }))
  return api
}
const only = (findings: AuditFinding[]) => findings.map((f) => `${f.method} ${f.path} ${f.rule}`)
const hello = (c: { text: (t: string) => Response }) => c.text('hello')

describe('routes registered outside the wrapper', () => {
  it('api.app.get: audited, reported undocumented, and it answers', async () => {
    const api = base()
    api.app.get('/raw', hello)
    expect((await api.request('/raw')).status).toBe(200)
    expect(only(audit(api))).toEqual(['GET /raw undocumented', 'GET /raw auth'])
    expect(audit(api)[0]?.message).toMatch(/not in the document/)
  })

  it('api.app.route(sub), basePath(…).get and on([...]) each register routes the audit sees', async () => {
    const api = base()
    const sub = new Hono().get('/x', hello)
    api.app.route('/sub', sub)
    api.app.basePath('/v2').get('/y', hello)
    api.app.on(['GET', 'DELETE'], '/z', hello)
    for (const [method, path] of [
      ['GET', '/sub/x'],
      ['GET', '/v2/y'],
      ['GET', '/z'],
      ['DELETE', '/z'],
    ] as const) {
      expect((await api.request(path, { method })).status, `${method} ${path}`).toBe(200)
    }
    expect(only(audit(api)).filter((f) => f.endsWith('undocumented'))).toEqual([
      'GET /sub/x undocumented',
      'GET /v2/y undocumented',
      'GET /z undocumented',
      'DELETE /z undocumented',
    ])
  })

  it('a sub-app with its own error handler: its routes are seen through the wrapper Hono puts around them', () => {
    const api = base()
    const sub = new Hono().get('/x', hello)
    sub.onError((_err, c) => c.text('sub failed', 500))
    api.app.route('/sub', sub)
    expect(only(audit(api))).toEqual(['GET /sub/x undocumented', 'GET /sub/x auth'])
  })

  it("another wrapper's app added with route(): its routes are undocumented here, its docs endpoints are not routes", () => {
    const api = base()
    const v2 = openapi(new Hono(), { info })
    v2.get('/items', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    api.app.route('/v2', v2.app)
    expect(only(audit(api))).toEqual(['GET /v2/items undocumented', 'GET /v2/items auth'])
  })

  it('routes the Hono app had before openapi() wrapped it', () => {
    const app = new Hono()
    app.use('*', securityHeaders(), rateLimit({ max: 100 }))
    app.get('/old', hello)
    const api = openapi(app, { info })
    api.get('/new', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(only(audit(api))).toEqual(['GET /old undocumented', 'GET /old auth'])
  })

  it('app.mount() and mount() from hono/mount: one route for every method, reported once', async () => {
    const api = base()
    api.app.mount('/legacy', () => new Response('legacy'))
    api.app.all(
      '/other/*',
      mount(() => new Response('other')),
    )
    expect((await api.request('/legacy/anything', { method: 'POST' })).status).toBe(200)
    expect((await api.request('/other/x')).status).toBe(200)
    expect(only(audit(api))).toEqual([
      'ALL /legacy/* undocumented',
      'ALL /legacy/* auth',
      'ALL /other/* undocumented',
      'ALL /other/* auth',
    ])
    expect(audit(api)[0]?.message).toContain('mounted')
  })

  it('middleware added with api.app.use() counts where it runs (registered before the route)', () => {
    const api = openapi(new Hono(), { info })
    api.app.use('*', securityHeaders(), rateLimit({ max: 100 }))
    api.get('/a', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    api.app.use('/b', bodyLimit({ max: 10 }))
    api.post('/b', (c) => c.json({ ok: true }), {
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    api.post('/c', (c) => c.json({ ok: true }), {
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    api.app.use('/c', bodyLimit({ max: 10 }))
    expect(only(audit(api))).toEqual(['POST /c body-limit'])
  })

  it('a raw route gets the coverage rules too: a raw POST without bodyLimit or rateLimit', () => {
    const api = openapi(new Hono(), { info })
    api.use('*', securityHeaders())
    api.app.post('/raw', hello)
    expect(only(audit(api))).toEqual([
      'POST /raw undocumented',
      'POST /raw auth',
      'POST /raw rate-limit',
      'POST /raw body-limit',
    ])
  })

  it('two routes with different regex constraints on one path template are two routes', () => {
    const api = base()
    api.get('/files/:id{[0-9]+}', (c) => c.json({ ok: true }), {
      middlewares: [jwtAuth({ secret })],
      openapi: { request: { params: z.object({ id: z.string() }) }, responses: ok },
    })
    // The document has one operation for GET /files/{id} (the first route's): this one adds none.
    api.get('/files/:id{[a-z]+}', (c) => c.json({ ok: true }))
    api.app.get('/files/:id{[A-Z]+}', hello)
    const findings = audit(api)
    expect(findings.map((f) => `${f.method} ${f.route} ${f.rule}`)).toEqual([
      'GET /files/:id{[a-z]+} undocumented',
      'GET /files/:id{[a-z]+} auth',
      'GET /files/:id{[A-Z]+} undocumented',
      'GET /files/:id{[A-Z]+} auth',
    ])
    expect(findings[0]?.message).toContain('another route')
    expect(findings.map((f) => f.path)).toEqual(findings.map((f) => f.route))
  })

  it('the same method and path registered twice: the first answers, so it is the one audited', () => {
    const api = base()
    api.app.get('/dup', hello)
    api.get('/dup', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(only(audit(api))).toEqual(['GET /dup undocumented', 'GET /dup auth'])
  })

  it('the endpoints openapi() serves itself are not findings', () => {
    expect(audit(base())).toEqual([])
  })

  it("a raw GET middleware (Hono's cache pattern: app.get('*', mw)) is middleware, not a route", () => {
    const api = base()
    const cacheLike: MiddlewareHandler = async (_c, next) => {
      await next()
    }
    api.app.get('*', cacheLike)
    api.get('/a', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(audit(api)).toEqual([])
  })
})

describe('what counts as protection', () => {
  it('csrf alone is not authentication', () => {
    const api = base()
    api.use('/forms/*', csrf({ secret }))
    api.post('/forms/send', (c) => c.json({ ok: true }), {
      openapi: { request: { body: Body }, responses: ok },
    })
    const findings = audit(api)
    expect(only(findings)).toEqual(['POST /forms/send auth'])
    expect(findings[0]?.message).toMatch(/csrf.*not authentication/)
  })

  it('a wildcard route without auth is reported, registered through the wrapper or not', () => {
    const api = base()
    api.get('/admin/*', hello)
    api.app.post('/ops/*', hello)
    api.use('/safe/*', jwtAuth({ secret }))
    api.get('/safe/*', hello)
    expect(only(audit(api))).toEqual([
      'GET /admin/* undocumented',
      'GET /admin/* auth',
      'POST /ops/* undocumented',
      'POST /ops/* auth',
      'GET /safe/* undocumented',
    ])
  })

  it('a use() with a regex-constrained pattern covers only the paths it matches', () => {
    const api = base()
    api.use('/files/:id{[0-9]+}', jwtAuth({ secret }))
    api.get('/files/:id', (c) => c.json({ ok: true }), {
      openapi: { request: { params: z.object({ id: z.string() }) }, responses: ok },
    })
    api.get('/files/:id/meta', (c) => c.json({ ok: true }), {
      openapi: { request: { params: z.object({ id: z.string() }) }, responses: ok },
    })
    api.use('/docs/:id{[0-9]+}', jwtAuth({ secret }))
    api.get('/docs/:id{[0-9]+}', (c) => c.json({ ok: true }), {
      openapi: { request: { params: z.object({ id: z.string() }) }, responses: ok },
    })
    const findings = audit(api)
    expect(only(findings)).toEqual(['GET /files/{id} auth', 'GET /files/{id}/meta auth'])
    expect(findings[0]?.message).toContain('jwtAuth')
    expect(findings[0]?.message).toContain('/files/:id{[0-9]+}')
  })

  it('a use() limited to some methods of a route covers only those', () => {
    const api = openapi(new Hono(), { info })
    api.use('*', securityHeaders(), bodyLimit({ max: 10 }))
    api.app.on('GET', '/n/*', rateLimit({ max: 10 }))
    api.all('/n/x', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(only(audit(api, { rules: { validation: 'off' } }))).toEqual([
      'POST /n/x rate-limit',
      'PUT /n/x rate-limit',
      'PATCH /n/x rate-limit',
      'DELETE /n/x rate-limit',
    ])
  })

  it('openapi.security declared with no middleware enforcing it', () => {
    const api = openapi(new Hono(), {
      info,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    })
    api.use('*', securityHeaders(), rateLimit({ max: 100 }))
    api.get('/claims', (c) => c.json({ ok: true }), {
      openapi: { security: [{ bearerAuth: [] }], responses: ok },
    })
    api.get('/enforced', (c) => c.json({ ok: true }), {
      middlewares: [jwtAuth({ secret })],
      openapi: { security: [{ bearerAuth: [] }], responses: ok },
    })
    const findings = audit(api)
    expect(only(findings)).toEqual(['GET /claims auth'])
    expect(findings[0]?.message).toContain('bearerAuth')
    expect(findings[0]?.message).toMatch(/no middleware .*enforces/)
  })

  it('a declared security naming only csrfToken is not authentication either', () => {
    const api = base()
    api.use('/f/*', csrf({ secret }))
    api.post('/f/x', (c) => c.json({ ok: true }), {
      openapi: { security: [{ csrfToken: [] }], request: { body: Body }, responses: ok },
    })
    expect(only(audit(api))).toEqual(['POST /f/x auth'])
  })

  it('a security list a middleware describes as empty is no authentication', () => {
    const api = base()
    const hollow = (security: never[] | never[][]) =>
      describeMiddleware(async (_c, next) => next(), { middleware: 'hollowAuth', security })
    api.get('/none', (c) => c.json({ ok: true }), {
      middlewares: [hollow([])],
      openapi: { responses: ok },
    })
    api.get('/empty-alternative', (c) => c.json({ ok: true }), {
      middlewares: [hollow([[]])],
      openapi: { responses: ok },
    })
    expect(only(audit(api))).toEqual(['GET /none auth', 'GET /empty-alternative auth'])
  })

  it('an empty requirement object in the declaration ({}, anonymous allowed) declares the route public', () => {
    const api = base()
    api.get('/anon', (c) => c.json({ ok: true }), { openapi: { security: [{}], responses: ok } })
    expect(audit(api)).toEqual([])
  })

  it('sessions on an unsafe raw route without csrf: the csrf rule applies to raw routes', () => {
    const api = base()
    api.use('/s/*', sessions({ secret }), jwtAuth({ secret }))
    api.app.post('/s/raw', hello)
    expect(only(audit(api))).toEqual(['POST /s/raw undocumented', 'POST /s/raw csrf'])
  })
})

describe('rules a planted bug got through', () => {
  it('body-limit: a GET that declares a request body needs bodyLimit', () => {
    const api = openapi(new Hono(), { info })
    api.use('*', securityHeaders(), rateLimit({ max: 100 }))
    api.get('/search', (c) => c.json({ ok: true }), {
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    api.get('/plain', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(only(audit(api))).toEqual(['GET /search body-limit'])
  })

  it('body-limit: bodyLimit counts for a GET or DELETE with a declared body (it caps any body)', () => {
    const api = base()
    api.get('/search', (c) => c.json({ ok: true }), {
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    api.delete('/batch', (c) => c.json({ ok: true }), {
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    expect(audit(api)).toEqual([])
  })

  it('an exemption matches its path exactly, never as a prefix', () => {
    const api = base()
    for (const path of ['/a', '/a/b', '/ab', '/a/*']) {
      api.get(
        path,
        (c) => c.json({ ok: true }),
        path.endsWith('*') ? undefined : { openapi: { responses: ok } },
      )
    }
    const reason = 'the exemption under test'
    const findings = audit(api, {
      exempt: [{ method: 'GET', path: '/a', rules: ['auth', 'undocumented'], reason }],
    })
    expect(only(findings)).toEqual([
      'GET /a/b auth',
      'GET /ab auth',
      'GET /a/* undocumented',
      'GET /a/* auth',
    ])
    const wildcard = audit(api, {
      exempt: [{ method: '*', path: '/a/*', rules: ['auth', 'undocumented'], reason }],
    })
    expect(only(wildcard)).toEqual(['GET /a auth', 'GET /a/b auth', 'GET /ab auth'])
  })

  it("an exemption for ALL or '*' covers a mounted route", () => {
    const api = base()
    api.app.mount('/legacy', () => new Response('legacy'))
    const reason = 'a legacy app with its own auth'
    expect(
      audit(api, {
        exempt: [{ method: 'ALL', path: '/legacy/*', rules: ['undocumented', 'auth'], reason }],
      }),
    ).toEqual([])
    expect(
      audit(api, {
        exempt: [{ method: 'GET', path: '/legacy/*', rules: ['undocumented', 'auth'], reason }],
      }),
    ).toHaveLength(2)
  })
})

describe('routes Hono answers with an earlier route', () => {
  it('an `all` route after a GET on its path: GET is the earlier route’s, the other methods its own', () => {
    const api = base()
    api.get('/x', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    api.all('/x', (c) => c.json({ ok: true }), {
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    expect(audit(api)).toEqual([])
  })

  it('an `all` route before a documented GET on its path: it answers GET, which the document takes from the GET', () => {
    const api = base()
    api.all('/x', (c) => c.json({ ok: true }))
    api.get('/x', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(only(audit(api)).filter((f) => f.startsWith('GET'))).toEqual([
      'GET /x undocumented',
      'GET /x auth',
    ])
  })
})

describe('what the audit cannot read', () => {
  it('refuses an app whose Hono routes it cannot read, instead of passing blind', () => {
    const api = base()
    api.get('/a', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    Object.defineProperty(api.app, 'routes', { value: 'not an array' })
    expect(() => audit(api)).toThrow(TypeError)
    expect(() => audit(api)).toThrow(/cannot read the Hono app's routes/)
  })

  it('a partly covering rate limit and body cap are named in their findings', () => {
    const api = openapi(new Hono(), { info })
    api.use('*', securityHeaders())
    api.use('/u/:id{[0-9]+}', rateLimit({ max: 10 }), bodyLimit({ max: 10 }))
    api.put('/u/:id', (c) => c.json({ ok: true }), {
      openapi: {
        security: [],
        request: { params: z.object({ id: z.string() }), body: Body },
        responses: ok,
      },
    })
    const findings = audit(api)
    expect(only(findings)).toEqual(['PUT /u/{id} rate-limit', 'PUT /u/{id} body-limit'])
    for (const f of findings)
      expect(f.message).toContain("at /u/:id{[0-9]+} runs for only part of this route's paths")
  })
})
