import { Hono } from 'hono'
import { afterAll, describe, expect, it } from 'vitest'
import {
  apiKeyAddBeforeLifecycle,
  apiKeySchemaBeforeLifecycle,
} from '../../../../tests/postgres/fixtures/api-key-schema-v1'
import { rateLimitSchemaBeforeLimit } from '../../../../tests/postgres/fixtures/rate-limit-schema-v1'
import {
  DATABASE_URL,
  dropStoreTable,
  pgPool,
  postgresJs,
  sleep,
  uniqueTable,
} from '../../../../tests/postgres/support'
import { CREATE_RACE_KEPT, raceCreateAgainstUpdate } from '../../../../tests/stores/session-race'
import { apiKey } from '../api-key'
import { hashApiKey } from '../api-key/hash-key'
import { rateLimit } from '../rate-limit'
import { sessions } from '../sessions'
import {
  PostgresApiKeyStore,
  type PostgresClient,
  PostgresRateLimitStore,
  PostgresSessionStore,
} from '.'

// Real PostgreSQL (DATABASE_URL or 127.0.0.1:5432/test); each test works on tables of its own.
const pool = pgPool()
const sql = postgresJs()
const tables: string[] = []

function freshTable(label: string): string {
  const table = uniqueTable(label)
  tables.push(table)
  return table
}

afterAll(async () => {
  for (const table of tables) await dropStoreTable(pool, table)
  await sql.end()
  await pool.end()
})

const exists = async (table: string) =>
  (await pool.query('SELECT to_regclass($1) AS t', [table])).rows[0]?.t !== null

/** Wraps the real pool and records every statement sent. */
function recording(client: PostgresClient = pool) {
  const statements: string[] = []
  const recorder = {
    query: (text: string, values?: unknown[]) => {
      statements.push(text)
      return (client as typeof pool).query(text, values)
    },
  }
  return { statements, client: recorder }
}

describe('PostgreSQL stores: options', () => {
  it.each([
    ['PostgresRateLimitStore', (o: never) => new PostgresRateLimitStore(o)],
    ['PostgresSessionStore', (o: never) => new PostgresSessionStore(o)],
    ['PostgresApiKeyStore', (o: never) => new PostgresApiKeyStore(o)],
  ])(
    '%s refuses a missing or wrong client, an unknown option and an unsafe table name',
    (name, make) => {
      const build = (options: unknown) => () => make(options as never)
      expect(build(undefined)).toThrow(new RegExp(`^${name}: "client" is required`))
      expect(build({ client: {} })).toThrow(/"client" must be a pg Pool or Client/)
      expect(build({ client: 'postgres://x' })).toThrow(TypeError)
      expect(build({ client: pool, tabel: 'x' })).toThrow(/tabel/)
      for (const table of [
        'x; DROP TABLE users',
        'Sessions',
        '"quoted"',
        'a.b.c',
        '1abc',
        '',
        'x'.repeat(49),
        'sessions--',
        'public.',
        42,
      ]) {
        expect(build({ client: pool, table }), String(table)).toThrow(/"table" must be/)
      }
      expect(build({ client: pool, table: 'public.my_sessions_2' })).not.toThrow()
      expect(build({ client: sql })).not.toThrow()
    },
  )

  it('tells postgres.js from pg by shape: unsafe() is used when present, query() otherwise', async () => {
    const table = freshTable('shape')
    const calls: string[] = []
    const both = {
      unsafe: (text: string, values?: never[]) => {
        calls.push('unsafe')
        return sql.unsafe(text, values)
      },
      query: () => {
        calls.push('query')
        throw new Error('not this one')
      },
    }
    const store = new PostgresApiKeyStore({ client: both, table })
    await store.migrate()
    await store.add('shape-key-0123456789')
    expect(calls.every((c) => c === 'unsafe')).toBe(true)
    expect(calls.length).toBe(2)
  })
})

describe('PostgreSQL stores: migrate()', () => {
  it('creates nothing at construction or on a request: without migrate() the store fails and no table appears', async () => {
    const table = freshTable('nomigrate')
    const store = new PostgresRateLimitStore({ client: pool, table })
    const app = new Hono()
    app.use(rateLimit({ store, keyGenerator: () => 'k', onStoreError: () => {} }))
    app.get('/', (c) => c.text('ok'))
    const res = await app.request('/')
    expect(res.status).toBe(503)
    expect(await exists(table)).toBe(false)
    const sessionTable = freshTable('nomigrate_s')
    await expect(
      new PostgresSessionStore({ client: pool, table: sessionTable }).get('x'),
    ).rejects.toThrow(/does not exist/)
    expect(await exists(sessionTable)).toBe(false)
  })

  it('is idempotent and safe when several instances migrate at once, through both drivers', async () => {
    const t = { rl: freshTable('mig_rl'), s: freshTable('mig_s'), k: freshTable('mig_k') }
    const stores = [pool, sql, pool, sql].flatMap((client) => [
      new PostgresRateLimitStore({ client, table: t.rl }),
      new PostgresSessionStore({ client, table: t.s }),
      new PostgresApiKeyStore({ client, table: t.k }),
    ])
    await Promise.all(stores.map((s) => s.migrate()))
    await Promise.all(stores.map((s) => s.migrate()))
    const rl = stores[0] as PostgresRateLimitStore
    expect((await rl.increment('k', 60_000)).count).toBe(1)
    await (stores[0] as PostgresRateLimitStore).migrate()
    // Migrating again keeps the data.
    expect((await rl.increment('k', 60_000)).count).toBe(2)
  })

  it('upgrades in place a database made by the release before <table>_limit, live counts kept', async () => {
    const table = freshTable('mig_v1')
    await pool.query(rateLimitSchemaBeforeLimit(table))
    const store = new PostgresRateLimitStore({ client: pool, table })
    // Counted by the old functions, as a running deployment has them.
    expect((await store.increment('k', 60_000)).count).toBe(1)
    expect((await store.slidingWindow('k', 60_000, 5)).count).toBe(1)
    expect((await store.tokenBucket('k', 60_000, 5)).count).toBe(1)
    const request = { algorithm: 'fixed-window', limits: [{ max: 3, windowMs: 60_000 }], cost: 2 }
    expect((await store.consume('k', request as never)).allowed).toBe(true)
    await store.migrate()
    const functions = await pool.query(
      "SELECT proname FROM pg_proc WHERE proname LIKE $1 || '\\_%' ORDER BY proname",
      [table],
    )
    expect(functions.rows.map((r) => r.proname)).toEqual(
      ['consume', 'hit', 'limit'].map((f) => `${table}_${f}`),
    )
    // The same rows, counted on by the new functions.
    expect((await store.increment('k', 60_000)).count).toBe(2)
    expect((await store.slidingWindow('k', 60_000, 5)).count).toBe(2)
    expect((await store.tokenBucket('k', 60_000, 5)).count).toBe(2)
    const refused = await store.consume('k', request as never)
    expect(refused.allowed).toBe(false)
    expect(refused.limits[0]?.count).toBe(4)
  })

  it('upgrades in place an API-key table made by the release before the key lifecycle, its keys still working', async () => {
    const table = freshTable('mig_keys_v1')
    await pool.query(apiKeySchemaBeforeLifecycle(table))
    // Keys as that release stored them: its own INSERT, a hash, an id and metadata.
    const keys = ['legacy-partner-key-0123456789', 'legacy-other-key-9876543210']
    const ids: string[] = []
    for (const [i, key] of keys.entries()) {
      const { rows } = await pool.query(apiKeyAddBeforeLifecycle(table), [
        await hashApiKey(key),
        crypto.randomUUID(),
        JSON.stringify({ owner: `partner-${i}` }),
      ])
      ids.push(rows[0].id)
    }
    const [store, other] = [pool, sql].map((client) => new PostgresApiKeyStore({ client, table }))
    if (store === undefined || other === undefined) throw new Error('two stores')
    // Today's lookup reads the lifecycle columns: before migrate() it fails (503, never a 401).
    await expect(store.validate(keys[0] as string)).rejects.toThrow(/does not exist/)
    await Promise.all([store.migrate(), other.migrate()])
    await store.migrate()
    const columns = await pool.query(
      'SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position',
      [table],
    )
    expect(columns.rows.map((r) => r.column_name)).toEqual([
      'hash',
      'id',
      'metadata',
      'expires_at',
      'scopes',
      'limits',
      'revoked_at',
      'last_used_at',
      'created_at',
      'prefix',
    ])
    // The existing keys keep their ids and metadata, with no lifecycle field set, on both drivers.
    for (const s of [store, other]) {
      for (const [i, key] of keys.entries()) {
        expect(await s.validate(key)).toEqual({ id: ids[i], metadata: { owner: `partner-${i}` } })
      }
    }
    const app = new Hono()
    app.use(apiKey({ store: other }))
    app.get('/', (c) => c.json(c.get('apiKey')))
    const status = async (key: string) =>
      (await app.request('/', { headers: { 'x-api-key': key } })).status
    expect(await status(keys[0] as string)).toBe(200)
    // And the lifecycle works on them: a rotation (new key in the new format, old key kept for
    // the overlap), then a revocation of the id.
    const next = await store.rotate(ids[0] as string, { overlapMs: 60_000 })
    expect(next.key).toMatch(/^key_[0-9A-Za-z]{36}$/)
    expect(await status(keys[0] as string)).toBe(200)
    expect(await status(next.key)).toBe(200)
    expect((await store.validate(keys[0] as string))?.expiresAt).toBeGreaterThan(Date.now())
    expect(await store.revoke(ids[0] as string)).toBe(true)
    expect(await status(keys[0] as string)).toBe(401)
    expect(await status(next.key)).toBe(401)
    expect(await status(keys[1] as string)).toBe(200)
  })

  it('exposes the SQL it runs, with the table name in it', () => {
    const store = new PostgresSessionStore({ client: pool, table: 'app_sessions' })
    expect(store.schema).toContain('CREATE TABLE IF NOT EXISTS app_sessions (')
    expect(new PostgresRateLimitStore({ client: pool }).schema).toContain(
      'CREATE OR REPLACE FUNCTION palisade_rate_limits_hit(',
    )
    expect(new PostgresApiKeyStore({ client: pool }).schema).toContain(
      'CREATE TABLE IF NOT EXISTS palisade_api_keys (',
    )
  })

  it('works in a schema of its own (schema-qualified table)', async () => {
    const schema = freshTable('schema')
    await pool.query(`CREATE SCHEMA ${schema}`)
    try {
      const store = new PostgresRateLimitStore({ client: sql, table: `${schema}.limits` })
      await store.migrate()
      expect((await store.tokenBucket('k', 60_000, 2)).count).toBe(1)
      expect((await store.slidingWindow('k', 60_000, 2)).count).toBe(1)
    } finally {
      await pool.query(`DROP SCHEMA ${schema} CASCADE`)
    }
  })
})

describe('PostgresRateLimitStore', () => {
  it('sends one statement per counted request', async () => {
    const table = freshTable('rl_one')
    const { statements, client } = recording()
    const store = new PostgresRateLimitStore({ client, table })
    await store.migrate()
    statements.length = 0
    await store.increment('a', 60_000)
    await store.slidingWindow('a', 60_000, 5)
    await store.tokenBucket('a', 60_000, 5)
    expect(statements).toHaveLength(3)
    expect(statements.every((s) => s.startsWith(`SELECT used, ttl FROM ${table}_hit(`))).toBe(true)
  })

  it('treats keys as data: SQL in a key is stored as text, never run', async () => {
    const table = freshTable('rl_inject')
    const store = new PostgresRateLimitStore({ client: pool, table })
    await store.migrate()
    const key = `x'); DROP TABLE ${table}; --`
    expect((await store.increment(key, 60_000)).count).toBe(1)
    expect((await store.increment(key, 60_000)).count).toBe(2)
    const { rows } = await pool.query(`SELECT key FROM ${table}`)
    expect(rows).toEqual([{ key }])
  })

  it('deletes expired rows by itself (every 64th call sweeps), never a live one', async () => {
    const table = freshTable('rl_sweep')
    const store = new PostgresRateLimitStore({ client: pool, table })
    await store.migrate()
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.increment(`old-${i}`, 1_000)))
    await store.increment('live', 3_600_000)
    const count = async () =>
      Number((await pool.query(`SELECT count(*) FROM ${table}`)).rows[0].count)
    expect(await count()).toBe(201)
    await sleep(1_100)
    expect(await count()).toBe(201)
    for (let i = 0; i < 64; i++) await store.increment('busy', 3_600_000)
    // The 200 expired rows went; the live ones stayed, with their counts.
    expect(await count()).toBe(2)
    expect((await store.increment('live', 3_600_000)).count).toBe(2)
    expect((await store.increment('busy', 3_600_000)).count).toBe(65)
  })
})

describe('PostgresSessionStore', () => {
  it('deletes expired sessions by itself (every 64th write sweeps)', async () => {
    const table = freshTable('s_sweep')
    const store = new PostgresSessionStore({ client: sql, table })
    await store.migrate()
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.set(`old-${i}`, { i }, 1)))
    await store.set('live', { a: 1 }, 3600)
    const count = async () =>
      Number((await pool.query(`SELECT count(*) FROM ${table}`)).rows[0].count)
    expect(await count()).toBe(101)
    await sleep(1_100)
    for (let i = 0; i < 64; i++) await store.set('busy', { i }, 3600)
    expect(await count()).toBe(2)
    expect(await store.get('live')).toEqual({ a: 1 })
  })

  it('reads a corrupt or non-object value as a missing session, and update can replace it', async () => {
    const table = freshTable('s_corrupt')
    const store = new PostgresSessionStore({ client: pool, table })
    await store.migrate()
    await store.set('s', { a: 1 }, 3600)
    await pool.query(`UPDATE ${table} SET data = '[1, 2]'::json`)
    expect(await store.get('s')).toBeNull()
    expect(await store.update('s', (cur) => (cur === null ? { fresh: true } : cur), 3600)).toEqual({
      fresh: true,
    })
    expect(await store.get('s')).toEqual({ fresh: true })
  })

  it('never overwrites a session another instance created between its read (missing) and its write', async () => {
    const table = freshTable('s_create')
    const other = new PostgresSessionStore({ client: sql, table })
    await other.migrate()
    // A fixed interleaving, no timing: our read finds no row, then the other instance creates
    // the session, and only then does our insert (for a missing or expired row) run.
    const outcome = await raceCreateAgainstUpdate(
      (create) =>
        new PostgresSessionStore({
          table,
          client: {
            query: async (text: string, values?: unknown[]) => {
              const result = await pool.query(text, values)
              if (text.startsWith('SELECT data::text') && result.rows.length === 0) await create()
              return result
            },
          },
        }),
      other,
    )
    expect(outcome).toEqual(CREATE_RACE_KEPT)
  })

  it('keeps every write when three store instances (both drivers) update one session at once', async () => {
    const table = freshTable('s_cas')
    const stores = [pool, sql, pgPool(DATABASE_URL)].map(
      (client) => new PostgresSessionStore({ client, table }),
    )
    await stores[0]?.migrate()
    await stores[0]?.set('shared', { n: 0 }, 3600)
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (stores[i % 3] as PostgresSessionStore).update(
          'shared',
          (cur) => (cur === null ? null : { ...cur, n: (cur.n as number) + 1, [`k${i}`]: i }),
          3600,
        ),
      ),
    )
    const data = (await stores[1]?.get('shared')) as Record<string, number>
    expect(data.n).toBe(60)
    expect(Object.keys(data)).toHaveLength(61)
  })

  it('works behind sessions(): a session written by one app instance is read by another', async () => {
    const table = freshTable('s_app')
    const secret = 'postgres-session-secret-0123456789abcdef'
    const make = (client: PostgresClient) => {
      const app = new Hono()
      app.use(sessions({ secret, store: new PostgresSessionStore({ client, table }) }))
      app.get('/visit', (c) => {
        const s = c.get('session')
        s.set('visits', (s.get<number>('visits') ?? 0) + 1)
        return c.json({ visits: s.get('visits') })
      })
      return app
    }
    await new PostgresSessionStore({ client: pool, table }).migrate()
    const [a, b] = [make(pool), make(sql)]
    const first = await a.request('/visit')
    const cookie = (first.headers.getSetCookie()[0] ?? '').split(';')[0] as string
    expect(await (await b.request('/visit', { headers: { cookie } })).json()).toEqual({
      visits: 2,
    })
    expect(await (await a.request('/visit', { headers: { cookie } })).json()).toEqual({
      visits: 3,
    })
  })
})

describe('PostgresApiKeyStore', () => {
  it('agrees on one id when instances add the same key at once', async () => {
    const table = freshTable('k_race')
    const stores = [pool, sql].map((client) => new PostgresApiKeyStore({ client, table }))
    await stores[0]?.migrate()
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (stores[i % 2] as PostgresApiKeyStore).add('raced-key-0123456789', { i }),
      ),
    )
    expect(new Set(ids).size).toBe(1)
  })
})
