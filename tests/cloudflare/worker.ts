/**
 * Test Worker for the Cloudflare stores, bundled with esbuild and run in workerd by miniflare.
 * - `POST /rpc` runs one store method inside the Worker, so the conformance suite (in Node) can
 *   drive a real store on a real Durable Object binding: `{ store, prefix, method, args }`.
 * - `GET /limited` is an app route behind `rateLimit` with the Durable Object store (max from the
 *   `max` query, key from `x-client`), for the exactness check.
 * - `POST /race/session?prefix=` races a logout against saves (tests/stores/session-race.ts): two
 *   store instances on the one binding, the first with a gate on its writes.
 */
import {
  DurableObjectApiKeyStore,
  type DurableObjectNamespaceLike,
  DurableObjectRateLimitStore,
  DurableObjectSessionStore,
} from '@palisade/middleware/cloudflare'
import { rateLimit } from '@palisade/middleware/rate-limit'
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

export default app
