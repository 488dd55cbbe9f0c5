/**
 * shield()'s ban through a PostgresRateLimitStore (DATABASE_URL, default
 * 127.0.0.1:5432/test): two app instances, one on `pg`, one on postgres.js, sharing one table,
 * ban a client together.
 */
import { PostgresRateLimitStore } from '@palisade/middleware/postgres'
import { shield } from '@palisade/middleware/shield'
import { Hono } from 'hono'
import { afterAll, expect, it } from 'vitest'
import { dropStoreTable, pgPool, postgresJs, uniqueTable } from './support'

const pool = pgPool()
const sql = postgresJs()
const table = uniqueTable('shield_ban')

afterAll(async () => {
  await dropStoreTable(pool, table)
  await sql.end()
  await pool.end()
})

function instance(store: PostgresRateLimitStore) {
  const app = new Hono()
  app.use(shield({ ban: { after: 2, windowMs: 60_000, durationMs: 60_000, store } }))
  app.all('*', (c) => c.text('ok'))
  return app
}

it('detections on two instances add up to one ban that both enforce', async () => {
  const first = new PostgresRateLimitStore({ client: pool, table })
  await first.migrate()
  const a = instance(first)
  const b = instance(new PostgresRateLimitStore({ client: sql, table }))
  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } })
  const attack = '/?q=%27%20OR%201%3D1--'
  expect((await a.request(attack, from('198.51.100.7'))).status).toBe(403)
  expect((await b.request('/ok', from('198.51.100.7'))).status).toBe(200)
  expect((await b.request(attack, from('198.51.100.7'))).status).toBe(403)
  expect((await a.request('/ok', from('198.51.100.7'))).status).toBe(403)
  expect((await b.request('/ok', from('198.51.100.7'))).status).toBe(403)
  expect((await a.request('/ok', from('198.51.100.8'))).status).toBe(200)
})
