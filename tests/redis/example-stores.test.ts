/**
 * examples/stores.ts: the switch between memory and Redis stores that the example app (and the
 * README) rely on.
 */
import { MemoryApiKeyStore } from '@palisade/middleware/api-key'
import { MemoryRateLimitStore } from '@palisade/middleware/rate-limit'
import {
  fromIoredis,
  RedisApiKeyStore,
  RedisRateLimitStore,
  RedisSessionStore,
} from '@palisade/middleware/redis'
import { MemorySessionStore } from '@palisade/middleware/sessions'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'
import { createStores } from '../../examples/stores'
import {
  deleteByPrefix,
  freePort,
  ioredisClient,
  keysWithPrefix,
  REDIS_URL,
  uniquePrefix,
} from './support'

const client = ioredisClient()
const redis = fromIoredis(client)
const prefix = uniquePrefix('example-stores')

afterAll(async () => {
  await deleteByPrefix(redis, prefix)
  client.disconnect()
})

describe('createStores', () => {
  it('uses the memory stores when REDIS_URL is not set', async () => {
    const stores = await createStores({})
    try {
      expect(stores.kind).toBe('memory')
      expect(stores.rateLimitStore).toBeInstanceOf(MemoryRateLimitStore)
      expect(stores.sessionStore).toBeInstanceOf(MemorySessionStore)
      expect(stores.apiKeyStore).toBeInstanceOf(MemoryApiKeyStore)
    } finally {
      await stores.close()
    }
  })

  it.each(['ioredis', 'node-redis'])(
    'uses the Redis stores through %s under REDIS_PREFIX when REDIS_URL is set',
    async (redisClient) => {
      const stores = await createStores({
        REDIS_URL,
        REDIS_PREFIX: `${prefix}${redisClient}:`,
        REDIS_CLIENT: redisClient,
      })
      try {
        expect(stores.kind).toBe('redis')
        expect(stores.rateLimitStore).toBeInstanceOf(RedisRateLimitStore)
        expect(stores.sessionStore).toBeInstanceOf(RedisSessionStore)
        expect(stores.apiKeyStore).toBeInstanceOf(RedisApiKeyStore)
        await stores.rateLimitStore.increment('1.2.3.4', 60_000)
        await stores.sessionStore.set('sid', { a: 1 }, 60)
        await stores.apiKeyStore.add('example-stores-key-0123456789')
        const keys = await keysWithPrefix(redis, `${prefix}${redisClient}:`)
        // The API key store writes two keys under `key:`: the key's hash and its id's index.
        expect(
          keys.map((k) => k.slice(`${prefix}${redisClient}:`.length).split(':')[0]).sort(),
        ).toEqual(['key', 'key', 'rl', 'sess'])
      } finally {
        await stores.close()
      }
    },
  )

  it('removes the partner key the example app made at start when it closes (none left in Redis)', async () => {
    const REDIS_PREFIX = `${prefix}app:`
    const apiKeys = async () =>
      (await keysWithPrefix(redis, REDIS_PREFIX)).filter((k) =>
        k.slice(REDIS_PREFIX.length).startsWith('key:'),
      )
    for (let start = 0; start < 2; start++) {
      const app = await createApp({ REDIS_URL, REDIS_PREFIX, NODE_ENV: 'development' })
      expect(app.partnerKey?.generated).toBe(true)
      // Stored while the instance runs: its hash and its id's index.
      expect(await apiKeys()).toHaveLength(2)
      await app.close()
      expect(await apiKeys()).toEqual([])
    }
  })

  it('rejects an unknown REDIS_CLIENT', async () => {
    await expect(createStores({ REDIS_URL, REDIS_CLIENT: 'valkey-glide' })).rejects.toThrow(
      /REDIS_CLIENT must be 'ioredis' or 'node-redis'/,
    )
  })

  it.each(['ioredis', 'node-redis'])(
    'fails to start with %s when Redis is unreachable, without echoing the password',
    async (redisClient) => {
      const url = `redis://:hunter2-secret@127.0.0.1:${await freePort()}`
      const error = await createStores({ REDIS_URL: url, REDIS_CLIENT: redisClient }).catch(
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toMatch(/^createStores: cannot reach Redis at redis:\/\//)
      expect((error as Error).message).not.toContain('hunter2-secret')
    },
  )
})
