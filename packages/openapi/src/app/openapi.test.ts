// Over 300 lines: the wrapper's behaviour through app.request(), one suite per part of its API
// (routing parity, route options, groups, the spec endpoint, errors, options) on shared fixtures.
import { Hono, type MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { expectValidOpenAPI } from '../../../../tests/openapi/validate'
import { openapi } from './openapi'

const info = { title: 'Test API', version: '1.0.0' }

/** Appends its name to `x-trace`, so tests can see which middleware ran, in what order. */
const tracer =
  (name: string): MiddlewareHandler =>
  async (c, next) => {
    c.header('x-trace', [c.res.headers.get('x-trace'), `${name}:in`].filter(Boolean).join(','))
    await next()
  }

const stop: MiddlewareHandler = async (c) => c.text('stopped', 403)

describe('routing parity with plain Hono', () => {
  // The same app twice: once on Hono directly, once through the wrapper.
  const plain = new Hono()
  plain.use(tracer('global'))
  plain.get('/', (c) => c.text('home'))
  plain.get('/users/:id', (c) => c.json({ id: c.req.param('id') }))
  plain.get('/posts/:id{[0-9]+}', (c) => c.text(`post ${c.req.param('id')}`))
  plain.get('/opt/:a?', (c) => c.json(c.req.param()))
  plain.post('/users', tracer('a'), tracer('b'), async (c) => c.json(await c.req.json(), 201))
  plain.put('/items/:id', (c) => c.text(`put ${c.req.param('id')}`))
  plain.patch('/items/:id', (c) => c.text(`patch ${c.req.param('id')}`))
  plain.delete('/items/:id', (c) => c.body(null, 204))
  plain.all('/echo', (c) => c.text(c.req.method))
  plain.get('/guarded', stop, (c) => c.text('never'))
  plain.get('/static/*', (c) => c.text(`static ${c.req.path}`))
  plain.get('/boom', () => {
    throw new Error('boom')
  })
  plain.get('/teapot', () => {
    throw new HTTPException(418, { message: 'short and stout' })
  })
  const sub = new Hono()
  sub.use(tracer('api'))
  sub.get('/things', (c) => c.text('things'))
  sub.get('/', (c) => c.text('api root'))
  plain.route('/api', sub)
  plain.onError((err, c) =>
    err instanceof HTTPException ? err.getResponse() : c.json({ error: err.message }, 500),
  )
  plain.notFound((c) => c.json({ error: 'not here' }, 404))

  const api = openapi(new Hono(), { info })
  api.use(tracer('global'))
  api.get('/', (c) => c.text('home'))
  api.get('/users/:id', (c) => c.json({ id: c.req.param('id') }))
  api.get('/posts/:id{[0-9]+}', (c) => c.text(`post ${c.req.param('id')}`))
  api.get('/opt/:a?', (c) => c.json(c.req.param()))
  api.post('/users', async (c) => c.json(await c.req.json(), 201), [tracer('a'), tracer('b')])
  api.put('/items/:id', (c) => c.text(`put ${c.req.param('id')}`))
  api.patch('/items/:id', (c) => c.text(`patch ${c.req.param('id')}`))
  api.delete('/items/:id', (c) => c.body(null, 204))
  api.all('/echo', (c) => c.text(c.req.method))
  api.get('/guarded', (c) => c.text('never'), { middlewares: [stop] })
  api.get('/static/*', (c) => c.text(`static ${c.req.path}`))
  api.get('/boom', () => {
    throw new Error('boom')
  })
  api.get('/teapot', () => {
    throw new HTTPException(418, { message: 'short and stout' })
  })
  api.group('/api', (g) => {
    g.use(tracer('api'))
    g.get('/things', (c) => c.text('things'))
    g.get('/', (c) => c.text('api root'))
  })
  api.onError((err, c) =>
    err instanceof HTTPException ? err.getResponse() : c.json({ error: err.message }, 500),
  )
  api.notFound((c) => c.json({ error: 'not here' }, 404))

  const json = { 'content-type': 'application/json' }
  it.each([
    ['GET', '/', undefined],
    ['GET', '/users/42', undefined],
    ['GET', '/users/a%20b', undefined],
    ['GET', '/users/', undefined],
    ['GET', '/posts/7', undefined],
    ['GET', '/posts/x', undefined],
    ['GET', '/opt', undefined],
    ['GET', '/opt/1', undefined],
    ['POST', '/users', { headers: json, body: '{"name":"Ada"}' }],
    ['GET', '/users', undefined],
    ['PUT', '/items/3', undefined],
    ['PATCH', '/items/3', undefined],
    ['DELETE', '/items/3', undefined],
    ['OPTIONS', '/echo', undefined],
    ['POST', '/echo', undefined],
    ['GET', '/guarded', undefined],
    ['GET', '/static/a/b.css', undefined],
    ['GET', '/boom', undefined],
    ['GET', '/teapot', undefined],
    ['GET', '/api/things', undefined],
    ['GET', '/api', undefined],
    ['GET', '/api/api/things', undefined],
    ['HEAD', '/users/1', undefined],
    ['GET', '/nope', undefined],
    ['POST', '/items/3', undefined],
  ] as const)('%s %s answers exactly as plain Hono', async (method, path, init) => {
    const [a, b] = await Promise.all([
      plain.request(path, { method, ...init }),
      api.request(path, { method, ...init }),
    ])
    expect({
      status: b.status,
      headers: Object.fromEntries(b.headers),
      body: await b.text(),
    }).toEqual({
      status: a.status,
      headers: Object.fromEntries(a.headers),
      body: await a.text(),
    })
  })

  it('documents the parity app as a valid document', async () => {
    const doc = api.spec()
    expect(Object.keys(doc.paths)).toEqual([
      '/',
      '/users/{id}',
      '/posts/{id}',
      '/opt',
      '/opt/{a}',
      '/users',
      '/items/{id}',
      '/echo',
      '/guarded',
      '/boom',
      '/teapot',
      '/api/things',
      '/api',
    ])
    await expectValidOpenAPI(doc)
  })

  it('runs route-scoped middleware before the handler, in order', async () => {
    const res = await api.request('/users', { method: 'POST', headers: json, body: '{}' })
    expect(res.headers.get('x-trace')).toBe('global:in,a:in,b:in')
  })
})

describe('route options', () => {
  it('treats a middleware array as { middlewares }', async () => {
    const seen: string[] = []
    const mw =
      (n: string): MiddlewareHandler =>
      async (_c, next) => {
        seen.push(n)
        await next()
      }
    const api = openapi(new Hono(), { info })
    api.get('/a', (c) => c.text(seen.push('handler') ? 'a' : ''), [mw('1'), mw('2')])
    api.get('/b', (c) => c.text(seen.push('handler') ? 'b' : ''), {
      middlewares: [mw('1'), mw('2')],
    })
    await api.request('/a')
    await api.request('/b')
    expect(seen).toEqual(['1', '2', 'handler', '1', '2', 'handler'])
  })

  it.each([
    ['a string', 'x', 'opts must be RouteOptions or an array of middleware'],
    ['an unknown key', { middleware: [] }, 'unknown route option "middleware"'],
    ['a non-function middleware', [1], 'middlewares must be an array of middleware functions'],
    ['middlewares that are not an array', { middlewares: stop }, 'middlewares must be an array'],
  ])('rejects %s with a TypeError naming the route', (_label, opts, message) => {
    const api = openapi(new Hono(), { info })
    expect(() => api.get('/x', (c) => c.text('x'), opts as never)).toThrow(TypeError)
    expect(() => api.get('/x', (c) => c.text('x'), opts as never)).toThrow(
      `openapi: GET /x: ${message}`,
    )
  })

  it('rejects a missing handler and a non-string path', () => {
    const api = openapi(new Hono(), { info })
    expect(() => api.get('/x', undefined as never)).toThrow(
      'openapi: GET /x: handler must be a function',
    )
    expect(() => api.get(1 as never, (c) => c.text('x'))).toThrow(
      'openapi: get() path must be a string',
    )
  })
})

describe('groups', () => {
  it('applies the prefix once, to serving and to the document', async () => {
    const api = openapi(new Hono(), { info })
    api.group('/api', (g) => {
      g.get('/users', (c) => c.text('users'), { openapi: { operationId: 'listUsers' } })
      g.group('/v2', (g2) => {
        expect(g2.prefix).toBe('/api/v2')
        g2.get('/users/:id', (c) => c.text(c.req.param('id')))
      })
    })
    expect(api.routes.map((r) => r.path)).toEqual(['/api/users', '/api/v2/users/:id'])
    expect(Object.keys(api.spec().paths)).toEqual(['/api/users', '/api/v2/users/{id}'])
    expect((await api.request('/api/users')).status).toBe(200)
    expect(await (await api.request('/api/v2/users/9')).text()).toBe('9')
    expect((await api.request('/api/api/users')).status).toBe(404)
    await expectValidOpenAPI(api.spec())
  })

  it('scopes group middleware to the group', async () => {
    const api = openapi(new Hono(), { info })
    api.group('/admin', (g) => {
      g.use(stop)
      g.get('/panel', (c) => c.text('panel'))
    })
    api.get('/public', (c) => c.text('public'))
    expect((await api.request('/admin/panel')).status).toBe(403)
    expect((await api.request('/public')).status).toBe(200)
  })

  it('supports use(path, middleware) inside a group, relative to the prefix', async () => {
    const api = openapi(new Hono(), { info })
    api.group('/g', (g) => {
      g.use('/locked/*', stop)
      g.get('/locked/x', (c) => c.text('x'))
      g.get('/open', (c) => c.text('open'))
    })
    expect((await api.request('/g/locked/x')).status).toBe(403)
    expect((await api.request('/g/open')).status).toBe(200)
  })

  it('types path parameters from the group prefix and the route path', () => {
    const api = openapi(new Hono(), { info })
    api.group('/orgs/:org', (g) => {
      g.get('/repos/:repo', (c) => {
        expectTypeOf(c.req.param('org')).toEqualTypeOf<string>()
        expectTypeOf(c.req.param('repo')).toEqualTypeOf<string>()
        return c.text('ok')
      })
    })
    expect(api.routes[0]?.path).toBe('/orgs/:org/repos/:repo')
  })
})

describe('the spec endpoint and caching', () => {
  const build = () => {
    const api = openapi(new Hono(), { info, servers: [{ url: 'https://api.example.com' }] })
    api.get('/users/:id', (c) => c.json({ id: c.req.param('id') }), {
      openapi: {
        operationId: 'getUser',
        responses: { 200: { description: 'A user', schema: z.object({ id: z.string() }) } },
      },
    })
    return api
  }

  it('serves the document as application/json', async () => {
    const api = build()
    const res = await api.request('/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = await res.json()
    expect(body).toEqual(api.spec())
    expect(body.openapi).toBe('3.1.0')
    expect(Object.keys(body.paths)).toEqual(['/users/{id}'])
    await expectValidOpenAPI(body)
  })

  it('generates the document once and serves the cached one', async () => {
    const api = build()
    const first = api.spec()
    for (let i = 0; i < 3; i++) await api.request('/openapi.json')
    expect(api.spec()).toBe(first)
    expect(api.getSpec()).toBe(first)
  })

  it('regenerates after a route is added', async () => {
    const api = build()
    const first = api.spec()
    api.delete('/users/:id', (c) => c.body(null, 204), { openapi: { operationId: 'deleteUser' } })
    const second = api.spec()
    expect(second).not.toBe(first)
    expect(Object.keys(second.paths['/users/{id}'] ?? {})).toEqual(['get', 'delete'])
    await expectValidOpenAPI(second)
    expect(
      (await (await api.request('/openapi.json')).json()).paths['/users/{id}'].delete.operationId,
    ).toBe('deleteUser')
  })

  it('serves the docs pages as HTML and leaves them and the spec out of the document', async () => {
    const api = build()
    for (const path of ['/explorer', '/reference']) {
      const res = await api.request(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    }
    expect(Object.keys(api.spec().paths)).toEqual(['/users/{id}'])
    await expectValidOpenAPI(api.spec())
  })

  it('honours custom endpoint paths', async () => {
    const api = openapi(new Hono(), {
      info,
      specPath: '/docs/spec.json',
      explorerPath: '/docs',
      referencePath: '/docs/ref',
    })
    expect((await api.request('/docs/spec.json')).status).toBe(200)
    expect((await api.request('/docs')).status).toBe(200)
    expect((await api.request('/docs/ref')).status).toBe(200)
    expect((await api.request('/openapi.json')).status).toBe(404)
  })

  it("documents and serves under the Hono app's base path", async () => {
    const api = openapi(new Hono().basePath('/v1'), { info })
    api.get('/users', (c) => c.text('users'))
    expect(Object.keys(api.spec().paths)).toEqual(['/v1/users'])
    await expectValidOpenAPI(api.spec())
    expect((await api.request('/v1/users')).status).toBe(200)
    expect((await api.request('/v1/openapi.json')).status).toBe(200)
  })
})

describe('registration errors', () => {
  it('rejects a duplicate operationId at registration, before the route is served', async () => {
    const api = openapi(new Hono(), { info })
    api.get('/a', (c) => c.text('a'), { openapi: { operationId: 'dup' } })
    expect(() => api.get('/b', (c) => c.text('b'), { openapi: { operationId: 'dup' } })).toThrow(
      'openapi: GET /b: operationId "dup" is already used by GET /a',
    )
    expect((await api.request('/b')).status).toBe(404)
    expect(api.routes.map((r) => r.path)).toEqual(['/a'])
  })

  it('records nothing when Hono itself refuses the route', async () => {
    const api = openapi(new Hono(), { info })
    api.get('/a', (c) => c.text('a'))
    const before = api.spec()
    await api.request('/a') // builds Hono's router; later additions are refused by Hono
    expect(() => api.get('/b', (c) => c.text('b'), { openapi: { operationId: 'b' } })).toThrow()
    expect(api.routes.map((r) => r.path)).toEqual(['/a'])
    expect(api.spec()).toBe(before)
  })

  it('rejects an undocumentable schema at registration', () => {
    const api = openapi(new Hono(), { info })
    expect(() =>
      api.get('/q', (c) => c.text('q'), { openapi: { request: { query: z.string() } } }),
    ).toThrow('request.query must be an object schema')
    expect(api.routes).toEqual([])
  })

  it('rejects a wildcard route with metadata but serves one without', async () => {
    const api = openapi(new Hono(), { info })
    expect(() =>
      api.get('/files/*', (c) => c.text('f'), { openapi: { summary: 'Files' } }),
    ).toThrow(/wildcard/)
    api.get('/assets/*', (c) => c.text('asset'))
    expect((await api.request('/assets/x.js')).status).toBe(200)
    expect(api.spec().paths).toEqual({})
    await expectValidOpenAPI(api.spec())
  })
})

describe('openapi() options', () => {
  it.each([
    ['no options', undefined, 'openapi: options must be an object'],
    ['no info', {}, 'openapi: info must be an object'],
    [
      'an empty title',
      { info: { title: '', version: '1' } },
      'openapi: info.title must be a non-empty string',
    ],
    ['no version', { info: { title: 't' } }, 'openapi: info.version must be a non-empty string'],
    ['an unknown option', { info, docPath: '/d' }, 'openapi: unknown option "docPath"'],
    ['an unknown info field', { info: { ...info, tos: 'x' } }, 'openapi: unknown info field "tos"'],
    [
      'servers that are not an array',
      { info, servers: { url: '/' } },
      'openapi: servers must be an array',
    ],
    [
      'a server without url',
      { info, servers: [{}] },
      'openapi: servers[0].url must be a non-empty string',
    ],
    [
      'a relative specPath',
      { info, specPath: 'openapi.json' },
      'openapi: specPath must be a plain path',
    ],
    [
      'a wildcard explorerPath',
      { info, explorerPath: '/docs/*' },
      'openapi: explorerPath must be a plain path',
    ],
    [
      'equal paths',
      { info, explorerPath: '/openapi.json' },
      'openapi: specPath, explorerPath and referencePath must differ',
    ],
  ])('rejects %s with a TypeError', (_label, options, message) => {
    expect(() => openapi(new Hono(), options as never)).toThrow(TypeError)
    expect(() => openapi(new Hono(), options as never)).toThrow(message)
  })

  it('rejects something that is not a Hono app', () => {
    expect(() => openapi({} as never, { info })).toThrow(
      'openapi: the first argument must be a Hono app',
    )
  })
})

describe('the wrapper object', () => {
  it('is servable as is: fetch works unbound, as `export default api` uses it', async () => {
    const api = openapi(new Hono(), { info })
    api.get('/hi', (c) => c.text('hi'))
    const { fetch } = api
    const res = await fetch(new Request('http://localhost/hi'))
    expect(await res.text()).toBe('hi')
  })

  it('exposes the Hono app; routes added there directly are served but not documented', async () => {
    const app = new Hono()
    const api = openapi(app, { info })
    expect(api.app).toBe(app)
    api.app.get('/internal', (c) => c.text('internal'))
    expect((await api.request('/internal')).status).toBe(200)
    expect(api.spec().paths).toEqual({})
  })

  it('returns itself from every registration method, for chaining', () => {
    const api = openapi(new Hono(), { info })
    const same = api
      .get('/a', (c) => c.text('a'))
      .post('/a', (c) => c.text('a'))
      .use(tracer('x'))
      .group('/g', () => {})
      .onError((_e, c) => c.text('err', 500))
      .notFound((c) => c.text('nf', 404))
    expect(same).toBe(api)
  })

  it('records routes with their method, served path and metadata', () => {
    const api = openapi(new Hono(), { info })
    const meta = { summary: 'S' }
    api.all('/any', (c) => c.text('any'), { openapi: meta })
    expect(api.routes).toEqual([{ method: 'all', path: '/any', openapi: meta }])
  })

  it('types handler parameters from the path', () => {
    const api = openapi(new Hono(), { info })
    api.get('/users/:id', (c) => {
      expectTypeOf(c.req.param('id')).toEqualTypeOf<string>()
      return c.text('ok')
    })
  })
})
