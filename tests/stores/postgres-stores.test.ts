/**
 * The PostgreSQL stores against the conformance suite, once through each supported driver (`pg`
 * and postgres.js), on a real PostgreSQL (`DATABASE_URL`, default 127.0.0.1:5432/test). Every
 * store gets a table of its own, created by its migrate() and dropped after the test.
 */
import {
  PostgresApiKeyStore,
  type PostgresClient,
  PostgresConcurrencyStore,
  PostgresIdempotencyStore,
  PostgresNonceStore,
  PostgresRateLimitStore,
  PostgresSessionStore,
} from '@palisade/middleware/postgres'
import { afterAll } from 'vitest'
import {
  dropStoreTable,
  pgPool,
  postgresJs,
  tablesWithPrefix,
  uniqueTable,
} from '../postgres/support'
import { apiKeyLifecycleConformance } from './api-key-lifecycle-conformance'
import { concurrencyStoreConformance } from './concurrency-conformance'
import {
  apiKeyStoreConformance,
  rateLimitStoreConformance,
  sessionStoreConformance,
} from './conformance'
import { denyCacheResetConformance } from './deny-cache-conformance'
import { concurrencyHostileConformance, rateLimitHostileConformance } from './hostile-conformance'
import { idempotencyStoreConformance } from './idempotency-conformance'
import { nonceStoreConformance } from './nonce-conformance'

const pool = pgPool()
const sql = postgresJs()
const label = uniqueTable('conf').slice('palisade_t_'.length)

afterAll(async () => {
  // Every test dropped its own table; anything left under this run's names is a leak.
  const leftovers = await tablesWithPrefix(pool, `palisade_t_${label}`)
  await sql.end()
  await pool.end()
  if (leftovers.length > 0) throw new Error(`tables left behind: ${leftovers.join(', ')}`)
})

const clients: Array<[string, PostgresClient]> = [
  ['pg', pool],
  ['postgres.js', sql],
]

let counter = 0

/** A store on a fresh table, migrated; it carries the table name so the test can drop it. */
async function onFreshTable<S extends { migrate(): Promise<void> }>(
  make: (options: { client: PostgresClient; table: string }) => S,
  client: PostgresClient,
): Promise<S & { readonly testTable: string }> {
  const table = `palisade_t_${label}_${++counter}`
  const store = make({ client, table })
  await store.migrate()
  return Object.assign(store, { testTable: table })
}

const release = (store: { testTable: string }) => dropStoreTable(pool, store.testTable)

for (const [driver, client] of clients) {
  rateLimitStoreConformance(
    `PostgresRateLimitStore via ${driver}`,
    () => onFreshTable((o) => new PostgresRateLimitStore(o), client),
    { release, capabilities: ['slidingWindow', 'tokenBucket', 'decrement', 'consume'] },
  )
  sessionStoreConformance(
    `PostgresSessionStore via ${driver}`,
    () => onFreshTable((o) => new PostgresSessionStore(o), client),
    { release, update: true },
  )
  idempotencyStoreConformance(
    `PostgresIdempotencyStore via ${driver}`,
    () => onFreshTable((o) => new PostgresIdempotencyStore(o), client),
    { release },
  )
  concurrencyStoreConformance(
    `PostgresConcurrencyStore via ${driver}`,
    () => onFreshTable((o) => new PostgresConcurrencyStore(o), client),
    { release },
  )
  rateLimitHostileConformance(
    `PostgresRateLimitStore via ${driver}`,
    () => onFreshTable((o) => new PostgresRateLimitStore(o), client),
    { release },
  )
  denyCacheResetConformance(
    `PostgresRateLimitStore via ${driver}`,
    () => onFreshTable((o) => new PostgresRateLimitStore(o), client),
    { release },
  )
  concurrencyHostileConformance(
    `PostgresConcurrencyStore via ${driver}`,
    () => onFreshTable((o) => new PostgresConcurrencyStore(o), client),
    { release },
  )
  nonceStoreConformance(
    `PostgresNonceStore via ${driver}`,
    () => onFreshTable((o) => new PostgresNonceStore(o), client),
    { release },
  )
  apiKeyStoreConformance(
    `PostgresApiKeyStore via ${driver}`,
    () => onFreshTable((o) => new PostgresApiKeyStore(o), client),
    {
      release,
      dump: async (store) => {
        const { rows } = await pool.query(`SELECT * FROM ${store.testTable}`)
        return JSON.stringify(rows)
      },
    },
  )
  // The peer is another instance through the other driver (its own connections).
  const other = clients.find(([name]) => name !== driver)?.[1] as PostgresClient
  apiKeyLifecycleConformance(
    `PostgresApiKeyStore via ${driver}`,
    () => onFreshTable((o) => new PostgresApiKeyStore(o), client),
    {
      release,
      dump: async (store) =>
        JSON.stringify((await pool.query(`SELECT * FROM ${store.testTable}`)).rows),
      peer: (store) => new PostgresApiKeyStore({ client: other, table: store.testTable }),
      racer: (store) => new PostgresApiKeyStore({ client: other, table: store.testTable }),
    },
  )
}
