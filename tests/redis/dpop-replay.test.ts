/**
 * A DPoP proof replayed to a second instance: two apps (two jwtAuth instances with `dpop`, two
 * RedisNonceStore instances, one through ioredis and one through node-redis) sharing one Redis
 * under one prefix. The jti claimed by the first instance refuses the replay on the second; a
 * MemoryNonceStore per instance, the control, lets it through.
 */
import {
  createDpopProof,
  jwtAuth,
  MemoryNonceStore,
  type NonceStore,
  signJwt,
} from '@palisade/middleware/jwt-auth'
import { RedisNonceStore } from '@palisade/middleware/redis'
import { Hono } from 'hono'
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { keysWithPrefix, twoInstanceClients } from './support'

const redis = twoInstanceClients('dpop')
const { prefix, io } = redis
let issuer: CryptoKeyPair
let client: CryptoKeyPair
let token: string
const URL_ = 'https://mcp.example/mcp'

beforeAll(async () => {
  issuer = await generateKeyPair('ES256')
  client = await generateKeyPair('ES256', { extractable: true })
  const jkt = await calculateJwkThumbprint(await exportJWK(client.publicKey))
  token = await signJwt({ sub: 'agent', cnf: { jkt } }, issuer.privateKey)
})

function instance(nonceStore: NonceStore) {
  const app = new Hono()
  app.post(
    '/mcp',
    jwtAuth({ publicKey: issuer.publicKey, dpop: { mode: 'required', nonceStore } }),
    (c) => c.text(c.get('dpop').jkt),
  )
  app.onError((err, c) => c.text((err as { code?: string }).code ?? 'crash', 401))
  return app
}

const request = async () => ({
  method: 'POST',
  headers: {
    authorization: `DPoP ${token}`,
    dpop: await createDpopProof('POST', URL_, { keyPair: client, accessToken: token }),
  },
})

describe('jwtAuth dpop: jti replay across instances', () => {
  it('refuses on instance B a proof instance A accepted (one Redis)', async () => {
    const a = instance(new RedisNonceStore({ sendCommand: redis.a, prefix }))
    const b = instance(new RedisNonceStore({ sendCommand: redis.b(), prefix }))
    const init = await request()
    expect((await a.request(URL_, init)).status).toBe(200)
    const replay = await b.request(URL_, init)
    expect(replay.status).toBe(401)
    expect(await replay.text()).toBe('invalid_dpop_proof')
    const keys = await keysWithPrefix(redis.a, prefix)
    expect(keys.length).toBe(1)
    // Held for the proof's remaining lifetime (300 s by default, plus a second), not forever.
    const ttl = Number(await io.pttl(keys[0] as string))
    expect(ttl).toBeGreaterThan(290_000)
    expect(ttl).toBeLessThanOrEqual(301_000)
    // A fresh proof (new jti) passes on B.
    expect((await b.request(URL_, await request())).status).toBe(200)
  })

  it('lets the replay through with a memory store per instance (why a shared store is needed)', async () => {
    const a = instance(new MemoryNonceStore())
    const b = instance(new MemoryNonceStore())
    const init = await request()
    expect((await a.request(URL_, init)).status).toBe(200)
    expect((await b.request(URL_, init)).status).toBe(200)
  })

  it('answers 503 store_unavailable when Redis fails, never lets the proof through', async () => {
    const broken = instance(
      new RedisNonceStore({ sendCommand: () => Promise.reject(new Error('ECONNREFUSED')), prefix }),
    )
    broken.onError((err, c) => c.text((err as { code?: string }).code ?? 'crash', 503))
    const res = await broken.request(URL_, await request())
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('store_unavailable')
  })
})
