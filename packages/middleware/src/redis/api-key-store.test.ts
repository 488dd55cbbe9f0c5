import { createHash } from 'node:crypto'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { deleteByPrefix, ioredisClient, uniquePrefix } from '../../../../tests/redis/support'
import { RedisApiKeyStore } from './api-key-store'
import { fromIoredis, type RedisCommand } from './client'

// Real Redis (REDIS_URL or 127.0.0.1:6379); each test writes under its own prefix.
const client = ioredisClient()
const redis = fromIoredis(client)
const prefixes: string[] = []
const KEY = 'sk_test_Qm9vW3rT8yZ2pL5nX7cV1bN4'
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** A store on a fresh prefix whose commands are all recorded. */
function store() {
  const prefix = uniquePrefix('key-unit')
  prefixes.push(prefix)
  const sent: string[][] = []
  const sendCommand: RedisCommand = (args) => {
    sent.push(args)
    return redis(args)
  }
  return { store: new RedisApiKeyStore({ sendCommand, prefix }), prefix, sent }
}

afterEach(async () => {
  for (const prefix of prefixes.splice(0)) await deleteByPrefix(redis, prefix)
})

afterAll(() => {
  client.disconnect()
})

describe('RedisApiKeyStore options', () => {
  it.each([
    ['no options', undefined, /"sendCommand" is required/],
    ['a missing sendCommand', {}, /"sendCommand" must be a function/],
    ['an unknown option', { sendCommand: redis, hash: 'md5' }, /unknown option "hash"/],
  ])('throws a TypeError naming the store for %s', (_label, options, message) => {
    const make = () => new RedisApiKeyStore(options as never)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^RedisApiKeyStore: /)
    expect(make).toThrow(message)
  })
})

describe('RedisApiKeyStore on Redis', () => {
  it('keeps each key as a hash at prefix + sha256(key) holding only id and metadata', async () => {
    const { store: s, prefix } = store()
    const id = await s.add(KEY, { owner: 'billing' })
    expect(await client.hgetall(`${prefix}${sha256(KEY)}`)).toEqual({
      id,
      metadata: '{"owner":"billing"}',
    })
  })

  it.each([
    ['a non-ASCII key', 'sk_clé_🔑_ключ'],
    ['a key at the synchronous-hash limit', 'k'.repeat(4096)],
    ['a key past it', 'k'.repeat(4097)],
  ])('stores %s at prefix + sha256 of its UTF-8 bytes', async (_, key) => {
    const { store: s, prefix } = store()
    const id = await s.add(key)
    expect(await client.hget(`${prefix}${sha256(key)}`, 'id')).toBe(id)
    expect(await s.validate(key)).toEqual({ id })
  })

  it('never sends the plain key to Redis, in any command', async () => {
    const { store: s, sent } = store()
    await s.add(KEY, { owner: 'billing' })
    await s.validate(KEY)
    await s.validate(`${KEY}x`)
    await s.remove(KEY)
    expect(sent.length).toBeGreaterThan(0)
    for (const args of sent) for (const arg of args) expect(arg).not.toContain(KEY)
  })

  it('keeps one id when two instances add the same key at the same time', async () => {
    const { store: a, prefix } = store()
    const b = new RedisApiKeyStore({ sendCommand: redis, prefix })
    const ids = await Promise.all([a.add(KEY, { from: 'a' }), b.add(KEY, { from: 'b' })])
    expect(ids[0]).toBe(ids[1])
    expect((await a.validate(KEY))?.id).toBe(ids[0])
  })

  it("uses the default prefix 'palisade:key:'", async () => {
    const key = `${uniquePrefix('key-default')}secret`
    const s = new RedisApiKeyStore({ sendCommand: redis })
    try {
      await s.add(key)
      expect(await client.exists(`palisade:key:${sha256(key)}`)).toBe(1)
    } finally {
      await client.del(`palisade:key:${sha256(key)}`)
    }
  })

  it('answers validate("") with null without asking Redis', async () => {
    const { store: s, sent } = store()
    expect(await s.validate('')).toBeNull()
    expect(await s.remove('')).toBe(false)
    expect(sent).toEqual([])
  })

  it.each([
    ['an empty key', '', undefined, /key must be a non-empty string/],
    ['metadata that is not an object', KEY, 'admin', /metadata must be an object/],
    ['null metadata', KEY, null, /metadata must be an object/],
  ])(
    'add rejects %s with a TypeError that does not echo the key',
    async (_label, key, metadata, message) => {
      const { store: s, sent } = store()
      const error = await s.add(key, metadata as never).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(TypeError)
      expect((error as Error).message).toMatch(message)
      expect((error as Error).message).not.toContain(KEY)
      expect(sent).toEqual([])
    },
  )

  it('resolves a stored entry whose metadata is corrupt to its id alone', async () => {
    const { store: s, prefix } = store()
    await client.hset(`${prefix}${sha256(KEY)}`, { id: 'k1', metadata: '{oops' })
    expect(await s.validate(KEY)).toEqual({ id: 'k1' })
  })

  it('treats a stored entry without an id as no key', async () => {
    const { store: s, prefix } = store()
    await client.hset(`${prefix}${sha256(KEY)}`, { metadata: '{"admin":true}' })
    expect(await s.validate(KEY)).toBeNull()
  })

  it('passes a Redis error from validate on instead of reporting the key as invalid', async () => {
    const lost = new Error('Connection is closed.')
    const s = new RedisApiKeyStore({
      sendCommand: async () => {
        throw lost
      },
    })
    await expect(s.validate(KEY)).rejects.toBe(lost)
  })
})
