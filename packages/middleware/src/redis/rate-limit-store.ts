import { boundKey } from '../internal/stores/bounded-key'
import { forgetRefusals } from '../internal/stores/deny-caches'
import { checkLimitArgs } from '../internal/stores/store-args'
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

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// Each limit algorithm, once: algorithms.ts fixedEvaluate / slidingEvaluate / bucketEvaluate in
// Lua, used by consume() for every limit and by the single-limit sliding window and token bucket.
// From a limit's stored state (live: not expired; v value, p previous count, m mark, e expiry)
// it gives the count and ttl with `cost` more units, whether they fit under `mx`, and the state
// to store if the call goes through. A fixed window's value is its count and e its end; a sliding
// window's value is the count of window m (its index), p the count of the window before; a
// bucket's value is its level in integer units (w per token, mx refilled per millisecond)
// measured at m. Only consume() uses the fixed window: increment() is Redis's own INCR (FIXED).
const LIMIT = `local function level(now, w, mx, live, v, m)
  local capacity = mx * w
  if live then return math.min(capacity, v + math.max(0, now - m) * mx) end
  return capacity
end
local function limit(alg, now, w, mx, cost, live, v, p, m, e)
  if alg == 'f' then
    local ending = now + w
    if live then ending = e else v = 0 end
    local c = v + cost
    return c, ending - now, c <= mx, c, 0, 0, ending
  elseif alg == 's' then
    local idx = math.floor(now / w)
    local cur, prev = 0, 0
    if live and m == idx then
      cur, prev = v, p
    elseif live and m == idx - 1 then
      prev = v
    end
    local elapsed = now - idx * w
    local c = math.floor(prev * (w - elapsed) / w) + cur + cost
    return c, w - elapsed, c <= mx, cur + cost, prev, idx, (idx + 2) * w
  end
  local lvl = level(now, w, mx, live, v, m)
  local need = cost * w
  if lvl < need then
    return math.max(mx + 1, mx - math.floor(lvl / w) + cost), math.ceil((need - lvl) / mx), false,
      lvl, 0, now, now + math.max(1, math.ceil((mx * w - lvl) / mx))
  end
  lvl = lvl - need
  return mx - math.floor(lvl / w), math.ceil((w - lvl % w) / mx), true,
    lvl, 0, now, now + math.max(1, math.ceil((mx * w - lvl) / mx))
end
local fmt = function(x) return string.format('%.0f', x) end
`

// Sliding window, one unit: one hash holds the window index `w`, its count `c` and the previous
// window's count `p`, and expires at the end of the next window. Within a window only `c`
// changes; the first request of a window rewrites the hash and sets its expiry.
const SLIDING = `${NOW}${LIMIT}local window = tonumber(ARGV[1])
local s = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local w = tonumber(s[1])
local c, ttl, fits, nv, np, nm, ne = limit('s', now, window, tonumber(ARGV[2]), 1, w ~= nil, tonumber(s[2]) or 0, tonumber(s[3]) or 0, w, 0)
if fits then
  if w == nm then
    redis.call('HSET', KEYS[1], 'c', fmt(nv))
  else
    redis.call('HSET', KEYS[1], 'w', fmt(nm), 'c', fmt(nv), 'p', fmt(np))
    redis.call('PEXPIRE', KEYS[1], fmt(ne - now))
  end
end
return {c, ttl}`

// Token bucket, one token: the level `l` and the time `a` it was measured. The key expires when
// the bucket would be full again, which is the same as having no key.
const BUCKET_STATE = `${NOW}${LIMIT}local window = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'l', 'a')
local live = s[1] and true or false
local v, m = tonumber(s[1]) or 0, tonumber(s[2]) or 0
local function save(lvl)
  redis.call('HSET', KEYS[1], 'l', fmt(lvl), 'a', fmt(now))
  redis.call('PEXPIRE', KEYS[1], fmt(math.max(1, math.ceil((max * window - lvl) / max))))
end
`
const BUCKET = `${BUCKET_STATE}local c, ttl, fits, nv = limit('t', now, window, max, 1, live, v, 0, m, 0)
if fits then save(nv) end
return {c, ttl}`

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
const BUCKET_REFUND = `${BUCKET_STATE}if live then save(math.min(max * window, level(now, window, max, true, v, m) + window)) end
return 0`

// consume(): several limits of one algorithm, cost units, a block, all in one hash (one key, so
// Cluster-safe), each limit by `limit` above. Each limit keeps the fields <alg><windowMs>:v|p|m|e
// (value, previous count, mark, expiry) and the block is the field b (until when). ARGV:
// algorithm letter, cost, blockMs, n, then n pairs of windowMs and max. Reply: allowed (1/0),
// blocked ms, then count and ttl of each limit.
const CONSUME = `${NOW}${LIMIT}local alg = ARGV[1]
local cost = tonumber(ARGV[2])
local block = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
local blocked = 0
local b = tonumber(redis.call('HGET', KEYS[1], 'b'))
if b and b > now then blocked = b - now end
local out = {}
local nexts = {}
local allFit = true
for i = 1, n do
  local wname = ARGV[3 + 2 * i]
  local f = alg .. wname .. ':'
  local s = redis.call('HMGET', KEYS[1], f .. 'v', f .. 'p', f .. 'm', f .. 'e')
  local e = tonumber(s[4])
  local c, ttl, fits, nv, np, nm, ne = limit(alg, now, tonumber(wname), tonumber(ARGV[4 + 2 * i]), cost,
    e ~= nil and e > now, tonumber(s[1]) or 0, tonumber(s[2]) or 0, tonumber(s[3]) or 0, e)
  if not fits then allFit = false end
  out[#out + 1] = c
  out[#out + 1] = ttl
  nexts[i] = {f, nv, np, nm, ne}
end
local allowed = allFit and blocked == 0
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
    checkLimitArgs(NAME, 'increment', windowMs)
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
    checkLimitArgs(NAME, 'slidingWindow', windowMs, max)
    const redisKey = this.#prefix + (await boundKey(key)) + SUFFIX['sliding-window']
    return this.#info(
      'slidingWindow',
      await this.#run(SCRIPTS.sliding, redisKey, [String(windowMs), String(max)]),
    )
  }

  /** Token bucket of `max` tokens, refilled at `max` per `windowMs`: takes one token. */
  async tokenBucket(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, 'tokenBucket', windowMs, max)
    const redisKey = this.#prefix + (await boundKey(key)) + SUFFIX['token-bucket']
    return this.#info(
      'tokenBucket',
      await this.#run(SCRIPTS.bucket, redisKey, [String(windowMs), String(max)]),
    )
  }

  /** Gives back one request of `key` under `hit.algorithm` (never below zero or above `max`). */
  async decrement(key: string, hit: RateLimitHit): Promise<void> {
    checkLimitArgs(NAME, 'decrement', hit.windowMs, hit.max)
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
