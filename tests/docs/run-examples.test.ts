/**
 * Documentation examples run, not only type-check (readme-examples.test.ts): every ```ts block of
 * the READMEs and the site pages is written to a module, imported (which builds its app: a
 * factory's option check throws here, as it would at a user's start-up), and its app answers one
 * request, to the first route the block registers (else to the first path it guards with
 * `use`), with a status below 500.
 *
 * How a block becomes a module:
 * - `app` (a Hono app) and `api` (an `openapi()` wrapper), the names blocks may use undeclared
 *   (readme-examples.test.ts), are declared for a block that uses them without declaring them;
 * - the app answering the request is the module's default export when it has `fetch`, else its
 *   `app`, else its `api`;
 * - every `process.env.NAME` the block reads is set: `REDIS_URL` and `DATABASE_URL` to the local
 *   servers (127.0.0.1:6379, the PostgreSQL `test` database on 127.0.0.1:5432), a name ending in
 *   `PUBLIC_KEY` to a fresh ES256 public key (SPKI PEM), a name ending in `WEBHOOK_SECRET` to a
 *   Standard Webhooks secret (`whsec_` and 32 random bytes in base64), anything else to a random 43-character
 *   secret; the Workers module `cloudflare:workers` gives such secrets as its `env`;
 * - `serve()` of `@hono/node-server` is replaced by one that listens nowhere and hands the test
 *   its `fetch`: a page showing how to serve an app must not take a port;
 * - a function the block only declares (`declare function checkPassword(…)`) answers undefined;
 * - `fetch` to a reserved example domain (`upstream.example`, `api.example.com`) answers `{}`,
 *   so nothing leaves the machine; other URLs (the local issuer of a test) are fetched.
 * A Workers block has no Durable Object outside workerd (tests/cloudflare runs those stores), so
 * its store answers 503 `store_unavailable`; that is the one 5xx allowed, and only there.
 *
 * A block that cannot run in this process is marked `<!-- no-run: reason -->` (blocks.ts); the
 * marks are few and counted below.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { exportSPKI, generateKeyPair } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { allBlocks, type Block, root } from './blocks'

/** The apps blocks handed to `serve()`, newest last. */
const served = vi.hoisted(
  () => [] as { fetch: (request: Request) => Response | Promise<Response> }[],
)
/** What `cloudflare:workers` exports as `env` (filled per block below). */
const workersEnv = vi.hoisted(() => ({}) as Record<string, unknown>)

vi.mock('@hono/node-server', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@hono/node-server')>()),
  serve(options: { fetch: (request: Request) => Response | Promise<Response> }) {
    served.push(options)
    return { close: (done?: () => void) => done?.(), address: () => null, on: () => undefined }
  },
}))
vi.mock('cloudflare:workers', () => ({ env: workersEnv }))

/**
 * Hosts of the reserved example domains (RFC 2606: `*.example`, `example.com`, …) that blocks
 * call as stand-ins for an upstream: answered here with an empty JSON object, so a route that
 * proxies one answers, and nothing leaves the machine. Any other URL is fetched for real.
 */
const EXAMPLE_HOST = /(?:^|\.)(?:example|example\.(?:com|net|org))$/
const realFetch = globalThis.fetch
vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if (EXAMPLE_HOST.test(url.hostname)) return Promise.resolve(Response.json({}))
  return realFetch(input, init)
})

const RUN_DIR = join(root, 'tests/docs/.run')
/** Most blocks that may opt out of running: a block that can run, runs. */
const MAX_NO_RUN = 4

/** The blocks whose app was asked for a response. */
const asked: string[] = []

const runnable = allBlocks.filter((b) => !b.skipped && b.noRun === undefined)
const notRun = allBlocks.filter((b) => !b.skipped && b.noRun !== undefined)

/** `name` is declared at the top level of `code` (or imported under that name). */
const declares = (code: string, name: string) =>
  new RegExp(
    `^(?:export\\s+)?(?:const|let|var|function|class)\\s+${name}\\b|^import\\b[^;]*\\b${name}\\b[^;]*\\bfrom\\b`,
    'm',
  ).test(code)
/** `name` is read as a variable (not a property, not part of a path or another name). */
const uses = (code: string, name: string) =>
  new RegExp(`(?<![.\\w/'"\`-])${name}(?![\\w/'"\`-])`).test(code)

/** The block as a module that exports the app it builds. */
function moduleOf(block: Block): string {
  const head: string[] = []
  const tail: string[] = []
  const needsApp = uses(block.code, 'app') && !declares(block.code, 'app')
  const needsApi = uses(block.code, 'api') && !declares(block.code, 'api')
  if (needsApp || needsApi) head.push(`import { Hono as DocsHono__ } from 'hono'`)
  if (needsApi) head.push(`import { openapi as docsOpenapi__ } from '@palisade/openapi'`)
  if (needsApp) head.push('const app = new DocsHono__()')
  if (needsApi)
    head.push(
      `const api = docsOpenapi__(new DocsHono__(), { info: { title: 'Docs', version: '1' } })`,
    )
  if (needsApp) tail.push('export { app as app__ }')
  if (needsApi) tail.push('export { api as api__ }')
  // Every top-level binding, under a name of its own beside what the block exports itself: the
  // app may be called anything (`users`, `api`).
  for (const m of block.code.matchAll(/^(?:export\s+)?(?:const|let)\s+(\w+)\s*[=:]/gm))
    tail.push(`export { ${m[1]} as ${m[1]}__ }`)
  // A function the block only declares (`declare function checkPassword(…)`) exists, and answers
  // undefined: a falsy check, as a failed login.
  const code = block.code.replace(
    /^declare function (\w+)\(.*$/gm,
    (_line, name: string) => `function ${name}(..._args: unknown[]): any {}`,
  )
  return `${head.join('\n')}\n${code}\n${tail.join('\n')}\n`
}

interface Fetcher {
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>
}
const isFetcher = (value: unknown): value is Fetcher =>
  typeof (value as Fetcher | undefined)?.fetch === 'function'

/** The request the block's page shows: its first route, else the first path it guards. */
function requestOf(code: string): Request | undefined {
  const route = /\.(get|post|put|patch|delete|all)\(\s*(['"`])(\/[^'"`]*)\2/.exec(code)
  const guarded = /\.use\(\s*(['"`])(\/[^'"`]*)\1/.exec(code)
  const [method, path] = route
    ? [route[1] === 'all' ? 'GET' : (route[1] as string).toUpperCase(), route[3] as string]
    : guarded
      ? ['GET', guarded[2] as string]
      : []
  if (method === undefined || path === undefined) return undefined
  const concrete = path
    .replace(/:(\w+)\{[^}]*\}/g, '1')
    .replace(/:(\w+)\??/g, '1')
    .replace(/\*/g, 'x')
  const body = method === 'GET' || method === 'DELETE' ? undefined : '{}'
  return new Request(`http://localhost${concrete}`, {
    method,
    body,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  })
}

const ENV_SET: string[] = []
let publicKeyPem = ''
const secret = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (ch) =>
    ch === '+' ? '-' : ch === '/' ? '_' : '',
  )
}
function envFor(code: string): Record<string, string> {
  const names = new Set([...code.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] as string))
  const values: Record<string, string> = {}
  for (const name of names) {
    if (name === 'REDIS_URL') values[name] = 'redis://127.0.0.1:6379'
    else if (name === 'DATABASE_URL')
      values[name] = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
    else if (name.endsWith('PUBLIC_KEY')) values[name] = publicKeyPem
    else if (name === 'PORT') values[name] = '0'
    // A webhook signing secret in the form Standard Webhooks gives (and any provider accepts).
    else if (name.endsWith('WEBHOOK_SECRET'))
      values[name] =
        `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`
    else values[name] = secret()
  }
  return values
}

beforeAll(async () => {
  const { publicKey } = await generateKeyPair('ES256', { extractable: true })
  publicKeyPem = await exportSPKI(publicKey)
  rmSync(RUN_DIR, { recursive: true, force: true })
  mkdirSync(RUN_DIR, { recursive: true })
})
afterAll(() => {
  vi.unstubAllGlobals()
  for (const name of ENV_SET) delete process.env[name]
  rmSync(RUN_DIR, { recursive: true, force: true })
})

describe('documentation examples run', () => {
  // A block may set a process-wide flag (the pages on switching off the borrowed internals set
  // `__PALISADE_NO_INTERNALS__`): every block runs in this one process, so each starts without it,
  // as a user's app would.
  afterEach(() => {
    delete (globalThis as { __PALISADE_NO_INTERNALS__?: boolean }).__PALISADE_NO_INTERNALS__
  })
  it('runs nearly every block: the no-run marks are few and each says why', () => {
    expect(runnable.length).toBeGreaterThan(50)
    expect(notRun.length).toBeLessThanOrEqual(MAX_NO_RUN)
    for (const b of notRun) expect(b.noRun, `${b.readme}:${b.line}`).toMatch(/\w{3,}.*\w{3,}/)
  })

  it.each(runnable.map((b) => [`${b.readme}:${b.line}`, b] as const))(
    'block %s builds its app and answers a request without a server error',
    async (_name, block) => {
      const env = envFor(block.code)
      for (const [name, value] of Object.entries(env)) {
        if (!(name in process.env)) ENV_SET.push(name)
        process.env[name] = value
      }
      for (const key of Object.keys(workersEnv)) delete workersEnv[key]
      Object.assign(workersEnv, env)
      const file = join(RUN_DIR, `${block.slug}.ts`)
      writeFileSync(file, moduleOf(block))
      const servedBefore = served.length
      const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>
      const bindings = Object.keys(mod).filter(
        (k) => k.endsWith('__') && k !== 'app__' && k !== 'api__',
      )
      const app = [
        mod.default,
        served[servedBefore],
        mod.app__,
        mod.api__,
        ...bindings.map((k) => mod[k]),
      ].find(isFetcher)
      const request = requestOf(block.code)
      if (app === undefined || request === undefined) {
        // A block that builds no app (a document, a key pair) ran to its end: that is the check.
        expect(request === undefined || app !== undefined, 'a route but no app to ask').toBe(true)
        return
      }
      asked.push(block.slug)
      let res = await app.fetch(request.clone(), {})
      // A Redis or PostgreSQL client built without waiting connects in the background, and a
      // store asked before it is up answers 503 (`enableOfflineQueue: false` fails at once): ask
      // again once it had the time a server's start-up gives it.
      if (res.status === 503 && /ioredis|\bpg\b|postgres/.test(block.code)) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        res = await app.fetch(request, {})
      }
      const text = await res.text()
      const workers = block.code.includes("from 'cloudflare:workers'")
      if (workers && res.status === 503) expect(text).toMatch(/store/i)
      else expect(res.status, `${request.method} ${request.url}: ${text}`).toBeLessThan(500)
    },
  )

  it('asked the app of most blocks for a response, not only built it', () => {
    expect(asked.length).toBeGreaterThan(40)
  })
})
