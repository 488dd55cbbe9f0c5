/**
 * A replayed signature sent to a second instance: two apps (two httpSignature instances, two
 * RedisNonceStore instances, one through ioredis and one through node-redis) sharing one Redis
 * under one prefix. The nonce claimed by the first instance refuses the replay on the second; a
 * MemoryNonceStore per instance, the control, lets it through.
 */
import {
  httpSignature,
  MemoryNonceStore,
  type NonceStore,
  signRequest,
} from '@palisade/middleware/http-signature'
import { RedisNonceStore } from '@palisade/middleware/redis'
import { Hono } from 'hono'
import { beforeAll, describe, expect, it } from 'vitest'
import { keysWithPrefix, twoInstanceClients } from './support'

const redis = twoInstanceClients('httpsig')
const { prefix } = redis
let keyPair: CryptoKeyPair

beforeAll(async () => {
  keyPair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
})

function instance(nonce: NonceStore) {
  const app = new Hono()
  app.post('/orders', httpSignature({ keys: () => keyPair.publicKey, nonce }), (c) =>
    c.text('created'),
  )
  app.onError((err, c) => c.text((err as { code?: string }).code ?? 'crash', 401))
  return app
}

const signed = () =>
  signRequest(
    new Request('https://shop.example/orders', { method: 'POST', body: '{"sku":"a-1"}' }),
    {
      key: keyPair.privateKey,
      keyid: 'checkout',
    },
  )

describe('httpSignature nonce replay across instances', () => {
  it('refuses on instance B a signature instance A accepted (one Redis)', async () => {
    const a = instance(new RedisNonceStore({ sendCommand: redis.a, prefix }))
    const b = instance(new RedisNonceStore({ sendCommand: redis.b(), prefix }))
    const request = await signed()
    const first = await a.request(request.clone())
    expect(first.status).toBe(200)
    const replay = await b.request(request.clone())
    expect(replay.status).toBe(401)
    expect(await replay.text()).toBe('signature_invalid')
    expect((await keysWithPrefix(redis.a, prefix)).length).toBe(1)
    // A fresh signature (new nonce) passes on B.
    expect((await b.request(await signed())).status).toBe(200)
  })

  it('lets the replay through with a memory store per instance (why a shared store is needed)', async () => {
    const a = instance(new MemoryNonceStore())
    const b = instance(new MemoryNonceStore())
    const request = await signed()
    expect((await a.request(request.clone())).status).toBe(200)
    expect((await b.request(request.clone())).status).toBe(200)
    expect((await a.request(request.clone())).status).toBe(401)
  })
})
