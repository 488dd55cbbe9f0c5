// Each rule of `audit()` at its edges, one near miss beside each finding, with every field of the
// finding compared whole. The middleware are hand-made descriptions under the registered symbol
// (as a third-party middleware carries one); tests/openapi/audit*.test.ts run Palisade's own.
import { Hono, type MiddlewareHandler } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openapi } from '../app/openapi'
import {
  AUDIT_RULES,
  type AuditFinding,
  type AuditPolicy,
  audit,
  SUNSET_WARNING_DAYS,
} from './audit'

const KEY = Symbol.for('palisade.openapi.describe')
const info = { title: 'Audit', version: '1.0.0' }
const ok = { 200: { description: 'OK', schema: z.object({ ok: z.boolean() }) } }
const Body = z.object({ name: z.string() })
const hello = (c: { text: (t: string) => Response }) => c.text('hello')
const json = (c: { json: (v: unknown) => Response }) => c.json({ ok: true })

function described(description: Record<string, unknown>): MiddlewareHandler {
  const mw: MiddlewareHandler = async (_c, next) => next()
  Object.defineProperty(mw, KEY, { value: description })
  return mw
}
/** A middleware that describes itself by name only. */
const named = (middleware: string, more: Record<string, unknown> = {}) =>
  described({ middleware, ...more })
const scheme = (name: string) => ({ name, scheme: { type: 'http', scheme: 'bearer' } })
/** An authenticating middleware: a security requirement of one scheme. */
const authBy = (name: string, middleware?: string) =>
  described({ ...(middleware ? { middleware } : {}), security: [[scheme(name)]] })

const securitySchemes = {
  bearerAuth: { type: 'http', scheme: 'bearer' },
  apiKey12: { type: 'http', scheme: 'bearer' },
  key2x: { type: 'http', scheme: 'bearer' },
  a: { type: 'http', scheme: 'bearer' },
  b: { type: 'http', scheme: 'bearer' },
} as const

/** An app where every rule but the one under test passes. */
function base(omit: string[] = []) {
  const api = openapi(new Hono(), { info, securitySchemes })
  const all = ['securityHeaders', 'rateLimit', 'bodyLimit'].filter((m) => !omit.includes(m))
  if (all.length > 0) api.use('*', ...all.map((m) => named(m)))
  return api
}
type Api = ReturnType<typeof base>

const finding = (
  method: string,
  path: string,
  rule: AuditFinding['rule'],
  message: string,
  more: Partial<AuditFinding> = {},
): AuditFinding => ({ method, path, route: path, rule, severity: 'error', message, ...more })

/** The class and message of what `fn` throws. */
function thrown(fn: () => unknown): [unknown, string] | undefined {
  try {
    fn()
  } catch (e) {
    return [(e as Error).constructor, (e as Error).message]
  }
  return undefined
}

/** Only the findings of one rule. */
const of = (api: Api, rule: AuditFinding['rule'], policy?: AuditPolicy) =>
  audit(api, policy).filter((f) => f.rule === rule)

describe('undocumented: each reason, in words', () => {
  it('names why each route is not in the document', () => {
    const api = base()
    api.app.get('/raw', hello)
    api.get('/wild/*', hello)
    api.app.mount('/legacy', () => new Response('legacy'))
    api.get('/files/:id{[0-9]+}', json, {
      openapi: { security: [], request: { params: z.object({ id: z.string() }) }, responses: ok },
    })
    api.get('/files/:id{[a-z]+}', json)
    expect(audit(api, { rules: { auth: 'off' } })).toEqual([
      finding(
        'GET',
        '/raw',
        'undocumented',
        'not in the document: registered on the Hono app past the wrapper (api.app.get, route, basePath, on, …); register it through the wrapper with `openapi` metadata, or exempt it',
      ),
      finding(
        'GET',
        '/wild/*',
        'undocumented',
        'not in the document: OpenAPI cannot describe a wildcard path; use a path parameter, or exempt it',
      ),
      finding(
        'ALL',
        '/legacy/*',
        'undocumented',
        'not in the document: a mounted application (app.mount() or mount() from hono/mount) answers every method here; exempt it with what protects it',
      ),
      finding(
        'GET',
        '/files/:id{[a-z]+}',
        'undocumented',
        "not in the document: its documented path's operation is taken from another route on the same path (another regex constraint, or a route with metadata), so this one's answers are not described; give it a path of its own, or exempt it",
      ),
    ])
  })
})

describe('auth', () => {
  it('a documented route without auth, and a raw one (which cannot be declared public)', () => {
    const api = base()
    api.get('/open', json, { openapi: { responses: ok } })
    api.app.get('/raw', hello)
    expect(of(api, 'auth')).toEqual([
      finding(
        'GET',
        '/open',
        'auth',
        'no security requirement: add an auth middleware, or declare the route public with `security: []`',
      ),
      finding(
        'GET',
        '/raw',
        'auth',
        'no security requirement: add an auth middleware; a route the document does not describe cannot be declared public, so document it or exempt it',
      ),
    ])
  })

  it('a middleware authenticates by a non-empty security requirement, named or not, and csrf never', () => {
    const api = base()
    api.get('/unnamed', json, { middlewares: [authBy('bearerAuth')], openapi: { responses: ok } })
    api.get('/named', json, {
      middlewares: [authBy('bearerAuth', 'jwtAuth')],
      openapi: { responses: ok },
    })
    api.get('/csrf', json, {
      middlewares: [authBy('bearerAuth', 'csrf')],
      openapi: { responses: ok },
    })
    api.get('/empty', json, {
      middlewares: [described({ middleware: 'jwtAuth', security: [] })],
      openapi: { responses: ok },
    })
    api.get('/other', json, { middlewares: [named('csrfLike')], openapi: { responses: ok } })
    expect(of(api, 'auth')).toEqual([
      finding(
        'GET',
        '/csrf',
        'auth',
        'csrf runs, but a CSRF token is not authentication: add an auth middleware, or declare the route public with `security: []`',
      ),
      finding(
        'GET',
        '/empty',
        'auth',
        'no security requirement: add an auth middleware, or declare the route public with `security: []`',
      ),
      finding(
        'GET',
        '/other',
        'auth',
        'no security requirement: add an auth middleware, or declare the route public with `security: []`',
      ),
    ])
  })

  it('declared public by `[]` or by an empty requirement among the alternatives', () => {
    const api = base()
    api.get('/none', json, { openapi: { security: [], responses: ok } })
    api.get('/anon', json, { openapi: { security: [{ bearerAuth: [] }, {}], responses: ok } })
    api.get('/claims', json, { openapi: { security: [{ bearerAuth: [] }], responses: ok } })
    expect(of(api, 'auth').map((f) => f.path)).toEqual(['/claims'])
  })

  it('every declared scheme must be enforced, a numbered form counting as its base name', () => {
    const api = base()
    // The document numbers clashing names: apiKey12 is apiKey's, enforced by it.
    api.get('/numbered', json, {
      middlewares: [authBy('apiKey')],
      openapi: { security: [{ apiKey12: [] }], responses: ok },
    })
    api.get('/reverse', json, {
      middlewares: [authBy('bearerAuth7')],
      openapi: { security: [{ bearerAuth: [] }], responses: ok },
    })
    // Only trailing digits are a number: key2x is not keyx.
    api.get('/inner', json, {
      middlewares: [authBy('keyx')],
      openapi: { security: [{ key2x: [] }], responses: ok },
    })
    api.get('/alternatives', json, {
      middlewares: [authBy('a')],
      openapi: { security: [{ a: [] }, { b: [] }], responses: ok },
    })
    api.get('/both', json, {
      middlewares: [authBy('bearerAuth', 'csrf')],
      openapi: { security: [{ a: [], b: [] }, { b: [] }, { a: [] }], responses: ok },
    })
    const tail =
      ': add the middleware (describe your own with describeMiddleware), or declare the route public with `security: []`'
    expect(of(api, 'auth')).toEqual([
      finding(
        'GET',
        '/inner',
        'auth',
        `declares security key2x but no middleware that enforces it runs${tail}`,
      ),
      finding(
        'GET',
        '/alternatives',
        'auth',
        `declares security b but no middleware that enforces it runs${tail}`,
      ),
      finding(
        'GET',
        '/both',
        'auth',
        `declares security a, b but no middleware that enforces it runs${tail}`,
      ),
    ])
  })

  it('names csrf when it describes an unenforced declared scheme, and only then', () => {
    const api = base()
    api.post('/token', json, {
      middlewares: [
        described({ middleware: 'csrf', security: [[scheme('csrfToken')], [scheme('a')]] }),
      ],
      openapi: { security: [{ csrfToken: [] }], request: { body: Body }, responses: ok },
    })
    api.post('/schemeless', json, {
      middlewares: [named('csrf')],
      openapi: { security: [{ b: [] }], request: { body: Body }, responses: ok },
    })
    api.post('/elsewhere', json, {
      middlewares: [authBy('csrfToken', 'csrf'), authBy('a', 'other')],
      openapi: { security: [{ b: [] }], request: { body: Body }, responses: ok },
    })
    api.post('/not-csrf', json, {
      middlewares: [
        described({ middleware: 'other', security: [[scheme('b')]], methods: ['GET'] }),
      ],
      openapi: { security: [{ b: [] }], request: { body: Body }, responses: ok },
    })
    const tail =
      ': add the middleware (describe your own with describeMiddleware), or declare the route public with `security: []`'
    expect(of(api, 'auth').map((f) => f.message)).toEqual([
      `declares security csrfToken but no middleware that enforces it runs (csrf runs, and a CSRF token is not authentication)${tail}`,
      `declares security b but no middleware that enforces it runs${tail}`,
      `declares security b but no middleware that enforces it runs${tail}`,
      `declares security b but no middleware that enforces it runs${tail}`,
    ])
  })

  it('names a middleware that authenticates part of the paths, with or without a name', () => {
    const api = base()
    api.use('/f/:id{[0-9]+}', authBy('bearerAuth'))
    api.use('/f/:id{[0-9]+}', authBy('bearerAuth', 'jwtAuth'))
    api.use('/f/:id{[0-9]+}', named('rateLimit'))
    api.get('/f/:id', json, {
      openapi: { request: { params: z.object({ id: z.string() }) }, responses: ok },
    })
    api.delete('/f/:id', json, {
      openapi: {
        security: [{ bearerAuth: [] }],
        request: { params: z.object({ id: z.string() }) },
        responses: ok,
      },
    })
    const part =
      "; a middleware at /f/:id{[0-9]+} runs for only part of this route's paths; jwtAuth at /f/:id{[0-9]+} runs for only part of this route's paths"
    expect(of(api, 'auth')).toEqual([
      finding(
        'GET',
        '/f/{id}',
        'auth',
        `no security requirement: add an auth middleware, or declare the route public with \`security: []\`${part}`,
        { route: '/f/:id' },
      ),
      finding(
        'DELETE',
        '/f/{id}',
        'auth',
        `declares security bearerAuth but no middleware that enforces it runs: add the middleware (describe your own with describeMiddleware), or declare the route public with \`security: []\`${part}`,
        { route: '/f/:id' },
      ),
    ])
  })
})

describe('webhook-signature', () => {
  const conventional =
    'receives webhooks (a webhook path segment) and no signature check runs: add webhook() (or httpSignature()) of @palisade/middleware, or declare `openapi: { webhookReceiver: false }` if it is not one'
  const declared =
    'declared a webhook receiver and no signature check runs: add webhook() (or httpSignature()) of @palisade/middleware'

  it('a webhook or webhooks path segment, any case, with an unsafe method', () => {
    const api = base()
    const post = (path: string) =>
      api.post(path, json, { openapi: { security: [], request: { body: Body }, responses: ok } })
    for (const path of [
      '/webhooks/billing',
      '/stripe/webhook',
      '/api/webhooks',
      '/WebHooks/x',
      '/webhook',
      '/webhookss',
      '/mywebhooks',
      '/webhooks-in',
      '/webhook.json',
    ])
      post(path)
    api.delete('/webhooks/:id', json, {
      openapi: { security: [], request: { params: z.object({ id: z.string() }) }, responses: ok },
    })
    for (const method of ['get', 'put', 'patch'] as const) {
      api[method]('/hooks/webhook', json, {
        openapi: { security: [], request: { body: Body }, responses: ok },
      })
    }
    api.app.on(['HEAD', 'OPTIONS', 'TRACE'], '/raw/webhooks', hello)
    expect(of(api, 'webhook-signature')).toEqual([
      finding('POST', '/webhooks/billing', 'webhook-signature', conventional),
      finding('POST', '/stripe/webhook', 'webhook-signature', conventional),
      finding('POST', '/api/webhooks', 'webhook-signature', conventional),
      finding('POST', '/WebHooks/x', 'webhook-signature', conventional),
      finding('POST', '/webhook', 'webhook-signature', conventional),
      finding('DELETE', '/webhooks/{id}', 'webhook-signature', conventional, {
        route: '/webhooks/:id',
      }),
      finding('PUT', '/hooks/webhook', 'webhook-signature', conventional),
      finding('PATCH', '/hooks/webhook', 'webhook-signature', conventional),
    ])
  })

  it('a declaration wins over the path, either way, for any method', () => {
    const api = base()
    api.get('/ingest', json, { openapi: { security: [], webhookReceiver: true, responses: ok } })
    api.post('/webhooks/ui', json, {
      openapi: { security: [], webhookReceiver: false, request: { body: Body }, responses: ok },
    })
    expect(of(api, 'webhook-signature')).toEqual([
      finding('GET', '/ingest', 'webhook-signature', declared),
    ])
  })

  it('webhook() or httpSignature() passes it, by name, however the description is named otherwise', () => {
    const api = base()
    const opts = (middlewares: MiddlewareHandler[]) => ({
      middlewares,
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    api.post('/webhooks/a', json, opts([named('webhook')]))
    api.post('/webhooks/b', json, opts([named('httpSignature')]))
    api.post('/webhooks/c', json, opts([named('webhooks')]))
    api.post('/webhooks/d', json, opts([described({ security: [[scheme('bearerAuth')]] })]))
    expect(of(api, 'webhook-signature').map((f) => f.path)).toEqual(['/webhooks/c', '/webhooks/d'])
  })

  it('a signature check that runs for part of the paths is named, and only a signature check', () => {
    const api = base()
    api.use('/webhooks/:id{[0-9]+}', named('httpSignature'))
    api.use('/webhooks/:id{[0-9]+}', named('csrf'))
    api.post('/webhooks/:id', json, {
      openapi: {
        security: [],
        webhookReceiver: true,
        request: { params: z.object({ id: z.string() }), body: Body },
        responses: ok,
      },
    })
    expect(of(api, 'webhook-signature')).toEqual([
      finding(
        'POST',
        '/webhooks/{id}',
        'webhook-signature',
        `${declared}; httpSignature at /webhooks/:id{[0-9]+} runs for only part of this route's paths`,
        { route: '/webhooks/:id' },
      ),
    ])
  })
})

describe('csrf', () => {
  const message = (who: string, part = '') =>
    `a cookie authenticates this unsafe request (${who}) and csrf does not run${part}`

  it('every unsafe method a cookie authenticates, the safe ones not', () => {
    const api = base()
    const cookie = named('sessions', { cookieAuth: true })
    api.use('*', cookie)
    const opts = { openapi: { security: [], request: { body: Body }, responses: ok } }
    api.post('/a', json, opts)
    api.put('/a', json, opts)
    api.patch('/a', json, opts)
    api.delete('/a', json, { openapi: { security: [], responses: ok } })
    api.get('/a', json, { openapi: { security: [], responses: ok } })
    api.app.on(['HEAD', 'OPTIONS', 'TRACE'], '/raw', hello)
    const findings = of(api, 'csrf', { rules: { undocumented: 'off' } })
    expect(findings).toEqual(
      ['POST', 'PUT', 'PATCH', 'DELETE'].map((m) => finding(m, '/a', 'csrf', message('sessions'))),
    )
  })

  it('an unnamed cookie middleware, a cookie-less one, and csrf running', () => {
    const api = base()
    const opts = (middlewares: MiddlewareHandler[]) => ({
      middlewares,
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    api.post('/unnamed', json, opts([described({ cookieAuth: true })]))
    api.post('/bearer', json, opts([named('jwtAuth')]))
    api.post('/guarded', json, opts([named('sessions', { cookieAuth: true }), named('csrf')]))
    expect(of(api, 'csrf')).toEqual([finding('POST', '/unnamed', 'csrf', message('a middleware'))])
  })

  it('names a csrf that runs for part of the paths', () => {
    const api = base()
    api.use('/s/:id{[0-9]+}', named('csrf'))
    api.use('/s/:id{[0-9]+}', named('rateLimit'))
    api.post('/s/:id', json, {
      middlewares: [named('sessions', { cookieAuth: true })],
      openapi: {
        security: [],
        request: { params: z.object({ id: z.string() }), body: Body },
        responses: ok,
      },
    })
    expect(of(api, 'csrf')).toEqual([
      finding(
        'POST',
        '/s/{id}',
        'csrf',
        message('sessions', "; csrf at /s/:id{[0-9]+} runs for only part of this route's paths"),
        { route: '/s/:id' },
      ),
    ])
  })
})

describe('rate-limit, headers and body-limit', () => {
  it('rateLimit and securityHeaders by name, with the part of the paths they cover', () => {
    const api = base(['rateLimit', 'securityHeaders'])
    api.use('/p/:id{[0-9]+}', named('rateLimit'), named('securityHeaders'))
    api.get('/p/:id', json, {
      openapi: { security: [], request: { params: z.object({ id: z.string() }) }, responses: ok },
    })
    api.get('/q', json, { openapi: { security: [], responses: ok } })
    const part = (m: string) => `; ${m} at /p/:id{[0-9]+} runs for only part of this route's paths`
    expect(audit(api)).toEqual([
      finding('GET', '/p/{id}', 'rate-limit', `rateLimit does not run${part('rateLimit')}`, {
        route: '/p/:id',
      }),
      finding(
        'GET',
        '/p/{id}',
        'headers',
        `securityHeaders does not run${part('securityHeaders')}`,
        { route: '/p/:id' },
      ),
      finding('GET', '/q', 'rate-limit', 'rateLimit does not run'),
      finding('GET', '/q', 'headers', 'securityHeaders does not run'),
    ])
  })

  it('body-limit: the methods that take a body, and a bodyless method that declares one', () => {
    const api = base(['bodyLimit'])
    const opts = { openapi: { security: [], request: { body: Body }, responses: ok } }
    const none = { openapi: { security: [], responses: ok } }
    api.post('/a', json, opts)
    api.put('/a', json, opts)
    api.patch('/a', json, opts)
    api.get('/a', json, none)
    api.delete('/a', json, none)
    api.get('/b', json, opts)
    api.delete('/b', json, { openapi: { security: [], request: { form: Body }, responses: ok } })
    api.get('/c', json, { openapi: { security: [], request: { query: Body }, responses: ok } })
    api.app.on(['HEAD', 'OPTIONS', 'TRACE'], '/raw', hello)
    const message = 'takes a body and bodyLimit does not run'
    expect(of(api, 'body-limit')).toEqual([
      finding('POST', '/a', 'body-limit', message),
      finding('PUT', '/a', 'body-limit', message),
      finding('PATCH', '/a', 'body-limit', message),
      finding('GET', '/b', 'body-limit', message),
      finding('DELETE', '/b', 'body-limit', message),
    ])
  })

  it('body-limit: bodyLimit counts whatever methods it documents its 413 for', () => {
    const api = base(['bodyLimit'])
    api.use('*', named('bodyLimit', { methods: ['POST', 'PUT', 'PATCH'] }))
    api.get('/b', json, { openapi: { security: [], request: { body: Body }, responses: ok } })
    api.delete('/b', json, { openapi: { security: [], request: { body: Body }, responses: ok } })
    expect(of(api, 'body-limit')).toEqual([])
  })

  it('body-limit: names a bodyLimit that runs for part of the paths', () => {
    const api = base(['bodyLimit'])
    api.use('/u/:id{[0-9]+}', named('bodyLimit'), named('rateLimit'))
    api.put('/u/:id', json, {
      openapi: {
        security: [],
        request: { params: z.object({ id: z.string() }), body: Body },
        responses: ok,
      },
    })
    expect(of(api, 'body-limit')).toEqual([
      finding(
        'PUT',
        '/u/{id}',
        'body-limit',
        "takes a body and bodyLimit does not run; bodyLimit at /u/:id{[0-9]+} runs for only part of this route's paths",
        { route: '/u/:id' },
      ),
    ])
  })
})

describe('validation', () => {
  it('reports each problem of an operation, joined in one message', () => {
    const api = base()
    api.post('/v/:id/:slug', json, {
      validate: false,
      openapi: { security: [], request: { query: Body }, responses: ok },
    })
    expect(of(api, 'validation')).toEqual([
      finding(
        'POST',
        '/v/{id}/{slug}',
        'validation',
        'path parameters id, slug have no `request.params` schema; takes a body that no `request.body` or `request.form` schema declares; declares request schemas but turns validation off (`validate: false`)',
        { route: '/v/:id/:slug' },
      ),
    ])
  })

  it('near misses: typed params, a form, a bodyless method, validation off without schemas', () => {
    const api = base()
    api.get('/v/:id', json, {
      openapi: { security: [], request: { params: z.object({ id: z.string() }) }, responses: ok },
    })
    api.post('/form', json, { openapi: { security: [], request: { form: Body }, responses: ok } })
    api.delete('/gone', json, { openapi: { security: [], responses: ok } })
    api.get('/off', json, { validate: false, openapi: { security: [], responses: ok } })
    api.get('/off-empty', json, {
      validate: false,
      openapi: { security: [], request: {}, responses: ok },
    })
    api.put('/on', json, {
      validate: true,
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    api.app.post('/raw/:id', hello)
    expect(of(api, 'validation')).toEqual([])
  })

  it('each problem alone', () => {
    const api = base()
    api.get('/p/:id', json, { openapi: { security: [], responses: ok } })
    api.patch('/b', json, { openapi: { security: [], responses: ok } })
    api.get('/q', json, {
      validate: false,
      openapi: { security: [], request: { query: Body }, responses: ok },
    })
    expect(of(api, 'validation')).toEqual([
      finding(
        'GET',
        '/p/{id}',
        'validation',
        'path parameters id have no `request.params` schema',
        {
          route: '/p/:id',
        },
      ),
      finding(
        'PATCH',
        '/b',
        'validation',
        'takes a body that no `request.body` or `request.form` schema declares',
      ),
      finding(
        'GET',
        '/q',
        'validation',
        'declares request schemas but turns validation off (`validate: false`)',
      ),
    ])
  })
})

describe('responses', () => {
  it('a 2xx with a schema, or 204 or 205 without one; not another status, not a schema-less 200', () => {
    const api = base()
    const route = (path: string, responses: Record<number, unknown>) =>
      api.get(path, json, { openapi: { security: [], responses: responses as never } })
    route('/created', { 201: { description: 'Created', schema: Body } })
    route('/no-content', { 204: { description: 'None' } })
    route('/reset', { 205: { description: 'Reset' } })
    route('/bare', { 200: { description: 'OK' } })
    route('/error-only', { 400: { description: 'Bad', schema: Body } })
    route('/redirect', { 301: { description: 'Moved', schema: Body } })
    route('/not-modified', { 304: { description: 'Not modified' } })
    route('/mixed', { 200: { description: 'OK' }, 299: { description: 'Odd', schema: Body } })
    api.get('/none', json, { openapi: { security: [] } })
    api.app.get('/raw', hello)
    const message = 'no success (2xx) response declares a schema'
    expect(of(api, 'responses')).toEqual([
      finding('GET', '/bare', 'responses', message),
      finding('GET', '/error-only', 'responses', message),
      finding('GET', '/redirect', 'responses', message),
      finding('GET', '/not-modified', 'responses', message),
      finding('GET', '/none', 'responses', message),
    ])
  })
})

describe('shield', () => {
  it('off by default; when on, a free-text body without shield', () => {
    const api = base()
    const opts = (request: Record<string, unknown>) => ({
      openapi: { security: [], request, responses: ok },
    })
    api.post('/text', json, opts({ body: Body }))
    api.post('/pinned', json, opts({ body: z.object({ n: z.number(), b: z.boolean() }) }))
    api.get('/search', json, opts({ body: Body }))
    api.get('/list', json, opts({}))
    api.delete('/one', json, opts({}))
    api.put('/shielded', json, { middlewares: [named('shield')], ...opts({ body: Body }) })
    api.app.on(['HEAD', 'OPTIONS', 'TRACE'], '/raw', hello)
    expect(of(api, 'shield')).toEqual([])
    const message = 'takes a free-text body and shield does not run'
    const on = { rules: { shield: 'warn' as const, undocumented: 'off' as const } }
    expect(of(api, 'shield', on)).toEqual([
      finding('POST', '/text', 'shield', message, { severity: 'warn' }),
      finding('GET', '/search', 'shield', message, { severity: 'warn' }),
    ])
  })

  it('names a shield that runs for part of the paths', () => {
    const api = base()
    api.use('/t/:id{[0-9]+}', named('shield'), named('rateLimit'))
    api.post('/t/:id', json, {
      openapi: {
        security: [],
        request: { params: z.object({ id: z.string() }), body: Body },
        responses: ok,
      },
    })
    expect(of(api, 'shield', { rules: { shield: 'error' } })).toEqual([
      finding(
        'POST',
        '/t/{id}',
        'shield',
        "takes a free-text body and shield does not run; shield at /t/:id{[0-9]+} runs for only part of this route's paths",
        { route: '/t/:id' },
      ),
    ])
  })
})

describe('a route for every method', () => {
  it('reports a rule once, naming the failing methods when not all fail', () => {
    const api = base(['bodyLimit'])
    api.use('*', named('sessions', { cookieAuth: true }))
    api.app.all('/any', hello)
    expect(audit(api, { rules: { undocumented: 'off' } })).toEqual([
      finding(
        'ALL',
        '/any',
        'auth',
        'no security requirement: add an auth middleware; a route the document does not describe cannot be declared public, so document it or exempt it',
      ),
      finding(
        'ALL',
        '/any',
        'csrf',
        'a cookie authenticates this unsafe request (sessions) and csrf does not run (for POST, PUT, PATCH, DELETE)',
      ),
      finding(
        'ALL',
        '/any',
        'body-limit',
        'takes a body and bodyLimit does not run (for POST, PUT, PATCH)',
      ),
    ])
  })
})

describe('routes without metadata, in an app without middleware', () => {
  it('every rule that applies reports, route by route in rule order', () => {
    const api = openapi(new Hono(), { info })
    api.post('/webhooks/bare', json)
    api.get('/x/:id', json)
    api.app.post('/raw/webhooks', hello)
    const documented = 'add an auth middleware, or declare the route public with `security: []`'
    const raw =
      'add an auth middleware; a route the document does not describe cannot be declared public, so document it or exempt it'
    const hook =
      'receives webhooks (a webhook path segment) and no signature check runs: add webhook() (or httpSignature()) of @palisade/middleware, or declare `openapi: { webhookReceiver: false }` if it is not one'
    const responses = 'no success (2xx) response declares a schema'
    expect(audit(api)).toEqual([
      finding('POST', '/webhooks/bare', 'auth', `no security requirement: ${documented}`),
      finding('POST', '/webhooks/bare', 'webhook-signature', hook),
      finding('POST', '/webhooks/bare', 'rate-limit', 'rateLimit does not run'),
      finding('POST', '/webhooks/bare', 'body-limit', 'takes a body and bodyLimit does not run'),
      finding(
        'POST',
        '/webhooks/bare',
        'validation',
        'takes a body that no `request.body` or `request.form` schema declares',
      ),
      finding('POST', '/webhooks/bare', 'responses', responses),
      finding('POST', '/webhooks/bare', 'headers', 'securityHeaders does not run'),
      finding('GET', '/x/{id}', 'auth', `no security requirement: ${documented}`, {
        route: '/x/:id',
      }),
      finding('GET', '/x/{id}', 'rate-limit', 'rateLimit does not run', { route: '/x/:id' }),
      finding(
        'GET',
        '/x/{id}',
        'validation',
        'path parameters id have no `request.params` schema',
        {
          route: '/x/:id',
        },
      ),
      finding('GET', '/x/{id}', 'responses', responses, { route: '/x/:id' }),
      finding('GET', '/x/{id}', 'headers', 'securityHeaders does not run', { route: '/x/:id' }),
      finding(
        'POST',
        '/raw/webhooks',
        'undocumented',
        'not in the document: registered on the Hono app past the wrapper (api.app.get, route, basePath, on, …); register it through the wrapper with `openapi` metadata, or exempt it',
      ),
      finding('POST', '/raw/webhooks', 'auth', `no security requirement: ${raw}`),
      finding('POST', '/raw/webhooks', 'webhook-signature', hook),
      finding('POST', '/raw/webhooks', 'rate-limit', 'rateLimit does not run'),
      finding('POST', '/raw/webhooks', 'body-limit', 'takes a body and bodyLimit does not run'),
      finding('POST', '/raw/webhooks', 'headers', 'securityHeaders does not run'),
    ])
    const shield = 'takes a free-text body and shield does not run'
    expect(of(api, 'shield', { rules: { shield: 'error' } })).toEqual([
      finding('POST', '/webhooks/bare', 'shield', shield),
      finding('POST', '/raw/webhooks', 'shield', shield),
    ])
  })
})

describe('the policy', () => {
  const faulty = () => base().post('/x', json, { openapi: { responses: ok } })

  it('every rule is an error by default but shield; each level applies as written', () => {
    expect(audit(faulty()).map((f) => [f.rule, f.severity])).toEqual([
      ['auth', 'error'],
      ['validation', 'error'],
    ])
    expect(
      audit(faulty(), { rules: { auth: 'error', validation: 'warn' } }).map((f) => [
        f.rule,
        f.severity,
      ]),
    ).toEqual([
      ['auth', 'error'],
      ['validation', 'warn'],
    ])
    expect(audit(faulty(), { rules: {} })).toHaveLength(2)
    expect(audit(faulty(), { exempt: [] })).toHaveLength(2)
  })

  it('an exemption: any case of the method, `*` or `ALL`, the documented or registered path, never another method', () => {
    const api = base().get('/u/:id', json, { openapi: { responses: ok } })
    const reason = 'the exemption under test'
    const rules = (exempt: AuditPolicy['exempt']) => audit(api, { exempt }).map((f) => f.rule)
    expect(rules([])).toEqual(['auth', 'validation'])
    expect(rules([{ method: 'get', path: '/u/:id', rules: ['auth'], reason }])).toEqual([
      'validation',
    ])
    expect(rules([{ method: 'all', path: '/u/{id}', rules: ['validation'], reason }])).toEqual([
      'auth',
    ])
    expect(rules([{ method: 'ALL', path: '/u/{id}', rules: ['auth'], reason }])).toEqual([
      'validation',
    ])
    expect(rules([{ method: '*', path: '/u/:id', rules: ['validation'], reason }])).toEqual([
      'auth',
    ])
    expect(rules([{ method: 'POST', path: '/u/{id}', rules: ['auth'], reason }])).toEqual([
      'auth',
      'validation',
    ])
    expect(rules([{ method: 'GET', path: '/u', rules: ['auth'], reason }])).toEqual([
      'auth',
      'validation',
    ])
    expect(
      rules([
        { method: 'GET', path: '/u/:id', rules: ['auth'], reason },
        { method: 'GET', path: '/u/{id}', rules: ['validation'], reason },
      ]),
    ).toEqual([])
  })

  const bad: [unknown, string][] = [
    [null, 'audit: policy must be an object'],
    ['strict', 'audit: policy must be an object'],
    [{ rule: {} }, 'audit: unknown policy key "rule" (rules, exempt)'],
    [{ rules: 'strict' }, 'audit: policy.rules must be an object by rule name'],
    [{ rules: ['auth'] }, 'audit: policy.rules must be an object by rule name'],
    [{ rules: { authz: 'error' } }, `audit: unknown rule "authz" (${AUDIT_RULES.join(', ')})`],
    [{ rules: { auth: 'fatal' } }, "audit: policy.rules.auth must be 'error', 'warn' or 'off'"],
    [{ exempt: {} }, 'audit: policy.exempt must be an array'],
    [{ exempt: [null] }, 'audit: policy.exempt[0] must be { method, path, rules, reason }'],
    [
      { exempt: [{ method: 'GET', path: '/x', rules: ['auth'], reason: 'r' }, 'GET /x'] },
      'audit: policy.exempt[1] must be { method, path, rules, reason }',
    ],
    [
      { exempt: [{ method: '', path: '/x', rules: ['auth'], reason: 'r' }] },
      "audit: policy.exempt[0].method must be an HTTP method or '*'",
    ],
    [
      { exempt: [{ method: 1, path: '/x', rules: ['auth'], reason: 'r' }] },
      "audit: policy.exempt[0].method must be an HTTP method or '*'",
    ],
    [
      { exempt: [{ method: 'GET', path: 'x', rules: ['auth'], reason: 'r' }] },
      'audit: policy.exempt[0].path must be a path starting with /',
    ],
    [
      { exempt: [{ method: 'GET', path: ['/x'], rules: ['auth'], reason: 'r' }] },
      'audit: policy.exempt[0].path must be a path starting with /',
    ],
    [
      { exempt: [{ method: 'GET', path: '/x', rules: 'auth', reason: 'r' }] },
      `audit: policy.exempt[0].rules must list rules from ${AUDIT_RULES.join(', ')}`,
    ],
    [
      { exempt: [{ method: 'GET', path: '/x', rules: [], reason: 'r' }] },
      `audit: policy.exempt[0].rules must list rules from ${AUDIT_RULES.join(', ')}`,
    ],
    [
      { exempt: [{ method: 'GET', path: '/x', rules: ['auth', 'authz'], reason: 'r' }] },
      `audit: policy.exempt[0].rules must list rules from ${AUDIT_RULES.join(', ')}`,
    ],
    [
      { exempt: [{ method: 'GET', path: '/x', rules: ['auth'], reason: 7 }] },
      'audit: policy.exempt[0].reason is required: say why the route is exempt',
    ],
    [
      { exempt: [{ method: 'GET', path: '/x', rules: ['auth'], reason: ' \n' }] },
      'audit: policy.exempt[0].reason is required: say why the route is exempt',
    ],
  ]
  it.each(bad)('refuses the policy %j', (policy, message) => {
    expect(thrown(() => audit(faulty(), policy as never))).toEqual([TypeError, message])
  })

  it('accepts a policy whose rules or exempt are left out or undefined', () => {
    for (const policy of [{}, { rules: undefined }, { exempt: undefined }, undefined]) {
      expect(audit(faulty(), policy as AuditPolicy)).toHaveLength(2)
    }
  })
})

describe('sunset', () => {
  // 2027-12-01T00:00:00.750Z: the sunset counts from its whole second, as the header carries it.
  const SUNSET = Date.parse('2027-12-01T00:00:00Z')
  const DAY = 86_400_000
  const when = '2027-12-01T00:00:00.000Z'
  function app() {
    const api = base()
    api.get('/old', json, {
      openapi: { security: [], responses: ok, deprecated: { sunset: new Date(SUNSET + 750) } },
    })
    api.get('/deprecated', json, { openapi: { security: [], responses: ok, deprecated: true } })
    api.get('/since', json, {
      openapi: { security: [], responses: ok, deprecated: { since: new Date(0) } },
    })
    api.app.get('/raw', hello)
    return api
  }
  const at = (now: number, policy: AuditPolicy = {}) =>
    audit(
      app(),
      { ...policy, rules: { undocumented: 'off', auth: 'off', ...policy.rules } },
      { now: () => now },
    )
  const warn = (days: number) =>
    finding(
      'GET',
      '/old',
      'sunset',
      `its sunset (${when}) is ${days} day(s) away: check who still calls it (the deprecation decisions in logs and otel)`,
      { severity: 'warn' },
    )
  const past = finding(
    'GET',
    '/old',
    'sunset',
    `past its sunset (${when}): remove the operation (under sunsetMode 'enforce' it answers 410 gone), or move the sunset`,
  )

  it('nothing before the warning window', () => {
    expect(SUNSET_WARNING_DAYS).toBe(30)
    expect(at(SUNSET - 30 * DAY - 1)).toEqual([])
    expect(at(SUNSET - 365 * DAY)).toEqual([])
  })

  it('a warning from 30 days before, counting days rounded up', () => {
    expect(at(SUNSET - 30 * DAY)).toEqual([warn(30)])
    expect(at(SUNSET - 29.4 * DAY)).toEqual([warn(30)])
    expect(at(SUNSET - 29 * DAY)).toEqual([warn(29)])
    expect(at(SUNSET - 1.5 * DAY)).toEqual([warn(2)])
    expect(at(SUNSET - 1)).toEqual([warn(1)])
  })

  it('an error from the sunset second on, a warning when the rule is set to warn', () => {
    expect(at(SUNSET)).toEqual([past])
    expect(at(SUNSET + 1)).toEqual([past])
    expect(at(SUNSET + 400 * DAY)).toEqual([past])
    expect(at(SUNSET, { rules: { sunset: 'warn' } })).toEqual([{ ...past, severity: 'warn' }])
    expect(at(SUNSET - DAY, { rules: { sunset: 'error' } })).toEqual([warn(1)])
    expect(at(SUNSET, { rules: { sunset: 'off' } })).toEqual([])
  })

  it('reads the real clock by default', () => {
    const api = base()
    api.get('/gone', json, {
      openapi: {
        security: [],
        responses: ok,
        deprecated: { sunset: new Date('2000-01-01T00:00:00Z') },
      },
    })
    api.get('/future', json, {
      openapi: {
        security: [],
        responses: ok,
        deprecated: { sunset: new Date('9999-01-01T00:00:00Z') },
      },
    })
    const gone = [
      finding(
        'GET',
        '/gone',
        'sunset',
        "past its sunset (2000-01-01T00:00:00.000Z): remove the operation (under sunsetMode 'enforce' it answers 410 gone), or move the sunset",
      ),
    ]
    expect(audit(api)).toEqual(gone)
    expect(audit(api, {}, {})).toEqual(gone)
    expect(audit(api, {}, { now: undefined })).toEqual(gone)
    expect(audit(api, {}, { now: () => Date.parse('1990-01-01T00:00:00Z') })).toEqual([])
  })

  it('refuses options that are not { now }', () => {
    const options = 'audit: options must be { now?: () => number }'
    for (const bad of [null, 5, 'now', { now: () => 0, later: 1 }, { later: 1 }]) {
      expect(thrown(() => audit(app(), {}, bad as never))).toEqual([TypeError, options])
    }
    expect(thrown(() => audit(app(), {}, { now: 5 } as never))).toEqual([
      TypeError,
      'audit: options.now must be a function returning milliseconds (like Date.now)',
    ])
  })
})

describe('what cannot be read', () => {
  it('refuses to run with the borrowed internals switched off, naming itself', () => {
    const api = base()
    api.get('/a', json, { openapi: { security: [], responses: ok } })
    const flag = globalThis as { __PALISADE_NO_INTERNALS__?: unknown }
    flag.__PALISADE_NO_INTERNALS__ = true
    try {
      expect(thrown(() => audit(api))).toEqual([
        TypeError,
        "audit: reads Hono's router as Hono runs it (the handler route() wraps a sub-app's routes in, the handler mount() registers, the app's error handler), which globalThis.__PALISADE_NO_INTERNALS__ switches off; run it without the switch",
      ])
    } finally {
      delete flag.__PALISADE_NO_INTERNALS__
    }
    expect(audit(api)).toEqual([])
  })

  it('refuses an app whose routes cannot be read, with the reason', () => {
    const api = base()
    Object.defineProperty(api.app, 'routes', { value: 'not an array' })
    expect(thrown(() => audit(api))).toEqual([
      TypeError,
      "audit: cannot read the Hono app's routes (app.routes), so no route can be audited; is this a Hono version @palisade/openapi supports?",
    ])
  })
})
