import { boundKey } from '../internal/stores/bounded-key'
import { forgetRefusals } from '../internal/stores/deny-caches'
import { checkMax, checkWindowMs } from '../internal/stores/store-args'
import type {
  RateLimitHit,
  RateLimitInfo,
  RateLimitRequest,
  RateLimitStore,
  RateLimitVerdict,
} from '../rate-limit/store'
import { checkRateLimitRequest } from '../rate-limit/store'
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

// consume(): several limits of one algorithm, cost units, a block, all in one hash (one key, so
// Cluster-safe), mirroring algorithms.ts fixedEvaluate / slidingEvaluate / bucketEvaluate. Each
// limit keeps the fields <alg><windowMs>:v|p|m|e (value, previous count, mark, expiry) and the
// block is the field b (until when). ARGV: algorithm letter, cost, blockMs, n, then n pairs of
// windowMs and max. Reply: allowed (1/0), blocked ms, then count and ttl of each limit.
const CONSUME = `${NOW}local alg = ARGV[1]
local cost = tonumber(ARGV[2])
local block = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
local fmt = function(x) return string.format('%.0f', x) end
local blocked = 0
local b = tonumber(redis.call('HGET', KEYS[1], 'b'))
if b and b > now then blocked = b - now end
local out = {}
local nexts = {}
local fits = true
for i = 1, n do
  local wname = ARGV[3 + 2 * i]
  local w = tonumber(wname)
  local mx = tonumber(ARGV[4 + 2 * i])
  local f = alg .. wname .. ':'
  local s = redis.call('HMGET', KEYS[1], f .. 'v', f .. 'p', f .. 'm', f .. 'e')
  local e = tonumber(s[4])
  local live = e ~= nil and e > now
  local v, p, m = tonumber(s[1]) or 0, tonumber(s[2]) or 0, tonumber(s[3]) or 0
  local c, ttl, nv, np, nm, ne
  if alg == 'f' then
    local ending = now + w
    if live then ending = e else v = 0 end
    c = v + cost
    ttl = ending - now
    nv, np, nm, ne = c, 0, 0, ending
    if c > mx then fits = false end
  elseif alg == 's' then
    local idx = math.floor(now / w)
    local cur, prev = 0, 0
    if live and m == idx then
      cur, prev = v, p
    elseif live and m == idx - 1 then
      prev = v
    end
    local elapsed = now - idx * w
    c = math.floor(prev * (w - elapsed) / w) + cur + cost
    ttl = w - elapsed
    nv, np, nm, ne = cur + cost, prev, idx, (idx + 2) * w
    if c > mx then fits = false end
  else
    local capacity = mx * w
    local lvl = capacity
    if live then lvl = math.min(capacity, v + math.max(0, now - m) * mx) end
    local need = cost * w
    if lvl < need then
      c = math.max(mx + 1, mx - math.floor(lvl / w) + cost)
      ttl = math.ceil((need - lvl) / mx)
      fits = false
    else
      lvl = lvl - need
      c = mx - math.floor(lvl / w)
      ttl = math.ceil((w - lvl % w) / mx)
    end
    nv, np, nm, ne = lvl, 0, now, now + math.max(1, math.ceil((capacity - lvl) / mx))
  end
  out[#out + 1] = c
  out[#out + 1] = ttl
  nexts[i] = {f, nv, np, nm, ne}
end
local allowed = fits and blocked == 0
if cost > 0 and allowed then
  for i = 1, n do
    local x = nexts[i]
    redis.call('HSET', KEYS[1], x[1] .. 'v', fmt(x[2]), x[1] .. 'p', fmt(x[3]), x[1] .. 'm', fmt(x[4]), x[1] .. 'e', fmt(x[5]))
  end
elseif cost > 0 and block > 0 and blocked == 0 then
  redis.call('HSET', KEYS[1], 'b', fmt(now + block))
  blocked = block
end
if cost > 0 then
  local latest = 0
  local all = redis.call('HGETALL', KEYS[1])
  for j = 1, #all, 2 do
    if all[j] == 'b' or string.sub(all[j], -2) == ':e' then
      latest = math.max(latest, tonumber(all[j + 1]))
    end
  end
  if latest > now then redis.call('PEXPIRE', KEYS[1], fmt(latest - now)) end
end
local reply = {allowed and 1 or 0, blocked}
for j = 1, #out do reply[#reply + 1] = out[j] end
return reply`

const SCRIPTS = {
  consume: redisScript(CONSUME),
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
/** The hash of consume(): every limit and the block of one key. */
const CONSUMED = '#c'
const ALGORITHM_LETTER = {
  'fixed-window': 'f',
  'sliding-window': 's',
  'token-bucket': 't',
} as const

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
 * algorithms, `consume` (cost, several limits, blocks, reads), `decrement` and `reset`. Each call is one Lua script touching one key (so it runs
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
 * import { Redis } from 'ioredis'
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
      await this.#run(
        SCRIPTS.fixed,
        this.#prefix + (await boundKey(key)) + SUFFIX['fixed-window'],
        [String(windowMs)],
      ),
    )
  }

  /** Sliding window: counts one request unless the weighted count would pass `max`. */
  async slidingWindow(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    checkArgs('slidingWindow', windowMs, max)
    const redisKey = this.#prefix + (await boundKey(key)) + SUFFIX['sliding-window']
    return this.#info(
      'slidingWindow',
      await this.#run(SCRIPTS.sliding, redisKey, [String(windowMs), String(max)]),
    )
  }

  /** Token bucket of `max` tokens, refilled at `max` per `windowMs`: takes one token. */
  async tokenBucket(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    checkArgs('tokenBucket', windowMs, max)
    const redisKey = this.#prefix + (await boundKey(key)) + SUFFIX['token-bucket']
    return this.#info(
      'tokenBucket',
      await this.#run(SCRIPTS.bucket, redisKey, [String(windowMs), String(max)]),
    )
  }

  /** Gives back one request of `key` under `hit.algorithm` (never below zero or above `max`). */
  async decrement(key: string, hit: RateLimitHit): Promise<void> {
    checkArgs('decrement', hit.windowMs, hit.max)
    const redisKey = this.#prefix + (await boundKey(key)) + SUFFIX[hit.algorithm]
    const refund =
      hit.algorithm === 'fixed-window'
        ? SCRIPTS.fixedRefund
        : hit.algorithm === 'sliding-window'
          ? SCRIPTS.slidingRefund
          : SCRIPTS.bucketRefund
    await this.#run(refund, redisKey, [String(hit.windowMs), String(hit.max)])
  }

  /**
   * Checks every limit of `request` and takes `request.cost` from each only if all pass and the
   * key is not blocked; a refused request with `blockMs` blocks the key; `cost: 0` reads only.
   * One Lua script on one hash (`<prefix><key>#c`), so it runs on Redis Cluster unchanged.
   */
  async consume(key: string, request: RateLimitRequest): Promise<RateLimitVerdict> {
    const { algorithm, limits, cost, blockMs } = checkRateLimitRequest(NAME, request)
    const args = [ALGORITHM_LETTER[algorithm], String(cost), String(blockMs), String(limits.length)]
    for (const l of limits) args.push(String(l.windowMs), String(l.max))
    const reply = await this.#run(
      SCRIPTS.consume,
      this.#prefix + (await boundKey(key)) + CONSUMED,
      args,
    )
    const values = Array.isArray(reply) ? reply.map(replyInteger) : []
    if (values.length !== 2 + 2 * limits.length || values.some((v) => v === null)) {
      throw new Error(`${NAME}: unexpected reply to the consume script`)
    }
    const numbers = values as number[]
    return {
      allowed: numbers[0] === 1,
      blockedMs: Math.max(0, numbers[1] as number),
      limits: limits.map((_, i) => ({
        count: numbers[2 + 2 * i] as number,
        ttl: Math.max(0, numbers[3 + 2 * i] as number),
      })),
    }
  }

  /** Forgets `key` under every algorithm: one single-key `DEL` each, so it is Cluster-safe. */
  async reset(key: string): Promise<void> {
    const base = this.#prefix + (await boundKey(key))
    const suffixes = [...Object.values(SUFFIX), CONSUMED]
    await Promise.all(suffixes.map((suffix) => this.#send(['DEL', base + suffix])))
    await forgetRefusals(this, key)
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
