/**
 * Redis stops in the middle of a test. Each block runs its own throwaway redis-server on a free
 * port (the shared server other tests use is never touched), SIGKILLs it, and restarts it on the
 * same port. Both supported clients are exercised, with the connection settings of
 * examples/stores.ts (no offline queue, endless reconnects, an 'error' listener).
 *
 * Shown for each client:
 * - rateLimit fails closed by default (503 `Rate limit store unavailable`) and open with failOpen;
 * - sessions answers 503 `Session store unavailable`, sets no cookie and writes nothing partial;
 * - neither the app nor the example server process crashes;
 * - when Redis is back, requests succeed again with the same clients and processes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rateLimit } from '@palisade/middleware/rate-limit'
import { sessions } from '@palisade/middleware/sessions'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppStores, createStores } from '../../examples/stores'
import {
  type ExampleServer,
  freePort,
  type RedisServerProcess,
  sleep,
  startExampleServer,
  startRedisServer,
  until,
} from './support'

const SECRET = 'faults-test-secret-0123456789abcdef0123'

const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
process.on('unhandledRejection', onUnhandled)
afterAll(() => {
  process.off('unhandledRejection', onUnhandled)
})

const sidOf = (res: Response) => /\bsid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1]

describe.each(['ioredis', 'node-redis'])('Redis outage in-process, via %s', (redisClient) => {
  let dir: string
  let port: number
  let redis: RedisServerProcess
  let stores: AppStores
  let handlerRuns = 0
  const storeErrors: unknown[] = []
  const app = new Hono()

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palisade-faults-'))
    port = await freePort()
    redis = await startRedisServer(port, { dir })
    stores = await createStores({
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'faults:',
      REDIS_CLIENT: redisClient,
    })
    const { rateLimitStore, sessionStore } = stores
    app.use('/closed/*', rateLimit({ max: 1_000, store: rateLimitStore }))
    app.use(
      '/open/*',
      rateLimit({
        max: 1_000,
        store: rateLimitStore,
        failOpen: true,
        onStoreError: (error) => storeErrors.push(error),
      }),
    )
    app.get('/closed/ping', (c) => c.text('ok'))
    app.get('/open/ping', (c) => c.text('ok'))
    app.use('/s/*', sessions({ secret: SECRET, store: sessionStore }))
    app.get('/s/visit', (c) => {
      handlerRuns++
      const session = c.get('session')
      const visits = (session.get<number>('visits') ?? 0) + 1
      session.set('visits', visits)
      return c.json({ visits })
    })
    // Redis dies while the handler runs: after the session was read, before it is saved.
    app.get('/s/visit-then-redis-dies', async (c) => {
      const session = c.get('session')
      session.set('visits', (session.get<number>('visits') ?? 0) + 1)
      await redis.kill()
      return c.json({ visits: session.get('visits') })
    })
  })

  afterAll(async () => {
    await stores?.close()
    await redis?.kill()
    rmSync(dir, { recursive: true, force: true })
  })

  const get = (path: string, sid?: string) =>
    app.request(path, sid ? { headers: { cookie: `sid=${sid}` } } : {})
  const restart = async () => {
    redis = await startRedisServer(port, { dir })
  }
  /** Writes Redis's data to dump.rdb, so a restarted server starts from this state. */
  const snapshot = () => saveRdb(redis.url)
  let sid: string | undefined

  it('works while Redis is up, and the session is saved to disk before the outage', async () => {
    expect((await get('/closed/ping')).status).toBe(200)
    expect((await get('/open/ping')).status).toBe(200)
    const first = await get('/s/visit')
    sid = sidOf(first)
    expect(sid).toBeTruthy()
    expect(await (await get('/s/visit', sid)).json()).toEqual({ visits: 2 })
    await snapshot()
  })

  it('rateLimit fails closed by default: 503 with a clear message while Redis is down', async () => {
    await redis.kill()
    const responses = await Promise.all(Array.from({ length: 20 }, () => get('/closed/ping')))
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(503))
    expect(await responses[0]?.text()).toBe('Rate limit store unavailable')
    expect(responses[0]?.headers.get('RateLimit-Remaining')).toBeNull()
  })

  it('rateLimit with failOpen lets requests through and reports the store error', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => get('/open/ping')))
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200))
    expect(storeErrors.length).toBeGreaterThan(0)
  })

  it('sessions answers 503 before the handler runs when the session cannot be read', async () => {
    const runs = handlerRuns
    const res = await get('/s/visit', sid)
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('Session store unavailable')
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(handlerRuns).toBe(runs)
  })

  it('sessions answers 503 and sets no cookie when a new session cannot be saved', async () => {
    const runs = handlerRuns
    const res = await get('/s/visit')
    expect(handlerRuns).toBe(runs + 1)
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('Session store unavailable')
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('recovers without a restart of the app once Redis is back, with the session as it was', async () => {
    await restart()
    await until(async () => (await get('/closed/ping')).status === 200)
    expect((await get('/open/ping')).status).toBe(200)
    // The failed requests during the outage changed nothing: visit 3 follows visit 2.
    const res = await get('/s/visit', sid)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ visits: 3 })
    expect(sidOf(res)).toBe(sid)
    await snapshot()
  })

  it('answers 503 with no cookie when Redis dies between reading and saving a session', async () => {
    const res = await get('/s/visit-then-redis-dies', sid)
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('Session store unavailable')
    expect(res.headers.get('set-cookie')).toBeNull()
    await restart()
    await until(async () => (await get('/closed/ping')).status === 200)
    expect(await (await get('/s/visit', sid)).json()).toEqual({ visits: 4 })
  })

  it('raised no unhandled rejection', () => {
    expect(unhandled).toEqual([])
  })
})

/** SAVE through a short-lived connection of its own (the app's client is not the test's tool). */
async function saveRdb(url: string): Promise<void> {
  const { Redis } = await import('ioredis')
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  client.on('error', () => {})
  try {
    expect(await client.save()).toBe('OK')
  } finally {
    client.disconnect()
  }
}

describe.each(['ioredis', 'node-redis'])(
  'Redis outage under the example server, via %s',
  (redisClient) => {
    let dir: string
    let port: number
    let redis: RedisServerProcess
    let server: ExampleServer

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'palisade-faults-'))
      port = await freePort()
      redis = await startRedisServer(port, { dir })
      server = await startExampleServer({
        PORT: String(await freePort()),
        REDIS_URL: redis.url,
        REDIS_PREFIX: 'faults-server:',
        REDIS_CLIENT: redisClient,
        RATE_LIMIT_MAX: '1000',
        SESSION_SECRET: SECRET,
      })
    })

    afterAll(async () => {
      await server?.stop()
      await redis?.kill()
      rmSync(dir, { recursive: true, force: true })
    })

    const status = async (path: string) => {
      const res = await fetch(`${server.url}${path}`)
      await res.arrayBuffer()
      return res.status
    }

    it('keeps the process alive through an outage and recovers without a restart', async () => {
      expect(await status('/api/ping')).toBe(200)
      expect(await status('/api/session/visit')).toBe(200)

      await redis.kill()
      const outageStart = Date.now()
      const during = await Promise.all([
        ...Array.from({ length: 20 }, () => status('/api/ping')),
        status('/api/session/visit'),
      ])
      const answeredIn = Date.now() - outageStart
      expect(during).toEqual(Array(21).fill(503))
      expect(await status('/health')).toBe(200)
      // Give the client time to fail its reconnects: an unhandled 'error' event would crash now.
      await sleep(1_500)
      expect(server.alive()).toBe(true)
      expect(await status('/api/ping')).toBe(503)

      await startRedisServer(port, { dir }).then((r) => {
        redis = r
      })
      const recoveredIn = await until(async () => (await status('/api/ping')) === 200)
      console.info(
        `example server (${redisClient}): 21 requests during the outage answered 503 in ${answeredIn} ms; served again ${recoveredIn} ms after Redis restarted`,
      )
      expect(await status('/api/session/visit')).toBe(200)
      expect(server.alive()).toBe(true)
    })
  },
)
