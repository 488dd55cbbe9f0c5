/**
 * Test server for the Deno KV stores, bundled with esbuild and run by the deno binary of the
 * runtime matrix on a real `Deno.openKv(path)` (`:memory:` or a file shared by several servers).
 * - `POST /rpc` runs one store method here: `{ store, prefix, method, args }`.
 * - `GET /limited` is an app route behind `rateLimit` with the Deno KV store (max from the `max`
 *   query, key from `x-client`), for the exactness check.
 * - `POST /race/session?prefix=` races a logout against saves (tests/stores/session-race.ts): two
 *   store instances on the one KV, the first with a gate on its writes.
 * - A `prefix` starting with `resolved/` on `/rpc` builds the store with a resolver that returns
 *   the promise of the handle, and runs the method on `store.forContext(c)`.
 * It prints `listening <port>` once it serves on 127.0.0.1.
 */
import {
  DenoKvApiKeyStore,
  DenoKvConcurrencyStore,
  DenoKvIdempotencyStore,
  type DenoKvLike,
  DenoKvNonceStore,
  DenoKvRateLimitStore,
  DenoKvSessionStore,
} from '@palisade/middleware/deno-kv'
import { rateLimit } from '@palisade/middleware/rate-limit'
import { Hono } from 'hono'
import { benchStore } from '../../bench/lib/store-bench'
import { rpcHandler } from '../stores/rpc-handler'
import { raceLogoutAgainstSaves, type WriteGate, writeGate } from '../stores/session-race'

declare const Deno: {
  args: string[]
  openKv(path?: string): Promise<DenoKvLike>
  serve(
    options: { hostname: string; port: number; onListen(addr: { port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown
}

const opening = Deno.openKv(Deno.args[0] ?? ':memory:')
const kv = await opening
const stores = {
  rateLimit: DenoKvRateLimitStore,
  session: DenoKvSessionStore,
  apiKey: DenoKvApiKeyStore,
  concurrency: DenoKvConcurrencyStore,
  nonce: DenoKvNonceStore,
  idempotency: DenoKvIdempotencyStore,
} as const

const app = new Hono()

app.post(
  '/rpc',
  rpcHandler((store, prefix, c) => {
    const Store = stores[store as keyof typeof stores]
    if (!prefix.startsWith('resolved/')) return new Store({ kv, prefix })
    // The resolver hands out the promise of the handle (as `() => Deno.openKv()` once would).
    return new Store({ kv: () => opening, prefix }).forContext(c)
  }),
)

const limiters = new Map<number, ReturnType<typeof rateLimit>>()
const store = new DenoKvRateLimitStore({ kv, prefix: 'exact' })
app.use('/limited', (c, next) => {
  const max = Number(c.req.query('max') ?? 10)
  let limiter = limiters.get(max)
  if (!limiter) {
    limiter = rateLimit({
      max,
      windowMs: 60_000,
      keyGenerator: (ctx) => ctx.req.header('x-client') ?? 'anonymous',
      store,
    })
    limiters.set(max, limiter)
  }
  return limiter(c, next)
})
app.get('/limited', (c) => c.text('ok'))

// bench/suites/stores.ts: the store timed inside Deno.
app.get('/bench', async (c) => {
  const bench = new DenoKvRateLimitStore({ kv, prefix: 'bench' })
  const n = Number(c.req.query('n') ?? 500)
  return c.json(await benchStore(bench, crypto.randomUUID(), n, 32))
})

/** The KV handle, with every write (set, delete, atomic commit) waiting at `gate` first. */
function gatedKv(inner: DenoKvLike, gate: WriteGate): DenoKvLike {
  return {
    get: (key) => inner.get(key),
    set: async (key, value, options) => {
      await gate.pass()
      return inner.set(key, value, options)
    },
    delete: async (key) => {
      await gate.pass()
      return inner.delete(key)
    },
    atomic: () => {
      const op = inner.atomic()
      const wrapped: ReturnType<DenoKvLike['atomic']> = {
        check: (...checks) => {
          op.check(...checks)
          return wrapped
        },
        set: (key, value, options) => {
          op.set(key, value, options)
          return wrapped
        },
        delete: (key) => {
          op.delete(key)
          return wrapped
        },
        commit: async () => {
          await gate.pass()
          return op.commit()
        },
      }
      return wrapped
    },
  }
}

app.post('/race/session', async (c) => {
  const prefix = c.req.query('prefix') ?? 'race'
  const gate = writeGate()
  return c.json(
    await raceLogoutAgainstSaves(
      new DenoKvSessionStore({ kv: gatedKv(kv, gate), prefix }),
      new DenoKvSessionStore({ kv, prefix }),
      gate,
    ),
  )
})

Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening ${port}`) },
  app.fetch,
)
