/**
 * Three separate processes of one app (tests/postgres/instance.ts) share one PostgreSQL: two
 * talk to it through `pg`, one through postgres.js. 300 concurrent requests against `max` 137,
 * spread over the three, let exactly 137 through, for each algorithm and through consume()
 * (two limits; a cost of 3 against 411): the store never lets two
 * requests share a count, across connections, drivers and processes. A session is then changed
 * through each instance in turn.
 */
import { PostgresRateLimitStore, PostgresSessionStore } from '@palisade/middleware/postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ExampleServer, startServerProcess } from '../redis/support'
import { DATABASE_URL, dropStoreTable, pgPool, uniqueTable } from './support'

const pool = pgPool()
const RL_TABLE = uniqueTable('exact_rl')
const SESSION_TABLE = uniqueTable('exact_s')

const startInstance = (driver: string) =>
  startServerProcess('tests/postgres/instance.ts', {
    DATABASE_URL,
    DRIVER: driver,
    RL_TABLE,
    SESSION_TABLE,
  })

let instances: ExampleServer[] = []

beforeAll(async () => {
  // Tables come from migrate(), run once, as a deploy step would.
  await new PostgresRateLimitStore({ client: pool, table: RL_TABLE }).migrate()
  await new PostgresSessionStore({ client: pool, table: SESSION_TABLE }).migrate()
  instances = await Promise.all(['pg', 'postgres.js', 'pg'].map(startInstance))
})

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()))
  await dropStoreTable(pool, RL_TABLE)
  await dropStoreTable(pool, SESSION_TABLE)
  await pool.end()
})

describe('three app processes sharing one PostgreSQL', () => {
  it.each([
    ['fixed window', 'fixed'],
    ['sliding window', 'sliding'],
    ['token bucket', 'bucket'],
    ['consume, two limits checked together', 'limits'],
    ['consume, cost 3 against max 411', 'cost'],
  ])('%s: exactly 137 of 300 concurrent requests pass against max 137', async (_label, path) => {
    const started = Date.now()
    const statuses = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const res = await fetch(`${instances[i % 3]?.url}/${path}`)
        await res.arrayBuffer()
        return { status: res.status, remaining: res.headers.get('RateLimit-Remaining') }
      }),
    )
    const ms = Date.now() - started
    const ok = statuses.filter((s) => s.status === 200)
    const limited = statuses.filter((s) => s.status === 429)
    console.info(
      `postgres exactness (${path}): ${ok.length} passed, ${limited.length} limited, ${ms} ms`,
    )
    expect(ok).toHaveLength(137)
    expect(limited).toHaveLength(163)
    // Each passing request saw a count of its own: the remaining values 0..136 (in units of 3
    // for the cost route), once each.
    const unit = path === 'cost' ? 3 : 1
    expect(ok.map((s) => Number(s.remaining)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 137 }, (_, i) => i * unit),
    )
  })

  it('reads and changes one session through each instance in turn', async () => {
    const first = await fetch(`${instances[0]?.url}/session/visit`)
    const cookie = (first.headers.getSetCookie()[0] ?? '').split(';')[0] as string
    expect(await first.json()).toEqual({ visits: 1 })
    const visits = []
    for (const instance of [instances[1], instances[2], instances[0]]) {
      const res = await fetch(`${instance?.url}/session/visit`, { headers: { cookie } })
      visits.push(await res.json())
    }
    expect(visits).toEqual([{ visits: 2 }, { visits: 3 }, { visits: 4 }])
  })
})
