import { checkMax, checkWindowMs } from '../internal/store-args'
import type { RateLimitHit, RateLimitInfo, RateLimitStore } from '../rate-limit/store'
import {
  type RedisCommand,
  type RedisScript,
  type RedisStoreOptions,
  redisScript,
  redisStoreOptions,
  replyInteger,
  runScript,
} from './client'

const NAME = 'RedisRateLimitStore'

// Every script reads and writes KEYS[1] only, so each one is safe on Redis Cluster whatever the
// key. The sliding window and the token bucket read the time with TIME inside the script: one
// clock (Redis's) for every app instance, none of the client clock skew that a timestamp passed
// in ARGV would bring. Numbers are written with %.0f: Lua's default formatting turns integers
// above 1e14 into exponent notation, which tonumber would read back rounded.

// Fixed window. INCR and the expiry run as one script, so no crash or concurrent caller can leave
// a counter without a TTL (which would block its key forever). PTTL < 0 also repairs a key that
// was written without expiry by someone else.
const FIXED = `local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`

// Sliding window, as algorithms.ts slidingWindowHit: one hash holds the window index `w`, its
// count `c` and the previous window's count `p`. Within a window only `c` changes (HINCRBY); the
// first request of a window rewrites the hash and sets its expiry to the end of the next window.
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`
const SLIDING = `${NOW}local window = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local index = math.floor(now / window)
local s = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local current, previous = 0, 0
local w = tonumber(s[1])
if w == index then
  current, previous = tonumber(s[2]) or 0, tonumber(s[3]) or 0
elseif w == index - 1 then
  previous = tonumber(s[2]) or 0
end
local elapsed = now - index * window
local count = math.floor(previous * (window - elapsed) / window) + current + 1
if count <= max then
  if w == index then
    redis.call('HINCRBY', KEYS[1], 'c', 1)
  else
    redis.call('HSET', KEYS[1], 'w', string.format('%.0f', index), 'c', 1, 'p', previous)
    redis.call('PEXPIRE', KEYS[1], string.format('%.0f', 2 * window - elapsed))
  end
end
return {count, window - elapsed}`

// Token bucket, as algorithms.ts tokenBucketHit: the level `l` in integer units (`window` per
// token, `max` refilled per millisecond) and the time `a` it was measured. The key expires when
// the bucket would be full again, which is the same as having no key.
const BUCKET_LEVEL = `${NOW}local window = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local capacity = max * window
local level = capacity
local s = redis.call('HMGET', KEYS[1], 'l', 'a')
if s[1] then
  level = math.min(capacity, tonumber(s[1]) + math.max(0, now - tonumber(s[2])) * max)
end
`
const SAVE_BUCKET = `redis.call('HSET', KEYS[1], 'l', string.format('%.0f', level), 'a', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.max(1, math.ceil((capacity - level) / max))))
`
const BUCKET = `${BUCKET_LEVEL}if level < window then
  return {max + 1, math.ceil((window - level) / max)}
end
level = level - window
${SAVE_BUCKET}return {max - math.floor(level / window), math.ceil((window - level % window) / max)}`

// Refunds (skipFailedRequests / skipSuccessfulRequests); never below zero, never above `max`.
const FIXED_REFUND = `local count = tonumber(redis.call('GET', KEYS[1]))
if count and count > 0 then redis.call('DECR', KEYS[1]) end
return 0`
const SLIDING_REFUND = `${NOW}local index = math.floor(now / tonumber(ARGV[1]))
local s = redis.call('HMGET', KEYS[1], 'w', 'c')
if tonumber(s[1]) == index and (tonumber(s[2]) or 0) > 0 then
  redis.call('HINCRBY', KEYS[1], 'c', -1)
end
return 0`
const BUCKET_REFUND = `${BUCKET_LEVEL}if s[1] then
  level = math.min(capacity, level + window)
  ${SAVE_BUCKET}end
return 0`

const SCRIPTS = {
  fixed: redisScript(FIXED),
  sliding: redisScript(SLIDING),
  bucket: redisScript(BUCKET),
  fixedRefund: redisScript(FIXED_REFUND),
  slidingRefund: redisScript(SLIDING_REFUND),
  bucketRefund: redisScript(BUCKET_REFUND),
}

/**
 * Each algorithm's state lives under its own key, so one key limited two ways never clashes.
 * Every algorithm has a suffix, none of which ends another: no key text can name another key's
 * state (with an empty fixed-window suffix, the key `bob#sw` was bob's sliding-window hash).
 */
const SUFFIX = { 'fixed-window': '#fw', 'sliding-window': '#sw', 'token-bucket': '#tb' } as const

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
 * Rate-limit counters in Redis, shared by every instance of an app. It implements all three
 * algorithms, `decrement` and `reset`. Each call is one Lua script touching one key (so it runs
 * on Redis Cluster unchanged), sent with `EVALSHA` and re-sent with `EVAL` when Redis answers
 * `NOSCRIPT` (after a restart or `SCRIPT FLUSH`): one round trip per request. Keys are
 * `<prefix><key>#fw` (fixed window, a counter with a TTL), `<prefix><key>#sw` (sliding window, a
 * hash) and `<prefix><key>#tb` (token bucket, a hash), each expiring once it stops mattering.
 * The fixed window's `ttl` is Redis's own remaining time; the sliding window and the token
 * bucket read Redis's clock (`TIME`), so app instances with skewed clocks agree. Errors from
 * `sendCommand` propagate, so `rateLimit`'s `failOpen` policy decides what happens when Redis is
 * down.
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

  /** Fixed window: counts one request for `key`; starts a window of `windowMs` if none runs. */
  async increment(key: string, windowMs: number): Promise<RateLimitInfo> {
    checkArgs('increment', windowMs)
    return this.#info(
      'increment',
      await this.#run(SCRIPTS.fixed, this.#prefix + key + SUFFIX['fixed-window'], [
        String(windowMs),
      ]),
    )
  }

  /** Sliding window: counts one request unless the weighted count would pass `max`. */
  async slidingWindow(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    checkArgs('slidingWindow', windowMs, max)
    const redisKey = this.#prefix + key + SUFFIX['sliding-window']
    return this.#info(
      'slidingWindow',
      await this.#run(SCRIPTS.sliding, redisKey, [String(windowMs), String(max)]),
    )
  }

  /** Token bucket of `max` tokens, refilled at `max` per `windowMs`: takes one token. */
  async tokenBucket(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    checkArgs('tokenBucket', windowMs, max)
    const redisKey = this.#prefix + key + SUFFIX['token-bucket']
    return this.#info(
      'tokenBucket',
      await this.#run(SCRIPTS.bucket, redisKey, [String(windowMs), String(max)]),
    )
  }

  /** Gives back one request of `key` under `hit.algorithm` (never below zero or above `max`). */
  async decrement(key: string, hit: RateLimitHit): Promise<void> {
    checkArgs('decrement', hit.windowMs, hit.max)
    const redisKey = this.#prefix + key + SUFFIX[hit.algorithm]
    const refund =
      hit.algorithm === 'fixed-window'
        ? SCRIPTS.fixedRefund
        : hit.algorithm === 'sliding-window'
          ? SCRIPTS.slidingRefund
          : SCRIPTS.bucketRefund
    await this.#run(refund, redisKey, [String(hit.windowMs), String(hit.max)])
  }

  /** Forgets `key` under every algorithm: one single-key `DEL` each, so it is Cluster-safe. */
  async reset(key: string): Promise<void> {
    const base = this.#prefix + key
    await Promise.all(Object.values(SUFFIX).map((suffix) => this.#send(['DEL', base + suffix])))
  }

  #run(s: RedisScript, key: string, args: string[]): Promise<unknown> {
    return runScript(this.#send, s, [key], args)
  }

  #info(method: string, reply: unknown): RateLimitInfo {
    const pair = Array.isArray(reply) ? reply : []
    const count = replyInteger(pair[0])
    const ttl = replyInteger(pair[1])
    if (pair.length !== 2 || count === null || ttl === null) {
      throw new Error(`${NAME}: unexpected reply to the ${method} script`)
    }
    return { count, ttl: Math.max(ttl, 0) }
  }
}

function checkArgs(method: string, windowMs: number, max?: number): void {
  checkWindowMs(`${NAME}.${method}`, windowMs)
  if (max !== undefined) checkMax(`${NAME}.${method}`, windowMs, max)
}
