import type { ConcurrencyStore } from '../concurrency-limit/store'
import { checkAcquire, checkRelease, checkRenew } from '../concurrency-limit/store'
import { boundKey } from '../internal/stores/bounded-key'
import {
  type RedisStoreOptions,
  redisScript,
  redisStoreOptions,
  replyInteger,
  runScript,
} from './client'

const NAME = 'RedisConcurrencyStore'

// One sorted set per key: member = lease id, score = when the lease expires (ms, Redis's clock
// from TIME, so app instances with skewed clocks agree). Both scripts read and write KEYS[1] only,
// so they run on Redis Cluster unchanged. The key's own expiry follows its longest lease, so a
// key whose every lease was abandoned disappears by itself.
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`
const EXTEND_KEY = `if redis.call('PTTL', KEYS[1]) < ms then redis.call('PEXPIRE', KEYS[1], ARGV[#ARGV]) end
`
// ARGV: lease, max, leaseMs. Reply: {acquired 1/0, leases held}.
const ACQUIRE = `${NOW}local lease = ARGV[1]
local max = tonumber(ARGV[2])
local ms = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local n = redis.call('ZCARD', KEYS[1])
local held = redis.call('ZSCORE', KEYS[1], lease)
if not held and n >= max then return {0, n} end
redis.call('ZADD', KEYS[1], string.format('%.0f', now + ms), lease)
if not held then n = n + 1 end
${EXTEND_KEY}return {1, n}`

// ARGV: lease, leaseMs. Reply: 1 when renewed, 0 when the lease is gone (an expired one is dropped).
const RENEW = `${NOW}local ms = tonumber(ARGV[2])
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
if tonumber(score) <= now then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', string.format('%.0f', now + ms), ARGV[1])
${EXTEND_KEY}return 1`

const SCRIPTS = { acquire: redisScript(ACQUIRE), renew: redisScript(RENEW) }

/** The concurrency state's own suffix: no other store's key (`#fw`, `#sw`, …) can name it. */
const SUFFIX = '#cl'

/**
 * Options of {@link RedisConcurrencyStore}.
 *
 * @example
 * const options: RedisConcurrencyStoreOptions = { sendCommand: fromIoredis(client), prefix: 'shop:cl:' }
 * app.post('/chat', concurrencyLimit({ max: 2, store: new RedisConcurrencyStore(options) }))
 */
export interface RedisConcurrencyStoreOptions extends RedisStoreOptions {
  /** Key prefix. Default `'palisade:cl:'`. */
  prefix?: string
}

/**
 * Concurrency slots in Redis, shared by every instance of an app: one sorted set per key
 * (`<prefix><key>#cl`) whose members are the leases and whose scores are their expiry on Redis's
 * clock. `acquire` and `renew` are one Lua script each and `release` one `ZREM`, every call on
 * one key (so it runs on Redis Cluster unchanged) and one round trip (`EVALSHA`, re-sent with
 * `EVAL` after `NOSCRIPT`). Expired leases are dropped by the next `acquire` of their key, and a
 * key expires with its longest lease. Errors from `sendCommand` propagate, so `concurrencyLimit`'s
 * `failOpen` policy decides what happens when Redis is down.
 *
 * @param options.sendCommand - Raw command function, e.g. `fromIoredis(client)`. Required.
 * @param options.prefix - Key prefix. Default `'palisade:cl:'`.
 * @example
 * import { Redis } from 'ioredis'
 * import { RedisConcurrencyStore, fromIoredis } from '@palisade/middleware/redis'
 *
 * const store = new RedisConcurrencyStore({ sendCommand: fromIoredis(new Redis()) })
 * app.post('/chat', concurrencyLimit({ max: 2, store }), chat)
 */
export class RedisConcurrencyStore implements ConcurrencyStore {
  readonly #send: RedisStoreOptions['sendCommand']
  readonly #prefix: string

  constructor(options: RedisConcurrencyStoreOptions) {
    const { send, prefix } = redisStoreOptions(NAME, options, 'palisade:cl:')
    this.#send = send
    this.#prefix = prefix
  }

  async acquire(
    key: string,
    lease: string,
    max: number,
    leaseMs: number,
  ): Promise<{ acquired: boolean; inFlight: number }> {
    checkAcquire(`${NAME}.acquire`, key, lease, max, leaseMs)
    const reply = await runScript(
      this.#send,
      SCRIPTS.acquire,
      [this.#prefix + (await boundKey(key)) + SUFFIX],
      [lease, String(max), String(leaseMs)],
    )
    const pair = Array.isArray(reply) ? reply.map(replyInteger) : []
    const [acquired, inFlight] = pair
    if (pair.length !== 2 || acquired == null || inFlight == null) {
      throw new Error(`${NAME}: unexpected reply to the acquire script`)
    }
    return { acquired: acquired === 1, inFlight }
  }

  async renew(key: string, lease: string, leaseMs: number): Promise<boolean> {
    checkRenew(`${NAME}.renew`, key, lease, leaseMs)
    const reply = replyInteger(
      await runScript(
        this.#send,
        SCRIPTS.renew,
        [this.#prefix + (await boundKey(key)) + SUFFIX],
        [lease, String(leaseMs)],
      ),
    )
    if (reply === null) throw new Error(`${NAME}: unexpected reply to the renew script`)
    return reply === 1
  }

  async release(key: string, lease: string): Promise<void> {
    checkRelease(`${NAME}.release`, key, lease)
    await this.#send(['ZREM', this.#prefix + (await boundKey(key)) + SUFFIX, lease])
  }
}
