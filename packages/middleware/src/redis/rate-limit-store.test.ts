import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  deleteByPrefix,
  freePort,
  ioredisClient,
  keysWithPrefix,
  startRedisServer,
  uniquePrefix,
} from '../../../../tests/redis/support'
import { fromIoredis, type RedisCommand } from './client'
import { RedisRateLimitStore } from './rate-limit-store'

// Real Redis (REDIS_URL or 127.0.0.1:6379); each test writes under its own prefix.
const client = ioredisClient()
const redis = fromIoredis(client)
const prefixes: string[] = []

function freshPrefix(): string {
  const prefix = uniquePrefix('rl-unit')
  prefixes.push(prefix)
  return prefix
}

/** Wraps the real command function and records every command name sent. */
function recording(send: RedisCommand = redis) {
  const commands: string[] = []
  const sendCommand: RedisCommand = (args) => {
    commands.push(args[0] as string)
    return send(args)
  }
  return { commands, sendCommand }
}

afterEach(async () => {
  for (const prefix of prefixes.splice(0)) await deleteByPrefix(redis, prefix)
})

afterAll(() => {
  client.disconnect()
})

describe('RedisRateLimitStore options', () => {
  it.each([
    ['no options', undefined, /"sendCommand" is required/],
    ['a missing sendCommand', {}, /"sendCommand" must be a function/],
    ['a sendCommand that is not a function', { sendCommand: 'redis' }, /must be a function/],
    ['an unknown option', { sendCommand: redis, prefx: 'x' }, /unknown option "prefx"/],
    [
      'a prefix that is not a string',
      { sendCommand: redis, prefix: 42 },
      /"prefix" must be a string/,
    ],
  ])('throws a TypeError naming the store for %s', (_label, options, message) => {
    const make = () => new RedisRateLimitStore(options as never)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^RedisRateLimitStore: /)
    expect(make).toThrow(message)
  })

  it('sends no command at construction', () => {
    const { commands, sendCommand } = recording()
    new RedisRateLimitStore({ sendCommand })
    expect(commands).toEqual([])
  })

  it.each([0, -1, 1.5, Number.NaN])(
    'rejects windowMs %s with a TypeError and sends nothing',
    async (windowMs) => {
      const { commands, sendCommand } = recording()
      const store = new RedisRateLimitStore({ sendCommand, prefix: freshPrefix() })
      await expect(store.increment('k', windowMs)).rejects.toThrow(TypeError)
      expect(commands).toEqual([])
    },
  )
})

describe('RedisRateLimitStore on Redis', () => {
  it('keeps the counter under prefix + key with a PTTL of windowMs', async () => {
    const prefix = freshPrefix()
    const store = new RedisRateLimitStore({ sendCommand: redis, prefix })
    await store.increment('10.0.0.1', 30_000)
    await store.increment('10.0.0.1', 30_000)
    expect(await client.get(`${prefix}10.0.0.1`)).toBe('2')
    const pttl = await client.pttl(`${prefix}10.0.0.1`)
    expect(pttl).toBeGreaterThan(29_000)
    expect(pttl).toBeLessThanOrEqual(30_000)
  })

  it("uses the default prefix 'palisade:rl:'", async () => {
    const key = `${uniquePrefix('rl-default')}client`
    const store = new RedisRateLimitStore({ sendCommand: redis })
    try {
      await store.increment(key, 10_000)
      expect(await client.get(`palisade:rl:${key}`)).toBe('1')
    } finally {
      await client.del(`palisade:rl:${key}`)
    }
  })

  it('reports the real remaining time: ttl follows the PTTL Redis holds', async () => {
    const prefix = freshPrefix()
    const store = new RedisRateLimitStore({ sendCommand: redis, prefix })
    await store.increment('k', 60_000)
    await client.pexpire(`${prefix}k`, 1_234)
    const { count, ttl } = await store.increment('k', 60_000)
    expect(count).toBe(2)
    expect(ttl).toBeGreaterThan(1_000)
    expect(ttl).toBeLessThanOrEqual(1_234)
  })

  it('repairs a counter that exists without an expiry instead of blocking the key forever', async () => {
    const prefix = freshPrefix()
    await client.set(`${prefix}stuck`, '7')
    const store = new RedisRateLimitStore({ sendCommand: redis, prefix })
    const { count, ttl } = await store.increment('stuck', 5_000)
    expect(count).toBe(8)
    expect(ttl).toBe(5_000)
    expect(await client.pttl(`${prefix}stuck`)).toBeGreaterThan(0)
  })

  it('leaves no key without an expiry after 400 concurrent increments over 20 keys', async () => {
    const prefix = freshPrefix()
    const store = new RedisRateLimitStore({ sendCommand: redis, prefix })
    await Promise.all(
      Array.from({ length: 400 }, (_, i) => store.increment(`client-${i % 20}`, 60_000)),
    )
    const keys = await keysWithPrefix(redis, prefix)
    expect(keys).toHaveLength(20)
    for (const key of keys) {
      expect(await client.get(key)).toBe('20')
      expect(await client.pttl(key)).toBeGreaterThan(0)
    }
  })

  it('runs the script with EVALSHA and falls back to EVAL once after SCRIPT FLUSH', async () => {
    // A private server: on the shared one, another test's EVAL could re-cache the script between
    // the flush and the increment.
    const server = await startRedisServer(await freePort())
    const own = ioredisClient(server.url)
    try {
      const { commands, sendCommand } = recording(fromIoredis(own))
      const store = new RedisRateLimitStore({ sendCommand })
      await store.increment('k', 60_000)
      await own.script('FLUSH')
      commands.length = 0
      expect((await store.increment('k', 60_000)).count).toBe(2)
      expect(commands).toEqual(['EVALSHA', 'EVAL'])
      commands.length = 0
      expect((await store.increment('k', 60_000)).count).toBe(3)
      expect(commands).toEqual(['EVALSHA'])
    } finally {
      own.disconnect()
      await server.kill()
    }
  })

  it('reset deletes the counter so the next request starts a new window', async () => {
    const prefix = freshPrefix()
    const store = new RedisRateLimitStore({ sendCommand: redis, prefix })
    await store.increment('login', 60_000)
    await store.reset('login')
    expect(await client.exists(`${prefix}login`)).toBe(0)
    expect((await store.increment('login', 60_000)).count).toBe(1)
  })
})

describe('RedisRateLimitStore failures', () => {
  it('passes a connection error on unchanged and does not retry it with EVAL', async () => {
    const lost = new Error('Connection is closed.')
    const commands: string[] = []
    const store = new RedisRateLimitStore({
      sendCommand: async (args) => {
        commands.push(args[0] as string)
        throw lost
      },
    })
    await expect(store.increment('k', 1_000)).rejects.toBe(lost)
    expect(commands).toEqual(['EVALSHA'])
  })

  it('fails with a clear error when the counter holds something that is not an integer', async () => {
    const prefix = freshPrefix()
    await client.set(`${prefix}k`, 'not-a-number')
    const store = new RedisRateLimitStore({ sendCommand: redis, prefix })
    await expect(store.increment('k', 1_000)).rejects.toThrow(/not an integer/)
  })

  it.each([
    ['a string', 'OK'],
    ['a one-element array', [1]],
    ['non-integer elements', ['one', 'two']],
  ])('rejects %s as the script reply', async (_label, reply) => {
    const store = new RedisRateLimitStore({ sendCommand: async () => reply })
    await expect(store.increment('k', 1_000)).rejects.toThrow(
      'RedisRateLimitStore: unexpected reply to the increment script',
    )
  })
})

describe('RedisRateLimitStore: sliding window and token bucket on Redis', () => {
  it('keeps each algorithm under its own single key, a hash that expires', async () => {
    const prefix = freshPrefix()
    const store = new RedisRateLimitStore({ sendCommand: redis, prefix })
    await store.slidingWindow('c', 60_000, 5)
    await store.tokenBucket('c', 60_000, 5)
    expect((await keysWithPrefix(redis, prefix)).sort()).toEqual([`${prefix}c#sw`, `${prefix}c#tb`])
    const sw = await client.hgetall(`${prefix}c#sw`)
    expect(sw).toMatchObject({ c: '1', p: '0' })
    expect(sw.w).toMatch(/^\d+$/)
    // 5 tokens of 60,000 units each, one taken: exact integers, no exponent notation.
    expect((await client.hgetall(`${prefix}c#tb`)).l).toBe('240000')
    expect(await client.pttl(`${prefix}c#sw`)).toBeGreaterThan(60_000)
    const tbTtl = await client.pttl(`${prefix}c#tb`)
    expect(tbTtl).toBeGreaterThan(11_000) // full again one token (12 s) later
    expect(tbTtl).toBeLessThanOrEqual(12_000)
  })

  it('stores large windows without losing precision (no exponent notation in Lua)', async () => {
    const prefix = freshPrefix()
    const store = new RedisRateLimitStore({ sendCommand: redis, prefix })
    const week = 7 * 24 * 3_600_000
    for (let i = 1; i <= 3; i++)
      expect((await store.tokenBucket('big', week, 1_000_000)).count).toBe(i)
    // Capacity 6.048e14 units (above the 1e14 where Lua would switch to exponents): written out in full digits (refill between calls adds a little).
    const level = (await client.hgetall(`${prefix}big#tb`)).l ?? ''
    expect(level).toMatch(/^\d{15}$/)
    expect(Number(level)).toBeGreaterThanOrEqual(1_000_000 * week - 3 * week)
    expect(Number(level)).toBeLessThanOrEqual(1_000_000 * week - 2 * week)
  })

  it('answers like the memory store for the same sequence', async () => {
    const prefix = freshPrefix()
    const store = new RedisRateLimitStore({ sendCommand: redis, prefix })
    const memory = new (await import('../rate-limit/memory-store')).MemoryRateLimitStore()
    const seq = async (s: RedisRateLimitStore | typeof memory) => {
      const out: number[] = []
      for (let i = 0; i < 6; i++) out.push((await s.slidingWindow('x', 3_600_000, 4)).count)
      for (let i = 0; i < 6; i++) out.push((await s.tokenBucket('x', 3_600_000, 4)).count)
      return out
    }
    expect(await seq(store)).toEqual(await seq(memory))
    memory.destroy()
  })
})

describe('RedisRateLimitStore: Redis Cluster safety', () => {
  /** Captures every command; answers NOSCRIPT to EVALSHA so each script's source is sent too. */
  function capture() {
    const sent: string[][] = []
    const sendCommand: RedisCommand = async (args) => {
      sent.push(args)
      if (args[0] === 'EVALSHA') throw new Error('NOSCRIPT No matching script.')
      if (args[0] === 'EVAL') return [1, 1]
      return 1
    }
    return { sent, store: new RedisRateLimitStore({ sendCommand, prefix: 'p:' }) }
  }

  it('runs every script on exactly one key and references no other key in Lua', async () => {
    const { sent, store } = capture()
    await store.increment('{tag}k', 1_000)
    await store.slidingWindow('{tag}k', 1_000, 5)
    await store.tokenBucket('{tag}k', 1_000, 5)
    for (const algorithm of ['fixed-window', 'sliding-window', 'token-bucket'] as const) {
      await store.decrement('{tag}k', { algorithm, windowMs: 1_000, max: 5 })
    }
    const limits = [
      { max: 5, windowMs: 1_000 },
      { max: 50, windowMs: 60_000 },
    ]
    // The captured replies are not a consume reply: only what was sent matters here.
    await store
      .consume('{tag}k', { algorithm: 'token-bucket', limits, cost: 2, blockMs: 1_000 })
      .catch(() => {})
    const evals = sent.filter((args) => args[0] === 'EVAL')
    expect(evals).toHaveLength(7)
    for (const [, source, numKeys, key] of evals) {
      expect(numKeys).toBe('1')
      expect(key).toMatch(/^p:\{tag\}k(#sw|#tb|#c)?$/)
      expect(source).not.toMatch(/KEYS\[(?!1\])/)
      // No key may be built inside the script, which Cluster could not route.
      expect(source).not.toMatch(/\.\.\s*ARGV|KEYS\[1\]\s*\.\./)
    }
  })

  it('resets with one single-key DEL per algorithm, never a multi-key DEL', async () => {
    const { sent, store } = capture()
    await store.reset('k')
    expect(sent.map((args) => args.join(' ')).sort()).toEqual([
      'DEL p:k',
      'DEL p:k#c',
      'DEL p:k#sw',
      'DEL p:k#tb',
    ])
  })

  it('sends one command per request for every algorithm once its script is cached', async () => {
    const { commands, sendCommand } = recording()
    const prefix = freshPrefix()
    const store = new RedisRateLimitStore({ sendCommand, prefix })
    const request = { algorithm: 'fixed-window', cost: 3, blockMs: 60_000 } as const
    const limits = [
      { max: 10, windowMs: 1_000 },
      { max: 1_000, windowMs: 3_600_000 },
    ]
    await store.slidingWindow('k', 60_000, 5)
    await store.tokenBucket('k', 60_000, 5)
    await store.consume('k', { ...request, limits, cost: 0 })
    commands.length = 0
    await store.increment('k', 60_000)
    await store.slidingWindow('k', 60_000, 5)
    await store.tokenBucket('k', 60_000, 5)
    await store.consume('k', { ...request, limits })
    expect(commands).toEqual(['EVALSHA', 'EVALSHA', 'EVALSHA', 'EVALSHA'])
  })

  it.each([
    ['a max of 0', 1_000, 0],
    ['a fractional max', 1_000, 1.5],
    ['max × windowMs beyond 2^53', 1e12, 1e7],
  ])('rejects %s with a TypeError and sends nothing', async (_label, windowMs, max) => {
    const { commands, sendCommand } = recording()
    const store = new RedisRateLimitStore({ sendCommand })
    await expect(store.slidingWindow('k', windowMs, max)).rejects.toThrow(TypeError)
    await expect(store.tokenBucket('k', windowMs, max)).rejects.toThrow(TypeError)
    expect(commands).toEqual([])
  })
})
