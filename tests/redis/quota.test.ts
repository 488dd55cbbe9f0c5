/**
 * quota() on a real Redis: one round trip per call, one count shared by two instances of the app,
 * and a new period on both at the same instant.
 */
import { quota } from '@palisade/middleware/quota'
import { fromIoredis, type RedisCommand, RedisRateLimitStore } from '@palisade/middleware/redis'
import { Hono } from 'hono'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { deleteByPrefix, ioredisClient, uniquePrefix } from './support'

const client = ioredisClient()
const redis = fromIoredis(client)
const prefix = uniquePrefix('quota')

afterEach(() => {
  vi.useRealTimers()
})
afterAll(async () => {
  await deleteByPrefix(redis, prefix)
  client.disconnect()
})

/** One app instance, with its own store object on the shared Redis, counting its commands. */
function instance() {
  const commands: string[] = []
  const sendCommand: RedisCommand = (args) => {
    commands.push(String(args[0]))
    return redis(args)
  }
  const store = new RedisRateLimitStore({ sendCommand, prefix })
  const app = new Hono()
  app.use('*', quota({ limit: 3, period: 'day', store, key: () => 'partner-1' }))
  app.get('/', (c) => c.text('ok'))
  return { app, commands }
}

describe('quota on Redis', () => {
  it('is one round trip per call, shared by every instance, and rolls over at midnight UTC', async () => {
    vi.useFakeTimers({ now: Date.parse('2031-05-04T23:59:58Z'), toFake: ['Date'] })
    const a = instance()
    const b = instance()
    expect((await a.app.request('/')).status).toBe(200)
    expect((await b.app.request('/')).status).toBe(200)
    expect((await a.app.request('/')).status).toBe(200)
    expect((await b.app.request('/')).status).toBe(429)
    // EVALSHA per call (EVAL once more only when Redis lost the script).
    expect(a.commands.filter((c) => c !== 'EVAL')).toEqual(['EVALSHA', 'EVALSHA'])
    expect(b.commands.filter((c) => c !== 'EVAL')).toEqual(['EVALSHA', 'EVALSHA'])
    vi.setSystemTime(Date.parse('2031-05-05T00:00:00Z'))
    expect((await b.app.request('/')).status).toBe(200)
  })
})
