/**
 * One HTTP server per child process: `node --import tsx servers/serve.ts <kind>`. It listens on
 * an ephemeral loopback port, prepares whatever credentials its stack needs (session cookie, CSRF
 * cookie) by calling its own /setup route, and tells the parent (IPC message, or a JSON line on
 * stdout when run by hand) `{ "port": …, "headers": { … } }`: the headers every load request must
 * carry.
 *
 * Every app serves GET /api/me behind the same six concerns: security headers, CORS, a rate
 * limit high enough never to trip (it still counts every request), a session loaded from memory
 * through a signed cookie, CSRF protection (a GET passes it) and HS256 JWT verification.
 */
import type { AddressInfo } from 'node:net'
import { PerformanceObserver } from 'node:perf_hooks'
import type { Handler, Hono } from 'hono'
import { CSRF_TOKEN, fixtures, JWT_SECRET_TEXT, ORIGIN, SESSION_SECRET } from '../lib/fixtures'
import { floorHandler, HIGH_LIMIT } from '../lib/floor'

const kind = process.argv[2] ?? ''

// The Express packages ship no types (and @types/* are not installed): the two handlers only
// need this much.
interface ExpressReq {
  session: Record<string, unknown>
}
interface ExpressRes {
  json(body: unknown): void
}
interface Ready {
  port: number
  headers: Record<string, string>
  note?: string
}

async function setupCookies(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/setup`)
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0])
  await res.text()
  return cookies.join('; ')
}

async function honoServer(
  build: () => Promise<{ fetch: (r: Request) => Response | Promise<Response> }>,
): Promise<number> {
  const { serve } = await import('@hono/node-server')
  const app = await build()
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve(info.port),
    )
    void server
  })
}

/** A Hono app answering `GET /api/me` with `handler` behind `n` middleware that only `await next()`. */
async function behindNoOps(n: number, handler: Handler): Promise<Hono> {
  const { Hono } = await import('hono')
  const app = new Hono()
  for (let i = 0; i < n; i++)
    app.use('*', async (_c, next) => {
      await next()
    })
  return app.get('/api/me', handler)
}

async function main(): Promise<Ready> {
  const fx = await fixtures()
  const auth = { authorization: `Bearer ${fx.jwt}`, origin: ORIGIN }
  // `hono-noop:<n>`: the floor's handler behind n middleware that only `await next()`: what
  // Hono's chain itself costs a request (not part of the default run).
  if (kind.startsWith('hono-noop:')) {
    const n = Number(kind.slice('hono-noop:'.length))
    const port = await honoServer(() => behindNoOps(n, floorHandler))
    const cookie = `sid=${fx.sessionCookieValue}; XSRF-TOKEN=${CSRF_TOKEN}`
    return { port, headers: { ...auth, cookie } }
  }
  // `hono-same-work[:<n>]`: the six's headers and checks by hand in one handler
  // (lib/same-work.ts), behind n middleware that only `await next()` (none without `:<n>`).
  if (kind === 'hono-same-work' || kind.startsWith('hono-same-work:')) {
    const { sameWorkHandler } = await import('../lib/same-work')
    const handler = await sameWorkHandler()
    const n = Number(kind.slice('hono-same-work:'.length) || 0)
    const port = await honoServer(() => behindNoOps(n, handler))
    const cookie = `sid=${fx.sessionCookieValue}; XSRF-TOKEN=${CSRF_TOKEN}`
    return { port, headers: { ...auth, cookie } }
  }
  // `palisade-only:<factory>[,<factory>…]`: a bare Hono app plus just those middleware, for
  // finding which part of the stack costs what (not part of the default run).
  if (kind.startsWith('palisade-only:')) {
    const { Hono } = await import('hono')
    const { loadPalisade } = await import('../lib/palisade')
    const { addRoutes, stackParts } = await import('../lib/stack')
    const wanted = kind.slice('palisade-only:'.length).split(',')
    const { middleware } = await stackParts(await loadPalisade(), 'full')
    const port = await honoServer(async () => {
      const app = new Hono()
      for (const [name, m] of middleware) if (wanted.includes(name)) app.use('*', m)
      return addRoutes(app)
    })
    const cookie = `sid=${fx.sessionCookieValue}; XSRF-TOKEN=${CSRF_TOKEN}`
    return {
      port,
      headers: { ...auth, cookie, 'x-api-key': (await import('../lib/fixtures')).API_KEY },
    }
  }
  switch (kind) {
    case 'hono-bare': {
      const { Hono } = await import('hono')
      const port = await honoServer(async () => {
        const app = new Hono()
        app.get('/api/me', (c) => c.json({ sub: 'anonymous', ok: true }))
        return app
      })
      return { port, headers: auth }
    }
    case 'hono-headers': {
      // The header floor of the six-middleware stack (lib/floor.ts): bare Hono doing the stack's
      // header work by hand and nothing else.
      const { Hono } = await import('hono')
      const port = await honoServer(async () => new Hono().get('/api/me', floorHandler))
      const cookie = `sid=${fx.sessionCookieValue}; XSRF-TOKEN=${CSRF_TOKEN}`
      return { port, headers: { ...auth, cookie } }
    }
    case 'palisade':
    case 'palisade-full': {
      const { Hono } = await import('hono')
      const { loadPalisade } = await import('../lib/palisade')
      const { addRoutes, stackParts } = await import('../lib/stack')
      const p = await loadPalisade()
      const { middleware, missing } = await stackParts(
        p,
        kind === 'palisade' ? 'equivalent' : 'full',
      )
      const port = await honoServer(async () => {
        const app = new Hono()
        for (const [, m] of middleware) app.use('*', m)
        return addRoutes(app, p)
      })
      const cookie = `sid=${fx.sessionCookieValue}; XSRF-TOKEN=${CSRF_TOKEN}`
      const extra: Record<string, string> =
        kind === 'palisade-full' ? { 'x-api-key': (await import('../lib/fixtures')).API_KEY } : {}
      return {
        port,
        headers: { ...auth, ...extra, cookie },
        note: missing.length ? `missing: ${missing.join(', ')}` : undefined,
      }
    }
    case 'palisade-openapi': {
      // The same six middleware as 'palisade', registered through the @palisade/openapi wrapper:
      // what the wrapper itself costs a request.
      const { Hono } = await import('hono')
      const { loadOpenAPI, loadPalisade } = await import('../lib/palisade')
      const { stackParts, wrappedApp } = await import('../lib/stack')
      const { openapi } = await loadOpenAPI()
      if (!openapi) throw new Error('@palisade/openapi did not load')
      const { middleware, missing } = await stackParts(await loadPalisade(), 'equivalent')
      const port = await honoServer(async () => wrappedApp(openapi, new Hono(), middleware))
      const cookie = `sid=${fx.sessionCookieValue}; XSRF-TOKEN=${CSRF_TOKEN}`
      return {
        port,
        headers: { ...auth, cookie },
        note: missing.length ? `missing: ${missing.join(', ')}` : undefined,
      }
    }
    case 'palisade-example': {
      // The example app as the README starts it, configured through its environment (see the
      // parent: JWT_SECRET, SESSION_SECRET, RATE_LIMIT_MAX, CORS_ORIGIN). Its logger writes to
      // stdout, which the parent sends to /dev/null.
      // `http-ab.ts` points BENCH_EXAMPLE_APP at the other checkout's example, so a change to the
      // example itself is compared too.
      const mod = (await import(process.env.BENCH_EXAMPLE_APP ?? '../../examples/app.ts')) as {
        createApp: () => Promise<{ api: { fetch: (r: Request) => Response | Promise<Response> } }>
      }
      const { api } = await mod.createApp()
      const port = await honoServer(async () => api)
      // A real session: the visit counter writes one and answers with its cookie.
      const res = await fetch(`http://127.0.0.1:${port}/api/session/visit`, {
        headers: { origin: ORIGIN },
      })
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
      await res.text()
      return { port, headers: { ...auth, cookie } }
    }
    case 'express':
      return express(auth)
    case 'fastify':
      return fastify(auth)
    default:
      throw new Error(`unknown server kind "${kind}"`)
  }
}

async function express(auth: Record<string, string>): Promise<Ready> {
  const { default: createExpress } = await import('express')
  const { default: helmet } = await import('helmet')
  const { default: cors } = await import('cors')
  const { rateLimit } = await import('express-rate-limit')
  const { default: session } = await import('express-session')
  const { default: cookieParser } = await import('cookie-parser')
  const { doubleCsrf } = await import('csrf-csrf')
  const { expressjwt } = await import('express-jwt')

  const app = createExpress()
  app.disable('x-powered-by')
  app.use(helmet())
  app.use(cors({ origin: ORIGIN, credentials: true }))
  app.use(
    rateLimit({
      windowMs: 60_000,
      limit: HIGH_LIMIT,
      standardHeaders: 'draft-6',
      legacyHeaders: false,
    }),
  )
  app.use(
    session({
      secret: SESSION_SECRET,
      resave: false,
      saveUninitialized: false,
      cookie: { httpOnly: true, sameSite: 'lax', maxAge: 86_400_000 },
    }),
  )
  app.use(cookieParser())
  const { doubleCsrfProtection } = doubleCsrf({
    getSecret: () => SESSION_SECRET,
    getSessionIdentifier: (req) => (req as unknown as { session: { id: string } }).session.id,
    cookieName: 'x-csrf-token',
    cookieOptions: { secure: false, sameSite: 'lax' },
  })
  app.use(doubleCsrfProtection)
  app.get('/setup', (req: ExpressReq, res: ExpressRes) => {
    ;(req.session as unknown as Record<string, unknown>).user = 'user-1'
    res.json({ ok: true })
  })
  // A KeyObject, not the string: given a string, jsonwebtoken 9 first tries createPublicKey() on
  // it and catches the failure on every request, which alone costs Express about 5x its time.
  const { createSecretKey } = await import('node:crypto')
  const jwtKey = createSecretKey(Buffer.from(JWT_SECRET_TEXT))
  app.use(expressjwt({ secret: jwtKey, algorithms: ['HS256'] }).unless({ path: ['/setup'] }))
  app.get('/api/me', (req: ExpressReq, res: ExpressRes) => {
    const auth = (req as unknown as { auth?: { sub?: string } }).auth
    res.json({ sub: auth?.sub ?? 'anonymous', ok: true })
  })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const port = (server.address() as AddressInfo).port
  return { port, headers: { ...auth, cookie: await setupCookies(port) } }
}

async function fastify(auth: Record<string, string>): Promise<Ready> {
  const { default: Fastify } = await import('fastify')
  const app = Fastify({ logger: false })
  await app.register((await import('@fastify/helmet')).default)
  await app.register((await import('@fastify/cors')).default, { origin: ORIGIN, credentials: true })
  await app.register((await import('@fastify/rate-limit')).default, {
    max: HIGH_LIMIT,
    timeWindow: 60_000,
  })
  await app.register((await import('@fastify/cookie')).default)
  await app.register((await import('@fastify/secure-session')).default, {
    secret: SESSION_SECRET,
    salt: 'mq9hDxBVDbspDR6n',
    cookieName: 'session',
    cookie: { path: '/', httpOnly: true, sameSite: 'lax' },
  })
  await app.register((await import('@fastify/csrf-protection')).default, {
    sessionPlugin: '@fastify/secure-session',
  })
  await app.register((await import('@fastify/jwt')).default, { secret: JWT_SECRET_TEXT })
  // @fastify/csrf-protection checks every request its hook runs on; like the other stacks, only
  // unsafe methods are checked.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return done()
    app.csrfProtection(req, reply, done)
  })
  app.addHook('onRequest', async (req) => {
    if (req.url === '/setup') return
    await req.jwtVerify()
  })
  app.get('/setup', async (req) => {
    ;(req.session as unknown as { set(key: string, value: unknown): void }).set('user', 'user-1')
    return { ok: true }
  })
  app.get('/api/me', async (req) => {
    const user = req.user as { sub?: string } | undefined
    return { sub: user?.sub ?? 'anonymous', ok: true }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as AddressInfo).port
  return { port, headers: { ...auth, cookie: await setupCookies(port) } }
}

// A normal exit on SIGTERM lets `node --cpu-prof` write its profile when the parent stops us.
process.on('SIGTERM', () => process.exit(0))
// SIGUSR2 asks for the CPU time this process has used so far (µs), so the parent can compute CPU
// per request, which survives a busy machine far better than requests per second.
// With an IPC channel (the bench parent) messages go through it and stdout is free for the app;
// without one (a manual run) they are JSON lines on stdout.
const say = (message: unknown) =>
  process.send ? process.send(message) : console.log(JSON.stringify(message))
// Time spent in garbage-collection pauses so far (µs), reported beside the CPU time: a server
// whose requests outlive the young generation shows it here long before anything else does
// (bench/FINDINGS.md, "Garbage").
let gcMs = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration
}).observe({ entryTypes: ['gc'] })
const usage = () => {
  const { user, system } = process.cpuUsage()
  return { cpu: user + system, gc: Math.round(gcMs * 1000) }
}
process.on('SIGUSR2', () => say(usage()))
process.on('message', (message) => {
  if (message === 'cpu') say(usage())
})

main().then(
  (ready) => {
    say(ready)
    // The IPC channel must not keep a stopped server alive, nor stop it from exiting.
    process.channel?.unref()
  },
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
