/**
 * One app instance for the multi-instance PostgreSQL tests, run as its own process
 * (`node --import tsx tests/postgres/instance.ts`): rate-limited routes for each algorithm and a
 * session route, all on the PostgreSQL stores, through the driver named by `DRIVER` (`pg` or
 * `postgres.js`). Prints `listening on http://127.0.0.1:<port>` once it serves.
 */
import { serve } from '@hono/node-server'
import { PostgresRateLimitStore, PostgresSessionStore } from '@palisade/middleware/postgres'
import { type RateLimitAlgorithm, rateLimit } from '@palisade/middleware/rate-limit'
import { sessions } from '@palisade/middleware/sessions'
import { Hono } from 'hono'
import { pgPool, postgresJs } from './support'

const env = process.env
const url = env.DATABASE_URL as string
const client = env.DRIVER === 'postgres.js' ? postgresJs(url) : pgPool(url)
const store = new PostgresRateLimitStore({ client, table: env.RL_TABLE as string })
const max = Number(env.RATE_LIMIT_MAX ?? 137)

const app = new Hono()
const routes: Record<string, RateLimitAlgorithm> = {
  fixed: 'fixed-window',
  sliding: 'sliding-window',
  bucket: 'token-bucket',
}
for (const [path, algorithm] of Object.entries(routes)) {
  app.get(
    `/${path}`,
    rateLimit({ max, windowMs: 3_600_000, algorithm, store, keyGenerator: () => path }),
    (c) => c.text('ok'),
  )
}
// consume(): two limits checked together, and a cost of 3 units per request.
app.get(
  '/limits',
  rateLimit({
    limits: [
      { max, windowMs: 3_600_000 },
      { max: 10 * max, windowMs: 86_400_000 },
    ],
    store,
    keyGenerator: () => 'limits',
  }),
  (c) => c.text('ok'),
)
app.get('/cost', rateLimit({ max: 3 * max, cost: 3, store, keyGenerator: () => 'cost' }), (c) =>
  c.text('ok'),
)
app.use(
  '/session/*',
  sessions({
    secret: 'postgres-instances-secret-0123456789abcdef',
    store: new PostgresSessionStore({ client, table: env.SESSION_TABLE as string }),
  }),
)
app.get('/session/visit', (c) => {
  const session = c.get('session')
  session.set('visits', (session.get<number>('visits') ?? 0) + 1)
  return c.json({ visits: session.get('visits') })
})

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
