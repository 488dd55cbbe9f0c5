import { digestHex, lazy } from '../internal/crypto'
import {
  isNoScriptError,
  type RedisCommand,
  type RedisStoreOptions,
  redisStoreOptions,
  replyInteger,
} from '../redis/command'
import type { RateLimitInfo, RateLimitStore } from './store'

const NAME = 'RedisRateLimitStore'

// INCR and the expiry run as one script, so no crash or concurrent caller can leave a counter
// without a TTL (which would block its key forever). PTTL < 0 also repairs a key that was
// written without expiry by someone else.
const INCREMENT_SCRIPT = `local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`

// EVALSHA needs the script's SHA-1; WebCrypto computes it locally, which saves the SCRIPT LOAD
// round trip and does no I/O at construction.
const scriptSha = lazy(() => digestHex('SHA-1', INCREMENT_SCRIPT))

/**
 * Options of {@link RedisRateLimitStore}.
 *
 * @example
 * const options: RedisRateLimitStoreOptions = {
 *   sendCommand: fromIoredis(client),
 *   prefix: 'shop:rl:',
 * }
 * app.use('/api/*', rateLimit({ store: new RedisRateLimitStore(options) }))
 */
export interface RedisRateLimitStoreOptions extends RedisStoreOptions {
  /** Key prefix. Default `'palisade:rl:'`. */
  prefix?: string
}

/**
 * Rate-limit counters in Redis, shared by every instance of an app. Each `increment` is one Lua
 * script (`INCR`, then `PEXPIRE windowMs` when the key has no expiry), sent with `EVALSHA` and
 * re-sent with `EVAL` when Redis answers `NOSCRIPT` (after a restart or `SCRIPT FLUSH`). `ttl` is
 * Redis's own remaining time in milliseconds. Errors from `sendCommand` propagate, so
 * `rateLimit`'s `failOpen` policy decides what happens when Redis is down.
 *
 * @param options.sendCommand - Raw command function, e.g. `fromIoredis(client)`. Required.
 * @param options.prefix - Key prefix. Default `'palisade:rl:'`.
 * @example
 * import Redis from 'ioredis'
 * import { RedisRateLimitStore, fromIoredis } from '@palisade/middleware/redis'
 *
 * const client = new Redis(process.env.REDIS_URL!)
 * const store = new RedisRateLimitStore({ sendCommand: fromIoredis(client) })
 * app.use('/api/*', rateLimit({ max: 100, windowMs: 60_000, store }))
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #send: RedisCommand
  readonly #prefix: string

  constructor(options: RedisRateLimitStoreOptions) {
    const { send, prefix } = redisStoreOptions(NAME, options, 'palisade:rl:')
    this.#send = send
    this.#prefix = prefix
  }

  /** Counts one request for `key`; starts a window of `windowMs` when none is running. */
  async increment(key: string, windowMs: number): Promise<RateLimitInfo> {
    if (!Number.isInteger(windowMs) || windowMs <= 0) {
      throw new TypeError(`${NAME}: windowMs must be a positive integer, got ${windowMs}`)
    }
    const args = ['1', this.#prefix + key, String(windowMs)]
    let reply: unknown
    try {
      reply = await this.#send(['EVALSHA', await scriptSha(), ...args])
    } catch (error) {
      // Only a missing script is worth a retry; any other failure (connection, OOM) is passed on
      // rather than doubling the load on a struggling server. EVAL also re-caches the script.
      if (!isNoScriptError(error)) throw error
      reply = await this.#send(['EVAL', INCREMENT_SCRIPT, ...args])
    }
    const pair = Array.isArray(reply) ? reply : []
    const count = replyInteger(pair[0])
    const ttl = replyInteger(pair[1])
    if (pair.length !== 2 || count === null || ttl === null) {
      throw new Error(`${NAME}: unexpected reply to the increment script`)
    }
    return { count, ttl: Math.max(ttl, 0) }
  }

  /** Forgets `key`: its next request starts a new window. */
  async reset(key: string): Promise<void> {
    await this.#send(['DEL', this.#prefix + key])
  }
}
