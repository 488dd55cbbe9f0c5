/**
 * The Redis stores against the conformance suite, once through each supported client (ioredis and
 * node-redis), on a real Redis (`REDIS_URL`, default 127.0.0.1:6379). Every store gets its own
 * prefix, and its keys are deleted after each test.
 */
import {
  fromIoredis,
  fromNodeRedis,
  RedisApiKeyStore,
  type RedisCommand,
  RedisConcurrencyStore,
  RedisIdempotencyStore,
  RedisNonceStore,
  RedisRateLimitStore,
  RedisSessionStore,
} from '@palisade/middleware/redis'
import { afterAll, beforeAll } from 'vitest'
import {
  deleteByPrefix,
  dumpPrefix,
  ioredisClient,
  keysWithPrefix,
  nodeRedisClient,
  uniquePrefix,
} from '../redis/support'
import { apiKeyLifecycleConformance } from './api-key-lifecycle-conformance'
import { concurrencyStoreConformance } from './concurrency-conformance'
import {
  apiKeyStoreConformance,
  logoutRaceConformance,
  rateLimitStoreConformance,
  sessionStoreConformance,
} from './conformance'
import { denyCacheResetConformance } from './deny-cache-conformance'
import { concurrencyHostileConformance, rateLimitHostileConformance } from './hostile-conformance'
import { idempotencyStoreConformance } from './idempotency-conformance'
import { nonceStoreConformance } from './nonce-conformance'
import { raceLogoutAgainstSaves, writeGate } from './session-race'

const io = ioredisClient()
let nodeRedis: Awaited<ReturnType<typeof nodeRedisClient>> | undefined

beforeAll(async () => {
  nodeRedis = await nodeRedisClient()
})

afterAll(async () => {
  // Every test deleted its own keys; anything left under the run's prefixes is a leak.
  const leftovers = await keysWithPrefix(fromIoredis(io), runPrefix)
  io.disconnect()
  await nodeRedis?.close()
  if (leftovers.length > 0) throw new Error(`keys left behind: ${leftovers.join(', ')}`)
})

const runPrefix = uniquePrefix('conformance')

const clients: Array<[string, () => RedisCommand]> = [
  ['ioredis', () => fromIoredis(io)],
  [
    'node-redis',
    () => {
      if (!nodeRedis) throw new Error('node-redis client not connected')
      return fromNodeRedis(nodeRedis)
    },
  ],
]

let counter = 0

/** Each store instance carries its `sendCommand` and prefix so the test can clean up after it. */
type WithPrefix<S> = S & { readonly testPrefix: string; readonly testSend: RedisCommand }

function withPrefix<S extends object>(
  make: (options: { sendCommand: RedisCommand; prefix: string }) => S,
  send: RedisCommand,
): WithPrefix<S> {
  const prefix = `${runPrefix}${++counter}:`
  return Object.assign(make({ sendCommand: send, prefix }), { testPrefix: prefix, testSend: send })
}

const release = (store: { testPrefix: string; testSend: RedisCommand }) =>
  deleteByPrefix(store.testSend, store.testPrefix)

for (const [client, send] of clients) {
  rateLimitStoreConformance(
    `RedisRateLimitStore via ${client}`,
    () => withPrefix((o) => new RedisRateLimitStore(o), send()),
    { release, capabilities: ['slidingWindow', 'tokenBucket', 'decrement', 'consume'] },
  )
  sessionStoreConformance(
    `RedisSessionStore via ${client}`,
    () => withPrefix((o) => new RedisSessionStore(o), send()),
    { release, update: true },
  )
  // Two instances (two app processes) on one Redis; the first one's writes wait at a gate.
  logoutRaceConformance(`RedisSessionStore via ${client}, two instances`, async () => {
    const gate = writeGate()
    const plain = send()
    const gated: RedisCommand = async (args) => {
      if (!/^(GET|EXISTS|PTTL|SCRIPT)$/i.test(String(args[0]))) await gate.pass()
      return plain(args)
    }
    const a = withPrefix((o) => new RedisSessionStore(o), gated)
    const b = new RedisSessionStore({ sendCommand: plain, prefix: a.testPrefix })
    try {
      return await raceLogoutAgainstSaves(a, b, gate)
    } finally {
      await release(a)
    }
  })
  idempotencyStoreConformance(
    `RedisIdempotencyStore via ${client}`,
    () => withPrefix((o) => new RedisIdempotencyStore(o), send()),
    { release },
  )
  concurrencyStoreConformance(
    `RedisConcurrencyStore via ${client}`,
    () => withPrefix((o) => new RedisConcurrencyStore(o), send()),
    { release },
  )
  rateLimitHostileConformance(
    `RedisRateLimitStore via ${client}`,
    () => withPrefix((o) => new RedisRateLimitStore(o), send()),
    { release },
  )
  denyCacheResetConformance(
    `RedisRateLimitStore via ${client}`,
    () => withPrefix((o) => new RedisRateLimitStore(o), send()),
    { release },
  )
  concurrencyHostileConformance(
    `RedisConcurrencyStore via ${client}`,
    () => withPrefix((o) => new RedisConcurrencyStore(o), send()),
    { release },
  )
  nonceStoreConformance(
    `RedisNonceStore via ${client}`,
    () => withPrefix((o) => new RedisNonceStore(o), send()),
    { release },
  )
  apiKeyStoreConformance(
    `RedisApiKeyStore via ${client}`,
    () => withPrefix((o) => new RedisApiKeyStore(o), send()),
    { release, dump: (store) => dumpPrefix(store.testSend, store.testPrefix) },
  )
  // The peer is another instance on its own connection, through the other client library.
  const other = clients.find(([name]) => name !== client)?.[1] as () => RedisCommand
  apiKeyLifecycleConformance(
    `RedisApiKeyStore via ${client}`,
    () => withPrefix((o) => new RedisApiKeyStore(o), send()),
    {
      release,
      dump: (store) => dumpPrefix(store.testSend, store.testPrefix),
      peer: (store) => new RedisApiKeyStore({ sendCommand: other(), prefix: store.testPrefix }),
      racer: (store) => new RedisApiKeyStore({ sendCommand: other(), prefix: store.testPrefix }),
    },
  )
}
