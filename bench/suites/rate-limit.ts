/**
 * rateLimit's algorithms side by side: the sliding window and the token bucket against the fixed
 * window, per request through `app.fetch`, on the memory store and on Redis (the shared server,
 * REDIS_URL or 127.0.0.1:6379, under a unique prefix that is deleted afterwards). Every limiter
 * has a limit no request reaches, so each request is counted and passed. The three cases of a
 * store are measured in one interleaved run; the ratios are paired per round.
 */
import { randomUUID } from 'node:crypto'
import { Hono, type MiddlewareHandler } from 'hono'
import { fmtNs, fmtRatio, measureAll, pairedRatio, type Timing } from '../lib/measure'
import { loadPalisade } from '../lib/palisade'
import { addRow, addTarget, heading, skip } from '../lib/results'

const ALGORITHMS = ['fixed-window', 'sliding-window', 'token-bucket'] as const
const TARGET = 1.3
// A limit no run reaches; the token bucket needs max × windowMs below 2^53.
const MAX = 1_000_000_000
const request = () =>
  new Request('http://localhost/', { headers: { 'x-forwarded-for': '203.0.113.9' } })

type Store = object

function app(limiter: MiddlewareHandler): Hono {
  const a = new Hono()
  a.use('*', limiter)
  a.get('/', (c) => c.text('ok'))
  return a
}

export async function runRateLimit(): Promise<void> {
  const p = await loadPalisade()
  if (!p.rateLimit || !p.MemoryRateLimitStore) return skip('rateLimit: module not available')
  const rateLimit = p.rateLimit
  const memory = new p.MemoryRateLimitStore()
  await compareAlgorithms('memory', (algorithm) =>
    app(rateLimit({ max: MAX, algorithm, store: memory })),
  )
  memory.destroy?.()

  let redis: Awaited<ReturnType<typeof connectRedis>> | undefined
  try {
    redis = await connectRedis()
  } catch (error) {
    return skip(`rateLimit on Redis: ${(error as Error).message}`)
  }
  try {
    const store = new redis.RedisRateLimitStore({ sendCommand: redis.send, prefix: redis.prefix })
    await compareAlgorithms('Redis', (algorithm) => app(rateLimit({ max: MAX, algorithm, store })))
  } finally {
    await redis.close()
  }
}

async function compareAlgorithms(
  storeName: string,
  make: (algorithm: (typeof ALGORITHMS)[number]) => Hono,
): Promise<void> {
  heading(`rateLimit algorithms, ${storeName} store`)
  const cases: Array<[string, () => unknown]> = []
  for (const algorithm of ALGORITHMS) {
    const a = make(algorithm as (typeof ALGORITHMS)[number])
    const res = await a.fetch(request())
    if (res.status !== 200)
      return skip(`rateLimit ${algorithm} (${storeName}): answered ${res.status}`)
    cases.push([`rateLimit ${algorithm}, ${storeName} store`, () => a.fetch(request())])
  }
  // Warm every side alike first, so the one measured first does not pay for the JIT.
  for (let i = 0; i < 300; i++) for (const [, fn] of cases) await fn()
  const timings = await measureAll(cases)
  const fixed = timings[0] as Timing
  addRow({ table: 'components', name: fixed.name, ns: fixed.avg })
  for (const t of timings.slice(1)) {
    const ratio = pairedRatio(t, fixed)
    addRow({
      table: 'components',
      name: t.name,
      ns: t.avg,
      ratio,
      vs: 'fixed window',
      note: `${t.avg >= fixed.avg ? '+' : '−'}${fmtNs(Math.abs(t.avg - fixed.avg))}`,
    })
    const algorithm = t.name.replace(/^rateLimit (\S+),.*$/, '$1')
    addTarget({
      goal: `rateLimit ${algorithm} within ${TARGET}x of fixed window (${storeName} store)`,
      measured: `${fmtRatio(ratio)} (${fmtNs(t.avg)} vs ${fmtNs(fixed.avg)} per request)`,
      met: ratio <= TARGET,
    })
  }
}

/** The Redis store from source and an ioredis client from the test support, if Redis answers. */
async function connectRedis() {
  const support = await import('../../tests/redis/support.ts')
  const mod = (await import('../../packages/middleware/src/redis/index.ts')) as {
    RedisRateLimitStore: new (options: { sendCommand: unknown; prefix: string }) => Store
    fromIoredis: (client: unknown) => (args: string[]) => Promise<unknown>
  }
  const client = support.ioredisClient()
  const send = mod.fromIoredis(client)
  await Promise.race([
    send(['PING']),
    new Promise((_, reject) => setTimeout(() => reject(new Error('Redis did not answer')), 2_000)),
  ])
  const prefix = `palisade-bench:${process.pid}:${randomUUID().slice(0, 8)}:`
  return {
    RedisRateLimitStore: mod.RedisRateLimitStore,
    send,
    prefix,
    async close() {
      await support.deleteByPrefix(send, prefix)
      client.disconnect()
    },
  }
}
