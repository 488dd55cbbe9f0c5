/**
 * Test Worker for the Cloudflare stores, bundled with esbuild and run in workerd by miniflare.
 * - `POST /rpc` runs one store method inside the Worker, so the conformance suite (in Node) can
 *   drive a real store on a real Durable Object binding: `{ store, prefix, method, args }`.
 * - `GET /limited` is an app route behind `rateLimit` with the Durable Object store (max from the
 *   `max` query, key from `x-client`), for the exactness check.
 * - `POST /race/session?prefix=` races a logout against saves (tests/stores/session-race.ts): two
 *   store instances on the one binding, the first with a gate on its writes.
 * - `/module/*`: the Workers recipe's shape (finding 6 of #26). rateLimit, sessions and apiKey
 *   are built once at module scope on stores given a resolver (`(c) => c.env.PALISADE`), under
 *   the openapi wrapper, whose document (`GET /openapi.json`) lists what they describe.
 */
import { apiKey } from '@palisade/middleware/api-key'
import {
  DurableObjectApiKeyStore,
  DurableObjectConcurrencyStore,
  DurableObjectIdempotencyStore,
  type DurableObjectNamespaceLike,
  DurableObjectNonceStore,
  DurableObjectRateLimitStore,
  DurableObjectSessionStore,
} from '@palisade/middleware/cloudflare'
import { rateLimit } from '@palisade/middleware/rate-limit'
import { sessions } from '@palisade/middleware/sessions'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { benchStore } from '../../bench/lib/store-bench'
import { rpcHandler } from '../stores/rpc-handler'
import { raceLogoutAgainstSaves, type WriteGate, writeGate } from '../stores/session-race'

export { PalisadeStoreObject } from '@palisade/middleware/cloudflare'

type Env = { PALISADE: DurableObjectNamespaceLike }

const stores = {
  rateLimit: DurableObjectRateLimitStore,
  session: DurableObjectSessionStore,
  apiKey: DurableObjectApiKeyStore,
  concurrency: DurableObjectConcurrencyStore,
  nonce: DurableObjectNonceStore,
  idempotency: DurableObjectIdempotencyStore,
} as const

const app = new Hono<{ Bindings: Env }>()

app.post(
  '/rpc',
  rpcHandler(
    (store, prefix, c) =>
      new stores[store as keyof typeof stores]({ namespace: c.env.PALISADE, prefix }),
  ),
)

// A new store per request is what a Worker does (bindings arrive with the request); the object
// behind a key is the same for all of them, which is what makes the count exact.
app.use('/limited', (c, next) =>
  rateLimit({
    max: Number(c.req.query('max') ?? 10),
    windowMs: 60_000,
    keyGenerator: (ctx) => ctx.req.header('x-client') ?? 'anonymous',
    store: new DurableObjectRateLimitStore({ namespace: c.env.PALISADE, prefix: 'exact:' }),
  })(c, next),
)
app.get('/limited', (c) => c.text('ok'))

// bench/suites/stores.ts: the store timed inside workerd (workerd's clock moves on I/O only, so
// times are whole milliseconds at best).
app.get('/bench', async (c) => {
  const store = new DurableObjectRateLimitStore({ namespace: c.env.PALISADE, prefix: 'bench:' })
  const n = Number(c.req.query('n') ?? 500)
  return c.json(await benchStore(store, crypto.randomUUID(), n, 32, () => Date.now()))
})

/** The binding, with every write operation of its stubs waiting at `gate` first. */
function gatedNamespace(
  ns: DurableObjectNamespaceLike,
  gate: WriteGate,
): DurableObjectNamespaceLike {
  return {
    idFromName: (name) => ns.idFromName(name),
    get: (id) => {
      const stub = ns.get(id)
      return {
        async fetch(input, init) {
          if (!/\/(session\/get|key\/get)$/.test(input)) await gate.pass()
          return stub.fetch(input, init)
        },
      }
    },
  }
}

app.post('/race/session', async (c) => {
  const prefix = c.req.query('prefix') ?? 'race:'
  const gate = writeGate()
  const namespace = gatedNamespace(c.env.PALISADE, gate)
  return c.json(
    await raceLogoutAgainstSaves(
      new DurableObjectSessionStore({ namespace, prefix }),
      new DurableObjectSessionStore({ namespace: c.env.PALISADE, prefix }),
      gate,
    ),
  )
})

// Module scope, as the Workers recipe has it: no binding exists here, the resolver reads it from
// each request. Everything below is built once per isolate.
const binding = (c: { env: Env }) => c.env.PALISADE
const moduleKeys = new DurableObjectApiKeyStore({ namespace: binding, prefix: 'module:key:' })
const moduleLeases = new DurableObjectConcurrencyStore({ namespace: binding, prefix: 'module:cc:' })
const moduleLimits = new DurableObjectRateLimitStore({ namespace: binding, prefix: 'module:rl:' })
const api = openapi(app, { info: { title: 'Workers at module scope', version: '1.0.0' } })
api.use(
  '/module/*',
  rateLimit({
    max: 3,
    windowMs: 60_000,
    keyGenerator: (c) => c.req.header('x-client') ?? 'anonymous',
    store: moduleLimits,
  }),
)
api.use(
  '/module/*',
  sessions({
    secret: 'module-scope-test-secret-0123456789abcdef',
    store: new DurableObjectSessionStore({ namespace: binding, prefix: 'module:sess:' }),
  }),
)
api.get(
  '/module/visits',
  (c) => {
    const session = c.get('session')
    const visits = Number(session.get('visits') ?? 0) + 1
    session.set('visits', visits)
    return c.json({ visits })
  },
  { openapi: { summary: 'Counts visits in the session' } },
)
api.get('/module/partner', (c) => c.json({ id: c.get('apiKey').id }), {
  middlewares: [apiKey({ store: moduleKeys })],
  openapi: { summary: 'Who the API key belongs to' },
})
// A handler that uses a resolver-built store itself binds it to the request first.
app.post('/module-admin/keys', async (c) => {
  const id = await moduleKeys.forContext(c).add(await c.req.text(), { via: 'module' })
  return c.json({ id })
})
// A reset through forContext(c) also clears the key from the deny cache of the rateLimit above.
app.post('/module-admin/reset', async (c) => {
  await moduleLimits.forContext(c).reset(await c.req.text())
  return c.text('reset')
})
app.post('/module-admin/lease', async (c) => {
  const { key, lease, max } = await c.req.json<{ key: string; lease: string; max: number }>()
  return c.json(await moduleLeases.forContext(c).acquire(key, lease, max, 60_000))
})
// A resolver that finds no binding: the store fails, so rateLimit's failure policy answers.
app.use(
  '/module-broken',
  rateLimit({
    store: new DurableObjectRateLimitStore({
      namespace: (c) => (c.env as { MISSING?: DurableObjectNamespaceLike }).MISSING as never,
    }),
  }),
)
app.get('/module-broken', (c) => c.text('unreachable'))

export default app
