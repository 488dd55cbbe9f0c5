/**
 * CPU per request of bench apps served through node:http and @hono/node-server in this process,
 * over in-memory connections (lib/memory-http.ts: Node's parser, node-server's request and
 * response paths, no kernel, no load generator), in short interleaved batches:
 *
 *   node --import tsx http-inproc.ts [--apps=floor,noop:6,six] [--rounds=16] [--batch=2000]
 *     [--against=/path/to/other/checkout]
 *
 * (from bench/; built). Apps: `bare` (a route answering `c.json`), `floor` (the six's headers by
 * hand, lib/floor.ts), `same-work` (the six's headers and checks by hand in one handler,
 * lib/same-work.ts; `same-work:<n>` behind n middleware that only `await next()`), `noop:<n>` (the floor behind n middleware that only `await next()`), `pass:<n>` (the same
 * with n middleware that return `next()` without an async frame),
 * `six` (the like-for-like stack of the HTTP suite), `only:<a>+<b>…` (a bare `c.json` route
 * behind just those of the six, in the six's order, then one `pass` or `noop` layer per such name;
 * `only:` alone is the route without middleware), `example` (the
 * example app's `createApp()` configured as the HTTP suite configures it, with the session
 * cookie its visit counter sets; it logs each request to stdout). With `--against`, every Palisade
 * app also runs on the other checkout's built `packages/middleware/dist` (named `<app>@against`;
 * `example@against` is the other checkout's `examples/app.ts` on its own build), for
 * before/after checks of one change. Run the example from the repository root with
 * TSX_TSCONFIG_PATH naming a tsconfig without `paths` (bench/tsconfig.json would send both sides'
 * `@palisade/*` to this checkout's dist/; without it each example resolves its own checkout's
 * through node_modules), and stdout to /dev/null (the example logs every request there; the
 * report is on stderr).
 * The first app is the reference: each line gives the median CPU per request and the median of
 * the per-round ratios and differences to it. Issue 42's decomposition of the six against the
 * floor was measured with this (bench/FINDINGS.md).
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Hono } from 'hono'
import { CSRF_TOKEN, fixtures, JWT_SECRET_TEXT, ORIGIN, SESSION_SECRET } from './lib/fixtures'
import { floorHandler } from './lib/floor'
import { median } from './lib/measure'
import { memoryServer } from './lib/memory-http'
import { loadPalisade, type Palisade } from './lib/palisade'
import { sameWorkHandler } from './lib/same-work'
import { addRoutes, stackParts } from './lib/stack'

const args = process.argv.slice(2)
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const names = (flag('apps') ?? 'floor,noop:6,six').split(',')
const rounds = Number(flag('rounds') ?? 16)
const batch = Number(flag('batch') ?? 2000)
const against = flag('against')
const ROOT = path.resolve(import.meta.dirname, '..')
const SIX = ['securityHeaders', 'cors', 'rateLimit', 'sessions', 'csrf', 'jwtAuth']

type Fetch = (request: Request) => Response | Promise<Response>
type Build = () => Promise<{ fetch: Fetch; cookie?: string }>

/**
 * The example app of one checkout, configured through its environment as `suites/http.ts` starts
 * it, and the cookie its visit counter sets (the HTTP suite's request carries it).
 */
async function example(root: string): Promise<{ fetch: Fetch; cookie: string }> {
  Object.assign(process.env, {
    JWT_SECRET: JWT_SECRET_TEXT,
    SESSION_SECRET,
    CSRF_SECRET: SESSION_SECRET,
    RATE_LIMIT_MAX: '1000000000',
    CORS_ORIGIN: ORIGIN,
  })
  const mod = (await import(pathToFileURL(path.resolve(root, 'examples/app.ts')).href)) as {
    createApp: () => Promise<{ api: { fetch: Fetch } }>
  }
  const { api } = await mod.createApp()
  const res = await api.fetch(
    new Request('http://127.0.0.1/api/session/visit', { headers: { origin: ORIGIN } }),
  )
  await res.text()
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  return { fetch: api.fetch.bind(api), cookie }
}

/** The app of one name, with the middleware of `p`. */
function builder(name: string, p: Palisade, root: string): Build {
  const stack = async (wanted: string[]) => {
    const { middleware } = await stackParts(p, 'equivalent')
    const app = new Hono()
    for (const [n, m] of middleware) if (wanted.includes(n)) app.use('*', m)
    for (const n of wanted) {
      if (n === 'pass') app.use('*', (_c, next) => next())
      if (n === 'noop') app.use('*', async (_c, next) => void (await next()))
    }
    return addRoutes(app, p)
  }
  if (name === 'example') return () => example(root)
  if (name === 'bare')
    return async () => new Hono().get('/api/me', (c) => c.json({ sub: 'anonymous', ok: true }))
  if (name === 'floor') return async () => new Hono().get('/api/me', floorHandler)
  if (name === 'same-work' || name.startsWith('same-work:')) {
    return async () => {
      const app = new Hono()
      for (let i = 0; i < Number(name.slice('same-work:'.length) || 0); i++) {
        app.use('*', async (_c, next) => {
          await next()
        })
      }
      return app.get('/api/me', await sameWorkHandler())
    }
  }
  if (name.startsWith('noop:')) {
    return async () => {
      const app = new Hono()
      for (let i = 0; i < Number(name.slice('noop:'.length)); i++) {
        app.use('*', async (_c, next) => {
          await next()
        })
      }
      return app.get('/api/me', floorHandler)
    }
  }
  if (name.startsWith('pass:')) {
    return async () => {
      const app = new Hono()
      for (let i = 0; i < Number(name.slice('pass:'.length)); i++) {
        app.use('*', (_c, next) => next())
      }
      return app.get('/api/me', floorHandler)
    }
  }
  if (name === 'six') return () => stack(SIX)
  if (name.startsWith('only:')) return () => stack(name.slice('only:'.length).split('+'))
  throw new Error(`unknown app "${name}"`)
}

const usesPalisade = (name: string) =>
  name === 'six' || name === 'example' || name.startsWith('only:')

const fx = await fixtures()
const request = (cookie = `sid=${fx.sessionCookieValue}; XSRF-TOKEN=${CSRF_TOKEN}`) =>
  new TextEncoder().encode(
    [
      'GET /api/me HTTP/1.1',
      'host: 127.0.0.1',
      `authorization: Bearer ${fx.jwt}`,
      `origin: ${ORIGIN}`,
      `cookie: ${cookie}`,
      '',
      '',
    ].join('\r\n'),
  )
const ours = await loadPalisade()
const theirs = against
  ? ((await import(
      pathToFileURL(path.resolve(against, 'packages/middleware/dist/index.js')).href
    )) as Palisade)
  : undefined

const apps: [name: string, build: Build][] = []
for (const name of names) {
  apps.push([name, builder(name, ours, ROOT)])
  if (theirs && against && usesPalisade(name))
    apps.push([`${name}@against`, builder(name, theirs, against)])
}
const servers = await Promise.all(
  apps.map(async ([, build]) => {
    const app = await build()
    return memoryServer(app.fetch, request(app.cookie))
  }),
)
for (const server of servers) await server.serve(batch) // warm-up, not counted
const perRound: number[][] = apps.map(() => [])
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < servers.length; k++) {
    const i = (k + round) % servers.length
    const cpu = process.cpuUsage()
    await servers[i]?.serve(batch)
    const used = process.cpuUsage(cpu)
    perRound[i]?.push((used.user + used.system) / batch)
  }
}
const reference = perRound[0] as number[]
// The report goes to stderr: the example's logger writes its lines to stdout (send it to /dev/null).
console.error(
  `GET /api/me over in-memory connections: CPU per request, ${rounds} rounds of ${batch} requests`,
)
for (const [i, [name]] of apps.entries()) {
  const xs = perRound[i] as number[]
  const ratio = median(xs.map((x, r) => x / (reference[r] as number)))
  const diff = median(xs.map((x, r) => x - (reference[r] as number)))
  console.error(
    `  ${name.padEnd(36)} ${median(xs).toFixed(2).padStart(6)} µs  ${ratio.toFixed(3)}x ${diff >= 0 ? '+' : ''}${diff.toFixed(2)} µs vs ${apps[0]?.[0]}`,
  )
}
process.exit(0)
