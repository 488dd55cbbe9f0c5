/**
 * Stores side by side (`pnpm bench --only=stores`): increments per second (one at a time, and 32
 * in flight over 100 keys), p50/p99 latency of one increment, and what `rateLimit({ store })` adds
 * to a request, for every RateLimitStore on its real backend: memory; Redis (REDIS_URL, default
 * 127.0.0.1:6379); a six-node Redis Cluster started for the run; PostgreSQL (DATABASE_URL, default
 * 127.0.0.1:5432/test) through pg and postgres.js; a Durable Object inside workerd
 * (miniflare); Deno KV inside Deno (in-memory `Deno.openKv(':memory:')`). Each is timed inside its
 * own runtime (bench/lib/store-bench.ts). Writes its section into RESULTS.md between markers, and
 * a full report keeps it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { type PostgresClient, PostgresRateLimitStore } from '@palisade/middleware/postgres'
import { MemoryRateLimitStore } from '@palisade/middleware/rate-limit'
import { fromIoredis, RedisRateLimitStore } from '@palisade/middleware/redis'
import { startWorker } from '../../tests/cloudflare/support'
import { startDenoServer } from '../../tests/deno-kv/support'
import { dropStoreTable, pgPool, postgresJs, uniqueTable } from '../../tests/postgres/support'
import { deleteByPrefix, ioredisClient, uniquePrefix } from '../../tests/redis/support'
import { ioredisCluster, startCluster } from '../../tests/redis-cluster/cluster'
import { writeMarkdown } from '../lib/markdown'
import { benchStore, type StoreBenchResult } from '../lib/store-bench'

export const STORES_START = '<!-- stores:start -->'
export const STORES_END = '<!-- stores:end -->'

interface Measured {
  store: string
  backend: string
  result?: StoreBenchResult
  error?: string
}

async function measure(
  store: string,
  backend: string,
  run: () => Promise<StoreBenchResult>,
): Promise<Measured> {
  process.stdout.write(`  ${store} (${backend}) … `)
  try {
    const result = await run()
    console.log(
      `${Math.round(result.sequentialPerSec)}/s sequential, ${Math.round(result.concurrentPerSec)}/s ×${result.concurrency}, p99 ${result.p99Ms.toFixed(2)} ms`,
    )
    return { store, backend, result }
  } catch (error) {
    console.log(`not measured: ${(error as Error).message}`)
    return { store, backend, error: (error as Error).message.split('\n')[0] }
  }
}

const fmt = (v: number, digits = 0) =>
  v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
const ms = (v: number) => (v < 1 ? `${(v * 1000).toFixed(0)} µs` : `${v.toFixed(2)} ms`)

function table(rows: Measured[]): string {
  const redis = rows.find((r) => r.store === 'RedisRateLimitStore')?.result
  const lines = [
    '| Store | Backend | increments/s, one at a time | increments/s, 32 in flight | vs Redis (32 in flight) | p50 | p99 | rateLimit overhead per request |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const { store, backend, result, error } of rows) {
    if (!result) {
      lines.push(`| ${store} | ${backend} | not measured: ${error} | | | | | |`)
      continue
    }
    const vsRedis = redis
      ? `${(result.concurrentPerSec / redis.concurrentPerSec).toFixed(2)}x`
      : '–'
    lines.push(
      `| ${store} | ${backend} | ${fmt(result.sequentialPerSec)} | ${fmt(result.concurrentPerSec)} | ${vsRedis} | ${ms(result.p50Ms)} | ${ms(result.p99Ms)} | ${ms(Math.max(result.rateLimitOverheadMs, 0))} |`,
    )
  }
  return lines.join('\n')
}

export async function runStores(quick: boolean): Promise<void> {
  console.log('\nStores (increments; rateLimit overhead)')
  const n = quick ? 500 : 4000
  const remoteN = quick ? 300 : 2000
  const rows: Measured[] = []

  rows.push(
    await measure('MemoryRateLimitStore', 'this process', async () => {
      const store = new MemoryRateLimitStore()
      try {
        return await benchStore(store, 'mem', n * 5, 32)
      } finally {
        store.destroy()
      }
    }),
  )

  rows.push(
    await measure('RedisRateLimitStore', 'one Redis 7, loopback, ioredis', async () => {
      const client = ioredisClient()
      const prefix = uniquePrefix('bench')
      try {
        return await benchStore(
          new RedisRateLimitStore({ sendCommand: fromIoredis(client), prefix }),
          'r',
          n,
          32,
        )
      } finally {
        await deleteByPrefix(fromIoredis(client), prefix)
        client.disconnect()
      }
    }),
  )

  for (const driver of ['pg', 'postgres.js'] as const) {
    rows.push(
      await measure(
        'PostgresRateLimitStore',
        `PostgreSQL 15, loopback, ${driver} (pool of 10)`,
        async () => {
          const admin = pgPool()
          const pool = driver === 'pg' ? pgPool() : undefined
          const sql = driver === 'postgres.js' ? postgresJs() : undefined
          const table = uniqueTable('bench')
          try {
            const store = new PostgresRateLimitStore({
              client: (pool ?? sql) as PostgresClient,
              table,
            })
            await store.migrate()
            return await benchStore(store, 'p', n, 32)
          } finally {
            await pool?.end()
            await sql?.end()
            await dropStoreTable(admin, table)
            await admin.end()
          }
        },
      ),
    )
  }

  rows.push(
    await measure(
      'RedisRateLimitStore',
      'Redis Cluster (3 masters + 3 replicas), ioredis Cluster',
      async () => {
        const cluster = await startCluster()
        const client = await ioredisCluster(cluster)
        try {
          const store = new RedisRateLimitStore({
            sendCommand: fromIoredis(client),
            prefix: 'bench:',
          })
          return await benchStore(store, 'c', n, 32)
        } finally {
          client.disconnect()
          await cluster.stop()
        }
      },
    ),
  )

  rows.push(
    await measure(
      'DurableObjectRateLimitStore',
      'workerd (miniflare), timed inside the Worker',
      async () => {
        const worker = await startWorker()
        try {
          const res = await worker.fetch(`/bench?n=${remoteN}`)
          if (!res.ok) throw new Error(`worker answered ${res.status}: ${await res.text()}`)
          return (await res.json()) as StoreBenchResult
        } finally {
          await worker.dispose()
        }
      },
    ),
  )

  rows.push(
    await measure(
      'DenoKvRateLimitStore',
      'Deno 2, Deno.openKv(":memory:"), timed inside Deno',
      async () => {
        const server = await startDenoServer()
        try {
          const res = await server.fetch(`/bench?n=${remoteN}`)
          if (!res.ok) throw new Error(`deno answered ${res.status}: ${await res.text()}`)
          return (await res.json()) as StoreBenchResult
        } finally {
          await server.stop()
        }
      },
    ),
  )

  const section = [
    STORES_START,
    '## Stores side by side',
    '',
    `Generated by \`pnpm bench --only=stores\` on ${new Date().toISOString()}${quick ? ' (quick)' : ''}. Each store is timed inside the runtime it runs in: increments of one key one at a time (p50/p99 of those), then the same count with 32 in flight over 100 keys; "rateLimit overhead" is the extra time per \`app.request()\` of an app with \`rateLimit({ store })\` over the same app without it. workerd's clock only moves on I/O, so its times are whole milliseconds. Redis, the cluster, workerd and Deno all run on this (shared, 2-core) machine over loopback: real deployments add network latency to every remote store, and a Durable Object call from another location crosses the network to the object.`,
    '',
    table(rows),
    STORES_END,
  ].join('\n')
  const file = new URL('../RESULTS.md', import.meta.url)
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n'
  const start = current.indexOf(STORES_START)
  const end = current.indexOf(STORES_END)
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + section + current.slice(end + STORES_END.length)
      : `${current.trimEnd()}\n\n${section}\n`
  writeMarkdown(file, next)
  console.log('stores section written to RESULTS.md')
}
