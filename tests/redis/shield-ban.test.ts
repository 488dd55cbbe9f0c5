/**
 * shield()'s ban of repeat offenders through a RedisRateLimitStore (REDIS_URL, default
 * 127.0.0.1:6379): two app instances, each with its own store and client (ioredis on one,
 * node-redis on the other) under one prefix, must ban a client together: the detections counted
 * on one instance ban it on the other, and the ban expires for both.
 */
import { RedisRateLimitStore } from '@palisade/middleware/redis'
import { type ShieldOptions, shield } from '@palisade/middleware/shield'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { keysWithPrefix, twoInstanceClients } from './support'

const redis = twoInstanceClients('shield-ban')
const { prefix } = redis

/** One instance of the app: its own store over its own client, sharing Redis and the prefix. */
function instance(store: RedisRateLimitStore, ban: Partial<ShieldOptions['ban']> = {}) {
  const app = new Hono()
  app.use(shield({ ban: { after: 2, windowMs: 60_000, durationMs: 60_000, store, ...ban } }))
  app.all('*', (c) => c.text('ok'))
  return app
}
const attack = '/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E'
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } })

describe('a Redis-backed ban holds across two instances', () => {
  it('detections on instance A ban the client on instance B, and only that client', async () => {
    const a = instance(new RedisRateLimitStore({ sendCommand: redis.a, prefix }))
    const b = instance(new RedisRateLimitStore({ sendCommand: redis.b(), prefix }))
    const ip = '203.0.113.40'
    expect((await a.request(attack, from(ip))).status).toBe(403)
    expect((await b.request('/ok', from(ip))).status).toBe(200)
    // The second detection, on the other instance: the ban starts.
    expect((await b.request(attack, from(ip))).status).toBe(403)
    for (const app of [a, b]) {
      const res = await app.request('/ok', from(ip))
      expect(res.status).toBe(403)
      expect(await res.text()).toBe('Forbidden')
    }
    expect((await a.request('/ok', from('203.0.113.41'))).status).toBe(200)
    expect((await b.request('/ok', from('203.0.113.41'))).status).toBe(200)
    const keys = await keysWithPrefix(redis.a, prefix)
    expect(keys.some((k) => k.includes('shield:ban:203.0.113.40'))).toBe(true)
  })

  it('the ban ends for both instances after durationMs', async () => {
    const ban = { after: 1, windowMs: 1_000, durationMs: 300 }
    const a = instance(new RedisRateLimitStore({ sendCommand: redis.a, prefix }), ban)
    const b = instance(new RedisRateLimitStore({ sendCommand: redis.b(), prefix }), ban)
    const ip = '203.0.113.50'
    expect((await a.request(attack, from(ip))).status).toBe(403)
    expect((await b.request('/ok', from(ip))).status).toBe(403)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    expect((await b.request('/ok', from(ip))).status).toBe(200)
    expect((await a.request('/ok', from(ip))).status).toBe(200)
  })
})
