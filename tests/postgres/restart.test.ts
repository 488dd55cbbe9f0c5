/**
 * PostgreSQL crashes and comes back under a running app. Each block runs a PostgreSQL cluster of
 * its own (initdb into a temporary directory, a free port), so the shared server other tests use
 * is never stopped; it is killed with `pg_ctl stop -m immediate` (no checkpoint: what survives
 * is what the WAL made durable) and started again on the same port.
 *
 * Shown for each driver:
 * - the fail-closed route answers 503 `Rate limit store unavailable` while PostgreSQL is down,
 *   and a failOpen route lets requests through;
 * - sessions answers 503 and sets no cookie;
 * - once PostgreSQL is back, the same app, clients and stores serve again, without a restart;
 * - no acknowledged increment is lost: the count goes on from the last answered request.
 */
import {
  type PostgresClient,
  PostgresRateLimitStore,
  PostgresSessionStore,
} from '@palisade/middleware/postgres'
import { rateLimit } from '@palisade/middleware/rate-limit'
import { sessions } from '@palisade/middleware/sessions'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, until } from '../redis/support'
import {
  canMakeCluster,
  pgPool,
  postgresJs,
  type ThrowawayPostgres,
  throwawayPostgres,
} from './support'

const MAX = 1_000

const sidOf = (res: Response) => /\bsid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1]

describe.runIf(canMakeCluster).each(['pg', 'postgres.js'])(
  'PostgreSQL crash and restart under a running app, via %s',
  (driver) => {
    let cluster: ThrowawayPostgres
    let client: PostgresClient
    let close: () => Promise<void> = async () => {}
    const app = new Hono()
    const storeErrors: unknown[] = []
    let acknowledged = 0
    let sid: string | undefined

    beforeAll(async () => {
      cluster = await throwawayPostgres(await freePort())
      if (driver === 'pg') {
        const pool = pgPool(cluster.url, { connectionTimeoutMillis: 2_000 })
        client = pool
        close = () => pool.end()
      } else {
        // postgres.js makes queued queries wait out its reconnect backoff (up to 20 s by
        // default) before they fail; a short backoff answers 503 at once (see the README).
        const sql = postgresJs(cluster.url, { connect_timeout: 2, backoff: () => 0.1 })
        client = sql
        close = () => sql.end({ timeout: 1 })
      }
      const rateLimitStore = new PostgresRateLimitStore({ client })
      const sessionStore = new PostgresSessionStore({ client })
      await rateLimitStore.migrate()
      await sessionStore.migrate()
      const key = { keyGenerator: () => 'one-client', store: rateLimitStore, max: MAX }
      app.get('/closed', rateLimit({ ...key, onStoreError: (e) => storeErrors.push(e) }), (c) =>
        c.text('ok'),
      )
      app.get(
        '/open',
        rateLimit({ ...key, failOpen: true, onStoreError: (e) => storeErrors.push(e) }),
        (c) => c.text('ok'),
      )
      app.use(
        '/s/*',
        sessions({ secret: 'restart-test-secret-0123456789abcdef', store: sessionStore }),
      )
      app.get('/s/visit', (c) => {
        const session = c.get('session')
        session.set('visits', (session.get<number>('visits') ?? 0) + 1)
        return c.json({ visits: session.get('visits') })
      })
    })

    afterAll(async () => {
      // Always: whatever failed above, the cluster is stopped and its directory removed.
      await close().catch(() => {})
      await cluster?.destroy()
    })

    const get = (path: string) =>
      app.request(path, sid ? { headers: { cookie: `sid=${sid}` } } : {})

    it('counts and keeps sessions while PostgreSQL is up', async () => {
      for (let i = 0; i < 20; i++) {
        const res = await get('/closed')
        expect(res.status).toBe(200)
        acknowledged++
        expect(res.headers.get('RateLimit-Remaining')).toBe(String(MAX - acknowledged))
      }
      const first = await get('/s/visit')
      sid = sidOf(first)
      expect(await (await get('/s/visit')).json()).toEqual({ visits: 2 })
    })

    it('answers 503 on the fail-closed route while PostgreSQL is down; failOpen lets requests through', async () => {
      await cluster.stop('immediate')
      const started = Date.now()
      const closed = await Promise.all(Array.from({ length: 20 }, () => get('/closed')))
      const answeredIn = Date.now() - started
      expect(closed.map((r) => r.status)).toEqual(Array(20).fill(503))
      expect(await closed[0]?.text()).toBe('Rate limit store unavailable')
      expect(closed[0]?.headers.get('RateLimit-Remaining')).toBeNull()
      expect((await get('/open')).status).toBe(200)
      expect(storeErrors.length).toBeGreaterThan(0)
      const session = await get('/s/visit')
      expect(session.status).toBe(503)
      expect(session.headers.get('set-cookie')).toBeNull()
      console.info(
        `postgres down (${driver}): 20 fail-closed requests answered 503 in ${answeredIn} ms`,
      )
    })

    it('recovers without an app restart, with no acknowledged increment lost', async () => {
      await cluster.start()
      let first: Response | undefined
      const recoveredIn = await until(async () => {
        const res = await get('/closed')
        if (res.status !== 200) return false
        first = res
        return true
      })
      acknowledged++
      // The count goes on from the last answered request: none of the 20 acknowledged
      // increments was lost in the crash, and no request refused during the outage counted.
      expect(first?.headers.get('RateLimit-Remaining')).toBe(String(MAX - acknowledged))
      expect(await (await get('/s/visit')).json()).toEqual({ visits: 3 })
      console.info(`postgres restart (${driver}): served again ${recoveredIn} ms after start`)
    })
  },
)
