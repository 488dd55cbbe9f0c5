// A handler that forgets to `return` its response is a developer error Hono reports itself: with
// any middleware in front, "Context is not finalized. Did you forget to return a Response object
// or `await next()`?" reaches `onError`. Every middleware here must leave that report alone on
// every path that passes the request on. `next()` resolves to the Context, and Hono's compose
// takes a middleware's truthy result as the response when the context is not finalized: a
// middleware returning `next()` itself made the Context the answer (on @hono/node-server, 500
// "res.body.getReader is not a function"). Each row drives one way through one middleware; the
// static scan below keeps `return next()` from coming back where no row reaches it.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { describe, expect, it } from 'vitest'
import { failing, json } from '../test/failing-store'
import { serveOnLoopback } from '../test/node-server'
import { signedBody, signedPost } from '../test/signed-post'
import { apiKey, createApiKey, MemoryApiKeyStore } from './api-key'
import { bodyLimit } from './body-limit'
import { botGuard } from './bot-guard'
import { concurrencyLimit, MemoryConcurrencyStore } from './concurrency-limit'
import { contentTypeGuard } from './content-type-guard'
import { cors } from './cors'
import { csrf } from './csrf'
import { httpSignature } from './http-signature'
import { idempotency } from './idempotency'
import { ipGuard } from './ip-guard'
import { jwtAuth } from './jwt-auth'
import { loadShed } from './load-shed'
import { logger } from './logger'
import { quota } from './quota'
import { MemoryRateLimitStore, rateLimit } from './rate-limit'
import { requestId } from './request-id'
import { requestTimeout } from './request-timeout'
import { securityHeaders } from './security-headers'
import { sessions } from './sessions'
import { shield } from './shield'
import { ssrfGuard } from './ssrf-guard'
import { signWebhook, webhook } from './webhook'
import { xssSanitize } from './xss-sanitize'

const NOT_FINALIZED = /Context is not finalized/
const secret = 's'.repeat(32)
const quiet = { onStoreError: () => {} }

interface Row {
  mw: MiddlewareHandler
  /** What the request carries. Default: a GET of `/`. */
  init?: RequestInit
  /** Requests sent first to an app whose handler answers (the same middleware instance). */
  prime?: (send: (init?: RequestInit) => Promise<Response>) => Promise<RequestInit | undefined>
  /** Middleware in front of `mw`. */
  before?: MiddlewareHandler
  path?: string
  /** Served by @hono/node-server on a loopback port instead of `app.request()`. */
  served?: true
}

/** Every middleware, by way through it. */
const ROWS: Record<string, () => Row | Promise<Row>> = {
  'apiKey, a valid key': async () => {
    const store = new MemoryApiKeyStore()
    const { key } = await createApiKey({ store, prefix: 'pal_test' })
    return { mw: apiKey({ store }), init: { headers: { 'x-api-key': key } } }
  },
  'bodyLimit, no body': () => ({ mw: bodyLimit() }),
  'bodyLimit, a body counted': () => ({ mw: bodyLimit({ max: 100 }), init: json('{}') }),
  'bodyLimit, dry run over the declared length': () => ({
    mw: bodyLimit({ max: 1, dryRun: true }),
    init: json('{"a":1}'),
  }),
  'bodyLimit, dry run over a streamed body': () => ({
    mw: bodyLimit({ max: 1, dryRun: true }),
    init: {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array(4))
          controller.close()
        },
      }),
      duplex: 'half',
    } as RequestInit,
  }),
  'bodyLimit on node-server, a body framed by the socket': () => ({
    mw: bodyLimit({ max: 100 }),
    init: json('{}'),
    served: true,
  }),
  'bodyLimit on node-server, dry run over a framed body': () => ({
    mw: bodyLimit({ max: 1, dryRun: true }),
    init: json('{"a":1}'),
    served: true,
  }),
  'bodyLimit, a body read before it': () => ({
    mw: bodyLimit({ max: 100 }),
    init: json('{}'),
    before: async (c, next) => {
      await c.req.text()
      await next()
    },
  }),
  'botGuard, a browser': () => ({
    mw: botGuard(),
    init: { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' } },
  }),
  'concurrencyLimit, a slot': () => ({ mw: concurrencyLimit({ max: 1, key: () => 'k' }) }),
  'concurrencyLimit, skipped': () => ({ mw: concurrencyLimit({ max: 1, skip: () => true }) }),
  'concurrencyLimit, store down, fail open': () => ({
    mw: concurrencyLimit({ max: 1, store: failing as never, failOpen: true, ...quiet }),
  }),
  'concurrencyLimit, dry run over the limit': async () => {
    const store = new MemoryConcurrencyStore()
    expect((await store.acquire('k', 'held', 1, 60_000)).acquired).toBe(true)
    return { mw: concurrencyLimit({ max: 1, key: () => 'k', store, dryRun: true }) }
  },
  'contentTypeGuard, a GET': () => ({ mw: contentTypeGuard({ required: ['application/json'] }) }),
  'contentTypeGuard, JSON': () => ({
    mw: contentTypeGuard({ required: ['application/json'] }),
    init: json('{}'),
  }),
  'cors, an allowed origin': () => ({
    mw: cors({ origin: 'https://app.example' }),
    init: { headers: { origin: 'https://app.example' } },
  }),
  'csrf, the first GET': () => ({ mw: csrf() }),
  'csrf, a GET with its cookie': () => ({
    mw: csrf(),
    prime: async (send) => {
      const cookie = (await send()).headers.get('set-cookie')?.split(';')[0] ?? ''
      expect(cookie).toMatch(/^XSRF-TOKEN=./)
      return { headers: { cookie } }
    },
  }),
  'httpSignature, a signed request': async () => {
    const { key, signed } = await signedPost()
    return {
      mw: httpSignature({ keys: () => key }),
      init: { method: 'POST', headers: signed.headers, body: signedBody },
    }
  },
  'idempotency, a GET': () => ({ mw: idempotency() }),
  'idempotency, a POST without a key': () => ({ mw: idempotency(), init: json('{}') }),
  'idempotency, a POST with a key': () => ({
    mw: idempotency(),
    init: {
      ...json('{}'),
      headers: { 'content-type': 'application/json', 'idempotency-key': '"k-1"' },
    },
  }),
  'idempotency, store down, fail open': () => ({
    mw: idempotency({ store: failing as never, failOpen: true, ...quiet }),
    init: {
      ...json('{}'),
      headers: { 'content-type': 'application/json', 'idempotency-key': '"k-1"' },
    },
  }),
  'ipGuard, an address not listed': () => ({
    mw: ipGuard({ mode: 'deny', list: ['10.0.0.1'], keyGenerator: () => '192.0.2.1' }),
  }),
  'jwtAuth, a token verified': async () => {
    const { sign } = await import('hono/jwt')
    const token = await sign({ sub: 'u', exp: Math.floor(Date.now() / 1000) + 60 }, secret)
    return { mw: jwtAuth({ secret }), init: { headers: { authorization: `Bearer ${token}` } } }
  },
  'jwtAuth, a token remembered': async () => {
    const { sign } = await import('hono/jwt')
    const token = await sign({ sub: 'u', exp: Math.floor(Date.now() / 1000) + 60 }, secret)
    const init = { headers: { authorization: `Bearer ${token}` } }
    return {
      mw: jwtAuth({ secret }),
      prime: async (send) => {
        expect((await send(init)).status).toBe(200)
        return init
      },
    }
  },
  'loadShed, a request': () => ({ mw: loadShed({ maxInFlight: 10 }) }),
  'loadShed, exempt': () => ({
    mw: loadShed({ maxInFlight: 10, exempt: ['/health'] }),
    path: '/health',
  }),
  'logger, a request': () => ({ mw: logger({ sink: () => {} }) }),
  'logger, an excluded path': () => ({
    mw: logger({ sink: () => {}, exclude: ['/health'] }),
    path: '/health',
  }),
  'quota, within it': () => ({
    mw: quota({ limit: 5, period: 'day', store: new MemoryRateLimitStore(), key: () => 'k' }),
  }),
  'quota, store down, fail open': () => ({
    mw: quota({ limit: 5, period: 'day', store: failing as never, failOpen: true, ...quiet }),
  }),
  'rateLimit, within it': () => ({ mw: rateLimit({ max: 5 }) }),
  'rateLimit, skipped': () => ({ mw: rateLimit({ max: 5, skip: () => true }) }),
  'rateLimit, store down, fail open': () => ({
    mw: rateLimit({ store: failing as never, failOpen: true, ...quiet }),
  }),
  'rateLimit (general path), store down, fail open': () => ({
    mw: rateLimit({ store: failing as never, failOpen: true, skip: () => false, ...quiet }),
  }),
  'requestId, a request': () => ({ mw: requestId() }),
  'requestTimeout, in time': () => ({ mw: requestTimeout({ ms: 5_000 }) }),
  'securityHeaders, fixed headers': () => ({ mw: securityHeaders() }),
  'securityHeaders, a CSP nonce': () => ({ mw: securityHeaders({ nonce: true }) }),
  'sessions, a new session': () => ({ mw: sessions({ secret }) }),
  'shield, clean': () => ({ mw: shield(), init: json('{"comment":"hello"}') }),
  'shield, exempt': () => ({ mw: shield({ exempt: ['/health'] }), path: '/health' }),
  'shield, dry run over an attack': () => ({
    mw: shield({ dryRun: true }),
    init: json('{"comment":"<script>alert(1)</script>"}'),
  }),
  'shield, dry run over a banned client': () => {
    const attack = json('{"comment":"<script>alert(1)</script>"}')
    return {
      mw: shield({ dryRun: true, ban: { after: 1, store: new MemoryRateLimitStore() } }),
      prime: async (send) => {
        await send(attack)
        return json('{"comment":"hello"}')
      },
    }
  },
  'ssrfGuard, no URL': () => ({ mw: ssrfGuard(), init: json('{"name":"x"}') }),
  'webhook, a signed delivery': async () => {
    const signed = await signWebhook('{}', { preset: 'github', secret })
    return {
      mw: webhook({ preset: 'github', secret }),
      init: { method: 'POST', body: signed.body as string, headers: signed.headers },
    }
  },
  'xssSanitize, a clean body': () => ({ mw: xssSanitize(), init: json('{"a":"b"}') }),
}

/** The outcome of one request whose handler forgets to return its response. */
async function forgotten(row: Row) {
  const path = row.path ?? '/'
  let init = row.init
  if (row.prime) {
    const good = new Hono()
    if (row.before) good.use(row.before)
    good.use(row.mw)
    good.all('/*', (c) => c.text('ok'))
    init = await row.prime(async (i) => good.request(path, i))
  }
  const app = new Hono()
  let error: unknown
  app.onError((e, c) => {
    error = e
    return c.text('reported', 500)
  })
  if (row.before) app.use(row.before)
  app.use(row.mw)
  app.all('/*', ((c: Context) => {
    c.text('never returned')
  }) as never)
  if (!row.served) return { res: (await app.request(path, init)) as unknown, error }
  const server = await serveOnLoopback(app)
  try {
    return { res: (await fetch(server.base + path, init)) as unknown, error }
  } finally {
    await server.close()
  }
}

describe('a handler that forgets to return its response', () => {
  it("gets Hono's own report with a middleware of Hono's in front", async () => {
    const { res, error } = await forgotten({
      mw: async (_c, next) => {
        await next()
      },
    })
    expect(res).toBeInstanceOf(Response)
    expect((res as Response).status).toBe(500)
    expect(String(error)).toMatch(NOT_FINALIZED)
  })

  it('is answered with the Context itself by a middleware returning next() (what the rows catch)', async () => {
    const { res, error } = await forgotten({ mw: (_c, next) => next() as never })
    expect(res).not.toBeInstanceOf(Response)
    expect(error).toBeUndefined()
  })

  it.each(Object.keys(ROWS))('%s: gets the same report', async (name) => {
    const row = await (ROWS[name] as () => Row | Promise<Row>)()
    const { res, error } = await forgotten(row)
    expect(res).toBeInstanceOf(Response)
    expect((res as Response).status).toBe(500)
    expect(await (res as Response).text()).toBe('reported')
    expect(String(error)).toMatch(NOT_FINALIZED)
  })
})

describe('the static scan', () => {
  const src = import.meta.dirname
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  )
  /** Code lines handing `next()`'s own promise back (comments left out). */
  const handsBack = (text: string) =>
    text
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*)/.test(line))
      .filter((line) => /(return|=>)\s*next\(\)(?!\.then\()\s*(\/\/.*)?$/.test(line))

  it('finds what it looks for', () => {
    expect(
      handsBack('  return next()\n  if (x) return next() // why\n  (c, next) => next()'),
    ).toHaveLength(3)
    expect(handsBack('  return next().then(f)\n  await next()\n  * return next()')).toHaveLength(0)
    expect(files.length).toBeGreaterThan(100)
  })

  it('finds no middleware handing back next() itself (passOn, or await next() in an async one)', () => {
    const found = files.flatMap((f) =>
      handsBack(readFileSync(join(src, f), 'utf8')).map((line) => `${f}: ${line.trim()}`),
    )
    expect(found).toEqual([])
  })
})
