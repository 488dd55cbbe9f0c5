/**
 * Two separate processes of the example app on two ports, sharing one Redis (REDIS_URL, default
 * 127.0.0.1:6379) under one prefix: the rate limit, sessions and API keys must behave as if there
 * were one instance. Instance A talks to Redis through ioredis, instance B through node-redis, so
 * the two adapters are also shown to agree on the data they write.
 */
import { createApiKey } from '@palisade/middleware/api-key'
import { fromIoredis, RedisApiKeyStore } from '@palisade/middleware/redis'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  deleteByPrefix,
  type ExampleServer,
  freePort,
  ioredisClient,
  keysWithPrefix,
  REDIS_URL,
  startExampleServer,
  uniquePrefix,
} from './support'

const prefix = uniquePrefix('multi')
const client = ioredisClient()
const redis = fromIoredis(client)
let a: ExampleServer
let b: ExampleServer

const env = (port: number, redisClient: string) => ({
  PORT: String(port),
  REDIS_URL,
  REDIS_PREFIX: prefix,
  REDIS_CLIENT: redisClient,
  RATE_LIMIT_MAX: '50',
  // Instances must share the cookie-signing secret, or a session cookie from one is forged for
  // the other.
  SESSION_SECRET: 'multi-instance-test-secret-0123456789abcdef',
})

beforeAll(async () => {
  const [portA, portB] = [await freePort(), await freePort()]
  ;[a, b] = await Promise.all([
    startExampleServer(env(portA, 'ioredis')),
    startExampleServer(env(portB, 'node-redis')),
  ])
})

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
  await deleteByPrefix(redis, prefix)
  client.disconnect()
})

// `/api/*` is rate limited by client IP, and every request here comes from 127.0.0.1: start each
// test with fresh counters so the tests do not spend each other's budget.
beforeEach(async () => {
  await deleteByPrefix(redis, `${prefix}rl:`)
})

describe('two example-app processes sharing one Redis', () => {
  it('starts both instances, each answering /health', async () => {
    for (const server of [a, b]) expect((await fetch(`${server.url}/health`)).status).toBe(200)
    expect(a.url).not.toBe(b.url)
  })

  it('reads and changes a session created on one instance through the other', async () => {
    const first = await fetch(`${a.url}/api/session/visit`)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ visits: 1 })
    const setCookie = first.headers.get('set-cookie') ?? ''
    const sid = /\bsid=([^;]+)/.exec(setCookie)?.[1]
    expect(sid).toBeTruthy()
    const cookie = `sid=${sid}`

    const visits: unknown[] = []
    for (const server of [b, a, b]) {
      const res = await fetch(`${server.url}/api/session/visit`, { headers: { cookie } })
      expect(res.status).toBe(200)
      visits.push(await res.json())
    }
    expect(visits).toEqual([{ visits: 2 }, { visits: 3 }, { visits: 4 }])

    // One session entry in Redis, with an expiry.
    const entries = await keysWithPrefix(redis, `${prefix}sess:`)
    expect(entries).toHaveLength(1)
    expect(JSON.parse((await client.get(entries[0] as string)) ?? 'null')).toMatchObject({
      visits: 4,
    })
    expect(await client.pttl(entries[0] as string)).toBeGreaterThan(0)
  })

  it('accepts an API key created once on both instances, and refuses it on both once revoked', async () => {
    const keys = new RedisApiKeyStore({ sendCommand: redis, prefix: `${prefix}key:` })
    const whoami = (server: ExampleServer, presented: string) =>
      fetch(`${server.url}/api/keys/whoami`, { headers: { 'x-api-key': presented } })

    const { id, key } = await createApiKey({
      store: keys,
      prefix: 'pal_demo',
      metadata: { owner: 'multi-instance-test' },
    })
    const typo = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`
    for (const server of [a, b]) {
      const res = await whoami(server, key)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ id, metadata: { owner: 'multi-instance-test' } })
      expect((await whoami(server, typo)).status).toBe(401)
    }

    expect(await keys.revoke(id)).toBe(true)
    for (const server of [a, b]) {
      const res = await whoami(server, key)
      expect(res.status).toBe(401)
      expect(((await res.json()) as { code: string }).code).toBe('api_key_revoked')
    }
  })

  // Runs after the other tests: once refused, 127.0.0.1 is remembered by each instance's deny
  // cache until the window ends, which deleting the Redis counters (beforeEach) cannot undo.
  it('lets exactly 50 of 200 concurrent requests split across both through against max 50', async () => {
    const requests = Array.from({ length: 200 }, (_, i) =>
      fetch(`${(i % 2 === 0 ? a : b).url}/api/ping`).then(async (res) => {
        await res.arrayBuffer()
        return { instance: i % 2 === 0 ? 'a' : 'b', status: res.status }
      }),
    )
    const results = await Promise.all(requests)
    const count = (status: number, instance?: string) =>
      results.filter((r) => r.status === status && (!instance || r.instance === instance)).length
    const figures = {
      ok: count(200),
      limited: count(429),
      okA: count(200, 'a'),
      okB: count(200, 'b'),
    }
    console.info(`multi-instance burst: ${JSON.stringify(figures)}`)
    expect(figures.ok).toBe(50)
    expect(figures.limited).toBe(150)
    // One counter in Redis, and it expires with the window. It saw the 50 that passed and the
    // refusals that reached Redis before each instance's deny cache learnt the refusal; the rest
    // were answered in process, without a round trip.
    const counters = await keysWithPrefix(redis, `${prefix}rl:`)
    expect(counters).toHaveLength(1)
    const seen = Number(await client.get(counters[0] as string))
    console.info(`multi-instance burst: Redis counted ${seen} of 200 requests`)
    expect(seen).toBeGreaterThan(50)
    expect(seen).toBeLessThanOrEqual(200)
    const pttl = await client.pttl(counters[0] as string)
    expect(pttl).toBeGreaterThan(0)
    expect(pttl).toBeLessThanOrEqual(60_000)
  })

  it('kept both processes running throughout', () => {
    expect(a.alive()).toBe(true)
    expect(b.alive()).toBe(true)
  })
})
