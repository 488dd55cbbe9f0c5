import { serve } from '@hono/node-server'
import { Hono, type MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { EXPLORER_CSP } from '../pages'
import { openapi } from './openapi'

const info = { title: 'Guarded API', version: '1.0.0' }
const DOCS = ['/openapi.json', '/explorer', '/reference'] as const
const DOCS_PATTERNS = ['/openapi.json', '/explorer/*', '/reference/*'] as const

/** Lets a request through only with `x-key: k`; counts how often it ran. */
function keyGuard() {
  const guard = Object.assign(
    (async (c, next) => {
      guard.calls++
      if (c.req.header('x-key') !== 'k') return c.text('no key', 401)
      await next()
    }) as MiddlewareHandler,
    { calls: 0 },
  )
  return guard
}

const withKey = { headers: { 'x-key': 'k' } }
type Fetch = (req: Request) => Response | Promise<Response>
const get = (fetch: Fetch, path: string, init?: RequestInit) =>
  fetch(new Request(`http://docs.test${path}`, init))

/** The same-origin files a served page loads (scripts, styles, icon), as absolute paths. */
const pageURLs = (html: string) =>
  [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string)

/** The spec URL a served page hands to its init script. */
const pageSpecURL = (html: string) =>
  JSON.parse(/type="application\/json">([^<]*)</.exec(html)?.[1] ?? '{}').specURL as string

describe('guards added with api.use() after openapi()', () => {
  it.each(DOCS)('protect %s', async (path) => {
    const api = openapi(new Hono(), { info })
    const guard = keyGuard()
    for (const p of DOCS_PATTERNS) api.use(p, guard)
    expect((await api.request(path)).status).toBe(401)
    expect((await api.request(path, withKey)).status).toBe(200)
  })

  it('protect the viewer files the pages load', async () => {
    const api = openapi(new Hono(), { info })
    for (const p of DOCS_PATTERNS) api.use(p, keyGuard())
    for (const page of ['/explorer', '/reference']) {
      const urls = pageURLs(await (await api.request(page, withKey)).text())
      expect(urls.length).toBeGreaterThan(2)
      for (const url of urls) {
        expect((await api.request(url)).status, url).toBe(401)
        expect((await api.request(url, withKey)).status, url).toBe(200)
      }
    }
  })

  it('protect the docs when global (api.use(guard)), like every other route', async () => {
    const api = openapi(new Hono(), { info })
    api.use(keyGuard())
    api.get('/users', (c) => c.text('users'))
    for (const path of [...DOCS, '/users']) {
      expect((await api.request(path)).status, path).toBe(401)
      expect((await api.request(path, withKey)).status, path).toBe(200)
    }
  })

  it('only reach the docs endpoints their path matches', async () => {
    const api = openapi(new Hono(), { info })
    api.use('/explorer/*', keyGuard())
    api.use('/api/*', keyGuard())
    expect((await api.request('/explorer')).status).toBe(401)
    expect((await api.request('/reference')).status).toBe(200)
    expect((await api.request('/openapi.json')).status).toBe(200)
  })

  it('apply under the app base path and custom docs paths', async () => {
    const api = openapi(new Hono().basePath('/v1'), {
      info,
      specPath: '/docs/spec.json',
      explorerPath: '/docs',
      referencePath: '/docs/ref',
    })
    api.use('/docs/*', keyGuard())
    for (const path of ['/v1/docs/spec.json', '/v1/docs', '/v1/docs/ref']) {
      expect((await api.request(path)).status, path).toBe(401)
      expect((await api.request(path, withKey)).status, path).toBe(200)
    }
  })

  it('apply from inside a group whose prefix covers the docs', async () => {
    const api = openapi(new Hono(), { info, explorerPath: '/internal/explorer' })
    api.group('/internal', (g) => g.use(keyGuard()))
    expect((await api.request('/internal/explorer')).status).toBe(401)
    expect((await api.request('/reference')).status).toBe(200)
  })

  it('run once per docs request, in registration order, around the docs response', async () => {
    const api = openapi(new Hono(), { info })
    const order: string[] = []
    const mw =
      (name: string): MiddlewareHandler =>
      async (c, next) => {
        order.push(`${name}:in`)
        await next()
        order.push(`${name}:out`)
        c.header(`x-${name}`, String(c.res.status))
      }
    api.use(mw('a'))
    api.use('/explorer', mw('b'))
    const res = await api.request('/explorer')
    expect(res.status).toBe(200)
    expect(order).toEqual(['a:in', 'b:in', 'b:out', 'a:out'])
    expect(res.headers.get('x-a')).toBe('200')
    expect(res.headers.get('x-b')).toBe('200')
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
  })

  it("hand an HTTPException to the app's onError, as Hono does", async () => {
    const api = openapi(new Hono(), { info })
    api.onError((err, c) =>
      err instanceof HTTPException
        ? c.text(`handled ${err.message}`, err.status)
        : c.text('?', 500),
    )
    api.use('/openapi.json', async () => {
      throw new HTTPException(403, { message: 'forbidden' })
    })
    const res = await api.request('/openapi.json')
    expect(res.status).toBe(403)
    expect(await res.text()).toBe('handled forbidden')
  })

  it('reach the docs however the app is served', async () => {
    const app = new Hono()
    const api = openapi(app, { info })
    for (const p of DOCS_PATTERNS) api.use(p, keyGuard())
    const parent = new Hono().route('/', api.app)
    const { fetch } = api // `export default api` and `serve({ fetch: api.fetch })` call it unbound
    const ways: [string, Fetch][] = [
      ['api.fetch unbound', fetch],
      ['api.request', (req) => api.request(req)],
      ['api.app.fetch', (req) => api.app.fetch(req)],
      ['the Hono app passed to openapi()', (req) => app.fetch(req)],
      ["a parent app's route('/', api.app)", (req) => parent.fetch(req)],
    ]
    for (const [way, f] of ways) {
      for (const path of DOCS) {
        expect((await get(f, path)).status, `${way} ${path}`).toBe(401)
        expect((await get(f, path, withKey)).status, `${way} ${path}`).toBe(200)
      }
    }
  })

  it('reach the docs through a real server started with serve(api)', async () => {
    const api = openapi(new Hono(), { info })
    api.use(keyGuard())
    const server = serve({ ...api, hostname: '127.0.0.1', port: 0 })
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const { port } = server.address() as { port: number }
      for (const path of DOCS) {
        expect((await fetch(`http://127.0.0.1:${port}${path}`)).status, path).toBe(401)
      }
      expect((await fetch(`http://127.0.0.1:${port}/explorer`, withKey)).status).toBe(200)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('guards registered on the Hono app before openapi()', () => {
  it('still protect the docs, and run once per request', async () => {
    const app = new Hono()
    const guard = keyGuard()
    for (const p of DOCS_PATTERNS) app.use(p, guard)
    const api = openapi(app, { info })
    for (const path of DOCS) {
      guard.calls = 0
      expect((await api.request(path)).status, path).toBe(401)
      expect((await api.request(path, withKey)).status, path).toBe(200)
      expect(guard.calls, path).toBe(2)
    }
  })

  it('run before guards added later through api.use()', async () => {
    const app = new Hono()
    const order: string[] = []
    app.use(async (_c, next) => {
      order.push('before')
      await next()
    })
    const api = openapi(app, { info })
    api.use(async (_c, next) => {
      order.push('after')
      await next()
    })
    expect((await api.request('/openapi.json')).status).toBe(200)
    expect(order).toEqual(['before', 'after'])
  })
})

describe('mounted with app.route(prefix, api.app)', () => {
  const mounted = () => {
    const api = openapi(new Hono(), { info })
    api.get('/users', (c) => c.text('users'))
    return { api, root: new Hono().route('/docs', api.app) }
  }

  it.each(['/docs/explorer', '/docs/reference'])(
    '%s points at the document and viewer files as served under the prefix',
    async (page) => {
      const { root } = mounted()
      const res = await root.request(page)
      expect(res.status).toBe(200)
      const html = await res.text()
      expect(pageSpecURL(html)).toBe('/docs/openapi.json')
      const urls = pageURLs(html)
      expect(urls.length).toBeGreaterThan(2)
      for (const url of urls) {
        expect(url).toMatch(/^\/docs\//)
        expect((await root.request(url)).status, url).toBe(200)
      }
    },
  )

  it('serves a document whose server is the prefix, so its paths resolve', async () => {
    const { api, root } = mounted()
    const doc = await (await root.request('/docs/openapi.json')).json()
    expect(doc.servers).toEqual([{ url: '/docs' }])
    expect(Object.keys(doc.paths)).toEqual(['/users'])
    expect((await root.request('/docs/users')).status).toBe(200)
    // Served unmounted, the same wrapper documents the default server, `/`.
    expect((await (await api.request('/openapi.json')).json()).servers).toEqual([{ url: '/' }])
    expect(api.spec().servers).toEqual([{ url: '/' }])
  })

  it('keeps configured servers as they are', async () => {
    const api = openapi(new Hono(), { info, servers: [{ url: 'https://api.example.com/docs' }] })
    const root = new Hono().route('/docs', api.app)
    const doc = await (await root.request('/docs/openapi.json')).json()
    expect(doc.servers).toEqual([{ url: 'https://api.example.com/docs' }])
  })

  it('works with docs at the root of the mounted app and a base path below the mount', async () => {
    const api = openapi(new Hono().basePath('/v1'), {
      info,
      explorerPath: '/',
      referencePath: '/ref',
    })
    const root = new Hono().basePath('/svc').route('/m', api.app)
    for (const page of ['/svc/m/v1', '/svc/m/v1/ref']) {
      const html = await (await root.request(page)).text()
      expect(pageSpecURL(html), page).toBe('/svc/m/v1/openapi.json')
      for (const url of pageURLs(html)) expect((await root.request(url)).status, url).toBe(200)
    }
    const doc = await (await root.request('/svc/m/v1/openapi.json')).json()
    expect(doc.servers).toEqual([{ url: '/svc/m' }])
  })
})

describe('the explorer CSP and configured servers', () => {
  it('lets "Try it out" reach the origins of absolute servers, and nothing else', async () => {
    const api = openapi(new Hono(), {
      info,
      servers: [
        { url: 'https://api.example.com/v1' },
        { url: '/' },
        { url: 'http://localhost:8787' },
        { url: 'https://api.example.com/v2' },
        { url: 'https://{region}.example.com' },
        { url: 'ftp://files.example.com' },
      ],
    })
    const csp = (await api.request('/explorer')).headers.get('content-security-policy') ?? ''
    expect(csp).toContain("; connect-src 'self' https://api.example.com http://localhost:8787; ")
    expect(csp).toBe(
      EXPLORER_CSP.replace(
        "connect-src 'self'",
        "connect-src 'self' https://api.example.com http://localhost:8787",
      ),
    )
  })

  it('keeps connect-src to the app itself without absolute servers', async () => {
    const api = openapi(new Hono(), { info, servers: [{ url: '/api' }] })
    expect((await api.request('/explorer')).headers.get('content-security-policy')).toBe(
      EXPLORER_CSP,
    )
  })
})
