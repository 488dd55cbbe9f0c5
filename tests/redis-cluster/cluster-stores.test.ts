/**
 * The three Redis stores on a real six-node Redis Cluster, through ioredis `Cluster` and node-redis
 * `createCluster`: the conformance suite, a guard that no command the stores send spans two hash
 * slots (Redis answers CROSSSLOT), and the EVALSHA → EVAL fallback after every node lost its
 * script cache (as after a failover or restart).
 */
import {
  fromIoredis,
  fromNodeRedisCluster,
  RedisApiKeyStore,
  type RedisCommand,
  RedisConcurrencyStore,
  RedisRateLimitStore,
  RedisSessionStore,
} from '@palisade/middleware/redis'
import type { Cluster } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uniquePrefix } from '../redis/support'
import { concurrencyStoreConformance } from '../stores/concurrency-conformance'
import {
  apiKeyStoreConformance,
  rateLimitStoreConformance,
  sessionStoreConformance,
} from '../stores/conformance'
import { denyCacheResetConformance } from '../stores/deny-cache-conformance'
import {
  concurrencyHostileConformance,
  rateLimitHostileConformance,
} from '../stores/hostile-conformance'
import {
  deleteClusterPrefix,
  hashSlot,
  ioredisCluster,
  nodeRedisCluster,
  startCluster,
  type TestCluster,
} from './cluster'

let cluster: TestCluster
let io: Cluster
let nodeRedis: Awaited<ReturnType<typeof nodeRedisCluster>>
const runPrefix = uniquePrefix('cluster')

beforeAll(async () => {
  cluster = await startCluster()
  io = await ioredisCluster(cluster)
  nodeRedis = await nodeRedisCluster(cluster)
})

afterAll(async () => {
  io?.disconnect()
  await nodeRedis?.close()
  await cluster?.stop()
})

/** Keys a command names, by its shape (the commands the stores use). */
function keysOf(args: readonly string[]): string[] {
  const name = (args[0] ?? '').toUpperCase()
  if (name === 'EVAL' || name === 'EVALSHA') return args.slice(3, 3 + Number(args[2]))
  if (name === 'DEL') return args.slice(1)
  return args.length > 1 ? [args[1] as string] : []
}

const commandsSeen = { total: 0, scripts: 0 }

/** Wraps `send`: a command whose keys hash to two slots fails the test before Redis sees it. */
function slotChecked(send: RedisCommand): RedisCommand {
  return (args) => {
    const slots = new Set(keysOf(args).map((key) => hashSlot(key)))
    commandsSeen.total++
    if (/^EVAL/i.test(args[0] ?? '')) commandsSeen.scripts++
    if (slots.size > 1) {
      return Promise.reject(new Error(`command spans slots ${[...slots]}: ${args.join(' ')}`))
    }
    return send(args)
  }
}

const clients: Array<[string, () => RedisCommand]> = [
  ['ioredis Cluster', () => slotChecked(fromIoredis(io))],
  ['node-redis createCluster', () => slotChecked(fromNodeRedisCluster(nodeRedis))],
]

let counter = 0
type WithPrefix<S> = S & { readonly testPrefix: string }

function withPrefix<S extends object>(
  make: (options: { sendCommand: RedisCommand; prefix: string }) => S,
  send: RedisCommand,
): WithPrefix<S> {
  const prefix = `${runPrefix}${++counter}:`
  return Object.assign(make({ sendCommand: send, prefix }), { testPrefix: prefix })
}

const release = (store: { testPrefix: string }) => deleteClusterPrefix(cluster, store.testPrefix)

/** Every key under `prefix` on every master, with its value, as one text. */
async function dumpCluster(prefix: string): Promise<string> {
  const lines: string[] = []
  for (const port of await cluster.masters()) {
    const send = cluster.node(port)
    const [, keys] = (await send(['SCAN', '0', 'MATCH', `${prefix}*`, 'COUNT', '10000'])) as [
      string,
      string[],
    ]
    for (const key of keys) {
      // Hashes hold the records; the API-key store also keeps a set per id (its hashes).
      const type = String(await send(['TYPE', key]))
      const read = type === 'set' ? 'SMEMBERS' : type === 'hash' ? 'HGETALL' : 'GET'
      lines.push(`${key} = ${JSON.stringify(await send([read, key]))}`)
    }
  }
  return lines.join('\n')
}

for (const [client, send] of clients) {
  rateLimitStoreConformance(
    `RedisRateLimitStore on Redis Cluster via ${client}`,
    () => withPrefix((o) => new RedisRateLimitStore(o), send()),
    { release, capabilities: ['slidingWindow', 'tokenBucket', 'decrement', 'consume'] },
  )
  sessionStoreConformance(
    `RedisSessionStore on Redis Cluster via ${client}`,
    () => withPrefix((o) => new RedisSessionStore(o), send()),
    { release },
  )
  rateLimitHostileConformance(
    `RedisRateLimitStore on Redis Cluster via ${client}`,
    () => withPrefix((o) => new RedisRateLimitStore(o), send()),
    { release },
  )
  denyCacheResetConformance(
    `RedisRateLimitStore on Redis Cluster via ${client}`,
    () => withPrefix((o) => new RedisRateLimitStore(o), send()),
    { release },
  )
  concurrencyHostileConformance(
    `RedisConcurrencyStore on Redis Cluster via ${client}`,
    () => withPrefix((o) => new RedisConcurrencyStore(o), send()),
    { release },
  )
  concurrencyStoreConformance(
    `RedisConcurrencyStore on Redis Cluster via ${client}`,
    () => withPrefix((o) => new RedisConcurrencyStore(o), send()),
    { release },
  )
  apiKeyStoreConformance(
    `RedisApiKeyStore on Redis Cluster via ${client}`,
    () => withPrefix((o) => new RedisApiKeyStore(o), send()),
    { release, dump: (store) => dumpCluster(store.testPrefix) },
  )
}

describe.each(clients)('Redis Cluster specifics via %s', (_client, send) => {
  it('spreads keys over all three masters and reads each back through the cluster client', async () => {
    const prefix = `${runPrefix}spread:`
    const store = new RedisRateLimitStore({ sendCommand: send(), prefix })
    const keys = Array.from({ length: 30 }, (_, i) => `client-${i}`)
    for (const key of keys) expect((await store.increment(key, 60_000)).count).toBe(1)
    const owners = new Set(await Promise.all(keys.map((k) => cluster.masterOf(prefix + k))))
    expect(owners.size).toBe(3)
    await deleteClusterPrefix(cluster, prefix)
  })

  it('falls back from EVALSHA to EVAL after SCRIPT FLUSH on every node, then caches again', async () => {
    const prefix = `${runPrefix}noscript:`
    const store = new RedisRateLimitStore({ sendCommand: send(), prefix })
    await store.increment('k', 60_000)
    for (const { port } of cluster.nodes) await cluster.node(port)(['SCRIPT', 'FLUSH'])
    const sent: string[] = []
    const recording = new RedisRateLimitStore({
      prefix,
      sendCommand: (args) => {
        sent.push(args[0] as string)
        return send()(args)
      },
    })
    expect((await recording.increment('k', 60_000)).count).toBe(2)
    expect(sent).toEqual(['EVALSHA', 'EVAL'])
    expect((await recording.increment('k', 60_000)).count).toBe(3)
    expect(sent).toEqual(['EVALSHA', 'EVAL', 'EVALSHA'])
    await deleteClusterPrefix(cluster, prefix)
  })

  it('computes the same hash slots as Redis, hash tags included', async () => {
    const keys = ['a', 'user:1', '{user:1}:prev', 'x{}y', '{}{a}', 'ключ', 'a{b}{c}', '{']
    for (const key of keys) {
      expect(hashSlot(key)).toBe(
        Number(await cluster.node(cluster.seeds[0]!.port)(['CLUSTER', 'KEYSLOT', key])),
      )
    }
  })

  it('the slot guard rejects a command whose keys live in two slots', async () => {
    const error = await send()(['DEL', 'a', 'b']).catch((e: unknown) => e)
    expect(String(error)).toMatch(/spans slots/)
    expect(await send()(['DEL', '{a}x', '{a}y'])).toBe(0)
  })
})

afterAll(() => {
  // The guard saw every command of the conformance runs, scripts included.
  expect(commandsSeen.scripts).toBeGreaterThan(100)
})
