import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { deleteByPrefix, ioredisClient, uniquePrefix } from '../../../../tests/redis/support'
import { CREATE_RACE_KEPT, raceCreateAgainstUpdate } from '../../../../tests/stores/session-race'
import { fromIoredis } from './client'
import { RedisSessionStore } from './session-store'

// Real Redis (REDIS_URL or 127.0.0.1:6379); each test writes under its own prefix.
const client = ioredisClient()
const redis = fromIoredis(client)
const prefixes: string[] = []

function store(): { store: RedisSessionStore; prefix: string } {
  const prefix = uniquePrefix('sess-unit')
  prefixes.push(prefix)
  return { store: new RedisSessionStore({ sendCommand: redis, prefix }), prefix }
}

afterEach(async () => {
  for (const prefix of prefixes.splice(0)) await deleteByPrefix(redis, prefix)
})

afterAll(() => {
  client.disconnect()
})

describe('RedisSessionStore options', () => {
  it.each([
    ['no options', undefined, /"sendCommand" is required/],
    ['a missing sendCommand', {}, /"sendCommand" must be a function/],
    ['an unknown option', { sendCommand: redis, ttl: 5 }, /unknown option "ttl"/],
    [
      'a prefix that is not a string',
      { sendCommand: redis, prefix: null },
      /"prefix" must be a string/,
    ],
  ])('throws a TypeError naming the store for %s', (_label, options, message) => {
    const make = () => new RedisSessionStore(options as never)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^RedisSessionStore: /)
    expect(make).toThrow(message)
  })
})

describe('RedisSessionStore on Redis', () => {
  it('writes the session as JSON under prefix + id with a PTTL of maxAge seconds', async () => {
    const { store: s, prefix } = store()
    await s.set('abc', { visits: 3, user: { id: 7 } }, 86_400)
    expect(JSON.parse((await client.get(`${prefix}abc`)) ?? 'null')).toEqual({
      visits: 3,
      user: { id: 7 },
    })
    const pttl = await client.pttl(`${prefix}abc`)
    expect(pttl).toBeGreaterThan(86_399_000)
    expect(pttl).toBeLessThanOrEqual(86_400_000)
  })

  it("uses the default prefix 'palisade:sess:'", async () => {
    const id = `${uniquePrefix('sess-default')}id`
    const s = new RedisSessionStore({ sendCommand: redis })
    try {
      await s.set(id, { a: 1 }, 60)
      expect(await client.get(`palisade:sess:${id}`)).toBe('{"a":1}')
    } finally {
      await client.del(`palisade:sess:${id}`)
    }
  })

  it('rounds a fractional maxAge up to whole milliseconds', async () => {
    const { store: s, prefix } = store()
    await s.set('frac', { a: 1 }, 1.5)
    const pttl = await client.pttl(`${prefix}frac`)
    expect(pttl).toBeGreaterThan(1_000)
    expect(pttl).toBeLessThanOrEqual(1_500)
  })

  it.each([0, -5])('deletes the session when set with maxAge %s', async (maxAge) => {
    const { store: s, prefix } = store()
    await s.set('gone', { a: 1 }, 60)
    await s.set('gone', { a: 2 }, maxAge)
    expect(await client.exists(`${prefix}gone`)).toBe(0)
    expect(await s.get('gone')).toBeNull()
  })

  it.each([
    ['text that is not JSON', 'not json'],
    ['truncated JSON', '{"visits":'],
    ['a JSON array', '[1,2,3]'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['a JSON string', '"session"'],
    ['an empty value', ''],
  ])('reads %s stored under the id as no session', async (_label, raw) => {
    const { store: s, prefix } = store()
    await client.set(`${prefix}bad`, raw)
    expect(await s.get('bad')).toBeNull()
  })
})

describe('RedisSessionStore failures', () => {
  it.each([Number.NaN, Number.POSITIVE_INFINITY, '60'])(
    'rejects maxAge %s with a TypeError and writes nothing',
    async (maxAge) => {
      const { store: s, prefix } = store()
      await expect(s.set('x', { a: 1 }, maxAge as number)).rejects.toThrow(TypeError)
      expect(await client.exists(`${prefix}x`)).toBe(0)
    },
  )

  it('keeps the previous value when the new data cannot be serialised', async () => {
    const { store: s } = store()
    await s.set('x', { a: 1 }, 60)
    await expect(s.set('x', { n: 10n }, 60)).rejects.toThrow(TypeError)
    expect(await s.get('x')).toEqual({ a: 1 })
  })

  it.each(['get', 'set', 'destroy'] as const)(
    'passes a Redis error from %s on unchanged',
    async (method) => {
      const lost = new Error('Connection is closed.')
      const s = new RedisSessionStore({
        sendCommand: async () => {
          throw lost
        },
      })
      const call =
        method === 'get' ? s.get('x') : method === 'set' ? s.set('x', { a: 1 }, 60) : s.destroy('x')
      await expect(call).rejects.toBe(lost)
    },
  )
})

describe('RedisSessionStore.update (compare-and-set)', () => {
  it('two store instances (two app processes) updating one session concurrently lose nothing', async () => {
    const { store: a, prefix } = store()
    const b = new RedisSessionStore({ sendCommand: redis, prefix })
    await a.set('s', { n: 0 }, 60)
    const bump = (cur: Record<string, unknown> | null) =>
      cur === null ? null : { ...cur, n: (cur.n as number) + 1 }
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).update('s', bump, 60)),
    )
    expect(await a.get('s')).toEqual({ n: 10 })
  })

  it('retries when another writer changed the value between its read and its write', async () => {
    const { store: s, prefix } = store()
    await s.set('s', { a: 1 }, 60)
    let calls = 0
    const written = await s.update(
      's',
      (cur) => {
        calls++
        // the first time, another process writes just after our read
        if (calls === 1) void redis(['SET', `${prefix}s`, JSON.stringify({ a: 1, other: true })])
        return cur === null ? null : { ...cur, mine: true }
      },
      60,
    )
    expect(calls).toBe(2)
    expect(written).toEqual({ a: 1, other: true, mine: true })
    expect(await s.get('s')).toEqual({ a: 1, other: true, mine: true })
  })

  it('creates a missing session when apply asks', async () => {
    const { store: s } = store()
    expect(await s.update('new', () => ({ a: 1 }), 60)).toEqual({ a: 1 })
    expect(await s.get('new')).toEqual({ a: 1 })
  })

  it('never overwrites a session another instance created between its read (missing) and its write', async () => {
    const { store: other, prefix } = store()
    // A fixed interleaving, no timing: our GET finds nothing, then the other instance creates the
    // session, and only then does our compare-and-set (expecting "missing") run.
    const outcome = await raceCreateAgainstUpdate(
      (create) =>
        new RedisSessionStore({
          prefix,
          sendCommand: async (args) => {
            const reply = await redis(args)
            if (String(args[0]).toUpperCase() === 'GET' && reply == null) await create()
            return reply
          },
        }),
      other,
    )
    expect(outcome).toEqual(CREATE_RACE_KEPT)
  })

  it('gives up with an error after repeated conflicts instead of looping forever', async () => {
    const { store: s, prefix } = store()
    await s.set('s', { n: 0 }, 60)
    let n = 0
    await expect(
      s.update(
        's',
        (cur) => {
          void redis(['SET', `${prefix}s`, JSON.stringify({ n: ++n })])
          return cur
        },
        60,
      ),
    ).rejects.toThrow(/^RedisSessionStore: session "s" kept changing/)
  })

  it('keeps the TTL given and uses one key per call (Redis Cluster safe)', async () => {
    const { store: s, prefix } = store()
    await s.set('s', { a: 1 }, 60)
    await s.update('s', (cur) => cur, 2)
    const ttl = Number(await redis(['PTTL', `${prefix}s`]))
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(2000)
  })
})
