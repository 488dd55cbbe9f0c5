/**
 * rateLimit's algorithms side by side: the sliding window and the token bucket against the fixed
 * window, per request through `app.fetch`, on the memory store and on Redis (a private
 * redis-server started for the run, so that other work on the shared server neither slows one
 * side nor pollutes its command statistics). Every limiter has a limit no request reaches, so each
 * request is counted and passed.
 *
 * The three cases of a store run in batches, interleaved and rotated round by round, and each
 * ratio is the median of the per-round ratios. Two measures per case:
 * - CPU per request: this process's user+system CPU time (process.cpuUsage) over the batch, plus,
 *   on Redis, the server's own time per script call (INFO commandstats, usec_per_call of EVALSHA).
 *   CPU time does not count the time the process waits for a core, so it holds on a loaded machine;
 *   this is the figure the 1.3x target is checked on.
 * - wall time per request, reported beside it (on Redis it includes the loopback round trip).
 */
import { Hono, type MiddlewareHandler } from 'hono'
import { fmtNs, fmtRatio, settings } from '../lib/measure'
import { loadPalisade } from '../lib/palisade'
import { addRow, addTarget, heading, results, skip } from '../lib/results'

const ALGORITHMS = ['fixed-window', 'sliding-window', 'token-bucket'] as const
type Algorithm = (typeof ALGORITHMS)[number]
const TARGET = 1.3
// A limit no run reaches; the token bucket needs max × windowMs below 2^53.
const MAX = 1_000_000_000
const request = () =>
  new Request('http://localhost/', { headers: { 'x-forwarded-for': '203.0.113.9' } })

function app(limiter: MiddlewareHandler): Hono {
  const a = new Hono()
  a.use('*', limiter)
  a.get('/', (c) => c.text('ok'))
  return a
}

interface Sample {
  wallNs: number
  cpuNs: number
  /** Server time per call in ns (Redis only). */
  serverNs: number
}

export async function runRateLimit(): Promise<void> {
  const p = await loadPalisade()
  if (!p.rateLimit || !p.MemoryRateLimitStore) return skip('rateLimit: module not available')
  const rateLimit = p.rateLimit
  const memory = new p.MemoryRateLimitStore()
  await compareAlgorithms('memory', settings.quick ? 2_000 : 5_000, (algorithm) =>
    app(rateLimit({ max: MAX, algorithm, store: memory })),
  )
  memory.destroy?.()

  let redis: Awaited<ReturnType<typeof privateRedis>> | undefined
  try {
    redis = await privateRedis()
  } catch (error) {
    return skip(`rateLimit on Redis: ${(error as Error).message}`)
  }
  try {
    const store = new redis.RedisRateLimitStore({ sendCommand: redis.send, prefix: 'bench:' })
    await compareAlgorithms(
      'Redis',
      settings.quick ? 500 : 1_500,
      (algorithm) => app(rateLimit({ max: MAX, algorithm, store })),
      redis.serverUsec,
    )
  } finally {
    await redis.close()
  }
  results.notes.push(
    'rateLimit algorithms: each case runs in batches of sequential requests, interleaved and rotated; a ratio is the median of the per-round ratios against the fixed window. "CPU" is this process\'s user+system CPU time per request (process.cpuUsage), plus on Redis the server\'s own time per script call from INFO commandstats of a private redis-server; it is the figure the 1.3x targets use, because CPU time does not grow while the process waits for a core on a loaded machine. Wall time (with the loopback round trip on Redis) is shown beside it.',
  )
}

async function compareAlgorithms(
  storeName: string,
  batch: number,
  make: (algorithm: Algorithm) => Hono,
  serverUsec?: () => Promise<{ calls: number; usec: number }>,
): Promise<void> {
  heading(`rateLimit algorithms, ${storeName} store`)
  const apps = new Map<Algorithm, Hono>()
  for (const algorithm of ALGORITHMS) {
    const a = make(algorithm)
    const res = await a.fetch(request())
    if (res.status !== 200) {
      return skip(`rateLimit ${algorithm} (${storeName}): answered ${res.status}`)
    }
    apps.set(algorithm, a)
  }
  const run = async (algorithm: Algorithm): Promise<Sample> => {
    const a = apps.get(algorithm) as Hono
    const before = serverUsec ? await serverUsec() : undefined
    const cpu = process.cpuUsage()
    const t0 = performance.now()
    for (let i = 0; i < batch; i++) await a.fetch(request())
    const wallNs = ((performance.now() - t0) * 1e6) / batch
    const used = process.cpuUsage(cpu)
    const cpuNs = ((used.user + used.system) * 1e3) / batch
    let serverNs = 0
    if (serverUsec && before) {
      const after = await serverUsec()
      serverNs = ((after.usec - before.usec) * 1e3) / Math.max(1, after.calls - before.calls)
    }
    return { wallNs, cpuNs, serverNs }
  }
  // Warm every side alike first, so the one measured first does not pay for the JIT.
  for (const algorithm of ALGORITHMS) await run(algorithm)
  const rounds = settings.quick ? 6 : 16
  const samples = new Map<Algorithm, Sample[]>(ALGORITHMS.map((a) => [a, []]))
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < ALGORITHMS.length; k++) {
      const algorithm = ALGORITHMS[(k + round) % ALGORITHMS.length] as Algorithm
      samples.get(algorithm)?.push(await run(algorithm))
    }
  }
  const cost = (s: Sample) => s.cpuNs + s.serverNs
  const fixed = samples.get('fixed-window') as Sample[]
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    const n = s.length
    return n % 2 ? (s[n >> 1] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2
  }
  const describe = (list: Sample[]) => {
    const server = serverUsec ? ` + Redis ${fmtNs(median(list.map((s) => s.serverNs)))}` : ''
    return `CPU ${fmtNs(median(list.map((s) => s.cpuNs)))}${server}; wall ${fmtNs(median(list.map((s) => s.wallNs)))}`
  }
  addRow({
    table: 'components',
    name: `rateLimit fixed-window, ${storeName} store`,
    ns: median(fixed.map(cost)),
    value: describe(fixed),
  })
  for (const algorithm of ALGORITHMS.slice(1)) {
    const list = samples.get(algorithm) as Sample[]
    const cpuRatio = median(list.map((s, i) => cost(s) / cost(fixed[i] as Sample)))
    const wallRatio = median(list.map((s, i) => s.wallNs / (fixed[i] as Sample).wallNs))
    addRow({
      table: 'components',
      name: `rateLimit ${algorithm}, ${storeName} store`,
      ns: median(list.map(cost)),
      value: describe(list),
      ratio: cpuRatio,
      vs: 'fixed window (CPU)',
      note: `wall ${fmtRatio(wallRatio)} of fixed window`,
    })
    addTarget({
      goal: `rateLimit ${algorithm} within ${TARGET}x of fixed window (${storeName} store)`,
      measured: `${fmtRatio(cpuRatio)} CPU per request (wall ${fmtRatio(wallRatio)})`,
      met: cpuRatio <= TARGET,
    })
  }
}

/**
 * A throwaway redis-server on a free port, the Redis store (`@palisade/middleware/redis`), and a reader of the
 * server's EVALSHA statistics. Needs `redis-server` on the PATH.
 */
async function privateRedis() {
  const support = await import('../../tests/redis/support.ts')
  const mod = (await import('@palisade/middleware/redis')) as {
    RedisRateLimitStore: new (options: { sendCommand: unknown; prefix: string }) => object
    fromIoredis: (client: unknown) => (args: string[]) => Promise<unknown>
  }
  const server = await support.startRedisServer(await support.freePort())
  const client = support.ioredisClient(server.url)
  const send = mod.fromIoredis(client)
  return {
    RedisRateLimitStore: mod.RedisRateLimitStore,
    send,
    async serverUsec(): Promise<{ calls: number; usec: number }> {
      const info = String(await send(['INFO', 'commandstats']))
      const line = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(info)
      return { calls: Number(line?.[1] ?? 0), usec: Number(line?.[2] ?? 0) }
    },
    async close() {
      client.disconnect()
      await server.kill()
    },
  }
}
