// Over 300 lines: one factory whose option checks and request path share a dozen precomputed
// values (window, algorithm, store method, header draft, refund policy). Splitting the checks into
// a config object was tried: the property names it adds survive minification and cost the
// rate-limit entry 128 bytes gzipped, for no change in behaviour.

import type { Context, MiddlewareHandler } from 'hono'
import { BoundedCache } from '../internal/caches/bounded-cache'
import { editResponseHeaders } from '../internal/http/headers'
import { keyOption } from '../internal/network/client-ip-key'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertNonNegativeInteger,
  assertOneOf,
  assertPositiveInteger,
  formatValue,
  optionError,
} from '../internal/options'
import { begin, clock, decide, type Pending, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { boundKey } from '../internal/stores/bounded-key'
import { frontStore } from '../internal/stores/deny-caches'
import { storeFor } from '../internal/stores/store-binding'
import { storeFailures } from '../internal/stores/store-failure'
import { type RateLimitRejects, reject } from './answers'
import { rateLimitDescription, rateLimitHeaders } from './description'
import {
  defaultPolicyName,
  draft6,
  draft8,
  POLICY_NAME,
  partitionKeys,
  type Quota,
  type RateLimitHeaders,
} from './headers'
import { fixedWindowNow, MemoryRateLimitStore } from './memory-store'
import type {
  RateLimitAlgorithm,
  RateLimitHit,
  RateLimitInfo,
  RateLimitStore,
  RateLimitVerdict,
  RateLimitWindow,
} from './store'
import { clampCost, MAX_LIMITS } from './store'

/**
 * Options of {@link rateLimit}.
 *
 * @example
 * const options: RateLimitOptions = { max: 100, windowMs: 60_000, algorithm: 'sliding-window' }
 * app.use('/api/*', rateLimit(options))
 */
export interface RateLimitOptions {
  /**
   * Requests allowed per key and window, or a function of the request (sync or async) that
   * returns it, e.g. a higher limit for paying users. Default `60`.
   */
  max?: number | ((c: Context) => number | Promise<number>)
  /** Window length in milliseconds (the token bucket refills `max` tokens per window). Default `60000`. */
  windowMs?: number
  /**
   * Several limits checked and consumed together in one store call, e.g. 10 per second and
   * 1,000 per hour: a request passes only if every limit has room, and then counts against all
   * of them. Replaces `max` and `windowMs`. The headers report the tightest limit; draft-8's
   * `RateLimit-Policy` lists every one. Needs a store with `consume`.
   */
  limits?: readonly RateLimitWindow[]
  /**
   * Units a request takes (a non-negative integer, or a function of the request), e.g. the
   * tokens of an LLM call or the rows of an export. Default `1`. Needs a store with `consume`
   * unless it is always 1.
   */
  cost?: number | ((c: Context) => number | Promise<number>)
  /**
   * Once a request is refused, the key is refused for this many milliseconds, whatever the
   * limits say (a lockout: a login brute-forcer waits 15 minutes, not until the window ends).
   * Needs a store with `consume`.
   */
  blockDurationMs?: number
  /**
   * Remember refused keys in this process until they can pass again, and refuse them without a
   * store call (no round trip for a client that keeps hammering). Default: on for a `store` you
   * pass that is not a `MemoryRateLimitStore`. Each process remembers its own: a `reset(key)` on
   * the store reaches other processes once their remembered refusal ends. Sliding-window refusals
   * are remembered only while blocked (the count decays continuously).
   */
  denyCache?: boolean
  /** How requests are counted, see {@link RateLimitAlgorithm}. Default `'fixed-window'`. */
  algorithm?: RateLimitAlgorithm
  /** Which RateLimit header draft to send, see {@link RateLimitHeaders}. Default `'draft-6'`. */
  standardHeaders?: RateLimitHeaders
  /** Quota name in the draft-8 headers. Default `<max>-in-<window>`, e.g. `100-in-1min`. */
  identifier?: string
  /** Body of the 429 response. Default `'Too many requests'`. */
  message?: string
  /** Counter store. Default: a `MemoryRateLimitStore` per middleware, created on first use. */
  store?: RateLimitStore
  /** Derives the counter key. Default: the client IP, see {@link clientIpKey}. */
  keyGenerator?: (c: Context) => string | Promise<string>
  /**
   * Prefix length by which the default key groups IPv6 clients (32–128), or `false` for the
   * full address. Default `56`. Only for the default key: with a `keyGenerator`, call
   * `clientIpKey(c, subnet)` in it instead.
   */
  ipv6Subnet?: number | false
  /** Requests for which this returns true are neither counted nor limited, and get no headers. */
  skip?: (c: Context) => boolean | Promise<boolean>
  /** Give back the count of requests that fail (status ≥ 400 or a thrown error). Default `false`. */
  skipFailedRequests?: boolean
  /** Give back the count of requests that succeed (status < 400). Default `false`. */
  skipSuccessfulRequests?: boolean
  /** When the store fails: `false` (default) rejects with 503, `true` lets the request through. */
  failOpen?: boolean
  /**
   * Called when the store throws. Default: one `console.warn` per outage (the first failure after
   * a success), so a dead store does not flood the log.
   */
  onStoreError?: (error: unknown, c: Context) => void
  /**
   * Report instead of refuse: requests are still counted and get the same headers, but one over
   * the limit passes with a `dry-run` decision (`rate_limited`), and no key is deny-cached.
   * Default `false`.
   */
  dryRun?: boolean
}

const KNOWN = [
  'max',
  'windowMs',
  'limits',
  'cost',
  'blockDurationMs',
  'denyCache',
  'algorithm',
  'standardHeaders',
  'identifier',
  'message',
  'store',
  'keyGenerator',
  'ipv6Subnet',
  'skip',
  'skipFailedRequests',
  'skipSuccessfulRequests',
  'failOpen',
  'onStoreError',
  'dryRun',
] as const

const ALGORITHMS = ['fixed-window', 'sliding-window', 'token-bucket'] as const
const METHOD = {
  'fixed-window': 'increment',
  'sliding-window': 'slidingWindow',
  'token-bucket': 'tokenBucket',
} as const

/**
 * Rate limiting per key (default: client IP, IPv6 by /56). Request number `max` in a window
 * passes, the next one gets 429 with `message` and `Retry-After` (seconds). `algorithm` picks a
 * fixed window (default), a sliding window or a token bucket. Every counted response carries the
 * IETF RateLimit headers (`standardHeaders`: draft-6 by default, or draft-8). A failing store
 * gives 503 `Rate limit store unavailable`, or lets requests through with `failOpen: true`.
 *
 * @param options.max default `60`; a number or `(c) => number | Promise<number>`
 * @param options.windowMs default `60000`
 * @param options.algorithm default `'fixed-window'`
 * @param options.standardHeaders default `'draft-6'`
 * @param options.ipv6Subnet default `56`
 * @param options.message default `'Too many requests'`
 * @param options.store default `new MemoryRateLimitStore()` (created lazily)
 * @param options.failOpen default `false`
 * @example
 * ```ts
 * app.use('/api/*', rateLimit({ max: 100, windowMs: 60_000, algorithm: 'sliding-window' }))
 * app.post('/login', rateLimit({ max: 5, windowMs: 15 * 60_000, skipSuccessfulRequests: true }), login)
 * ```
 */
export function rateLimit(options: RateLimitOptions = {}): MiddlewareHandler & RateLimitRejects {
  const factory = 'rateLimit'
  assertKnownKeys(factory, options, KNOWN)
  // Numbers a store counts with are safe integers: beyond 2^53 PostgreSQL's bigint overflows and
  // Lua's doubles round, and a failing store lets the request through under failOpen.
  const safe = (name: string, value: number): number => {
    if (!Number.isSafeInteger(value)) {
      throw optionError(factory, `"${name}" must be at most 2^53 − 1, got ${formatValue(value)}`)
    }
    return value
  }
  const windowMs = safe(
    'windowMs',
    assertPositiveInteger(factory, 'windowMs', options.windowMs ?? 60_000),
  )
  const algorithm = assertOneOf(
    factory,
    'algorithm',
    options.algorithm ?? 'fixed-window',
    ALGORITHMS,
  )
  const checkMax = (max: unknown, where: string, w = windowMs): number => {
    if (typeof max !== 'number' || !Number.isInteger(max) || max <= 0) {
      throw optionError(factory, `${where} must be a positive integer, got ${formatValue(max)}`)
    }
    // Every store's consume() and the bucket count in units of max × windowMs: beyond 2^53 a
    // store would refuse the call (or PostgreSQL's bigint overflow), and a failing store lets the
    // request through under failOpen.
    if (!Number.isSafeInteger(max * w)) {
      throw optionError(
        factory,
        `${where} × "windowMs" must be a safe integer (at most 2^53 − 1), got ${formatValue(max)} × ${w}`,
      )
    }
    return max
  }
  const maxOption = options.max ?? 60
  const maxFn =
    typeof maxOption === 'function'
      ? (maxOption as (c: Context) => number | Promise<number>)
      : undefined
  const staticMax = maxFn ? 0 : checkMax(maxOption, '"max"')
  const standardHeaders = assertOneOf(
    factory,
    'standardHeaders',
    options.standardHeaders ?? 'draft-6',
    ['draft-6', 'draft-8'] as const,
  )
  const identifier = options.identifier
  if (identifier !== undefined) {
    if (typeof identifier !== 'string' || !POLICY_NAME.test(identifier)) {
      throw optionError(
        factory,
        `"identifier" must be 1–64 printable ASCII characters without quotes or backslashes, got ${formatValue(identifier)}`,
      )
    }
    if (standardHeaders !== 'draft-8') {
      throw optionError(
        factory,
        '"identifier" names the draft-8 quota: set standardHeaders: \'draft-8\'',
      )
    }
  }
  const message = assertNonEmptyString(factory, 'message', options.message ?? 'Too many requests')
  const keyGenerator = keyOption(factory, 'keyGenerator', options.keyGenerator, options.ipv6Subnet)
  const skip =
    options.skip === undefined
      ? undefined
      : assertFunction<(c: Context) => boolean | Promise<boolean>>(factory, 'skip', options.skip)
  const skipFailed = assertBoolean(
    factory,
    'skipFailedRequests',
    options.skipFailedRequests ?? false,
  )
  const skipSuccessful = assertBoolean(
    factory,
    'skipSuccessfulRequests',
    options.skipSuccessfulRequests ?? false,
  )
  const failOpen = assertBoolean(factory, 'failOpen', options.failOpen ?? false)
  const dryRun = assertBoolean(factory, 'dryRun', options.dryRun ?? false)
  const onStoreError =
    options.onStoreError === undefined
      ? undefined
      : assertFunction<(error: unknown, c: Context) => void>(
          factory,
          'onStoreError',
          options.onStoreError,
        )
  const limitsOption = options.limits
  let limits: RateLimitWindow[] | undefined
  if (limitsOption !== undefined) {
    if (!Array.isArray(limitsOption) || limitsOption.length === 0) {
      throw optionError(factory, '"limits" must be a non-empty array of { max, windowMs }')
    }
    if (limitsOption.length > MAX_LIMITS) {
      throw optionError(factory, `"limits" takes at most ${MAX_LIMITS} limits`)
    }
    for (const name of ['max', 'windowMs', 'identifier'] as const) {
      if (options[name] !== undefined) {
        throw optionError(factory, `"limits" replaces "${name}": give one or the other`)
      }
    }
    const seen = new Set<number>()
    limits = limitsOption.map((limit, i) => {
      if (limit === null || typeof limit !== 'object') {
        throw optionError(factory, `"limits[${i}]" must be { max, windowMs }`)
      }
      assertKnownKeys(factory, limit, ['max', 'windowMs'])
      const w = assertPositiveInteger(factory, `limits[${i}].windowMs`, limit.windowMs)
      if (seen.has(w)) throw optionError(factory, `two limits share windowMs ${w}`)
      seen.add(w)
      return { max: checkMax(limit.max, `"limits[${i}].max"`, w), windowMs: w }
    })
    // The tightest window first: headers and refusals look at it first.
    limits.sort((a, b) => a.windowMs - b.windowMs)
  }
  const costOption = options.cost
  let costFn: ((c: Context) => number | Promise<number>) | undefined
  let staticCost = 1
  if (typeof costOption === 'function') costFn = costOption
  else if (costOption !== undefined) {
    staticCost = safe('cost', assertNonNegativeInteger(factory, 'cost', costOption))
  }
  const blockMs =
    options.blockDurationMs === undefined
      ? 0
      : safe(
          'blockDurationMs',
          assertPositiveInteger(factory, 'blockDurationMs', options.blockDurationMs),
        )
  // Anything beyond one unit of one limit goes through the store's consume().
  const consumes = limits !== undefined || costOption !== undefined || blockMs > 0
  const consumeOption =
    limits !== undefined ? 'limits' : costOption !== undefined ? 'cost' : 'blockDurationMs'
  if (consumes && (skipFailed || skipSuccessful)) {
    throw optionError(
      factory,
      `${skipFailed ? 'skipFailedRequests' : 'skipSuccessfulRequests'} cannot be combined with "${consumeOption}" (a refund of several limits or units is not supported)`,
    )
  }
  if (limits !== undefined && maxFn) {
    throw optionError(factory, '"limits" takes fixed numbers; "max" as a function is not allowed')
  }
  let store = options.store
  if (store !== undefined) {
    if (consumes && typeof store.consume !== 'function') {
      throw optionError(
        factory,
        `"${consumeOption}" needs a store with consume(key, request); this store has none`,
      )
    }
    if (store === null || typeof store !== 'object' || typeof store.increment !== 'function') {
      throw optionError(
        factory,
        '"store" must be a RateLimitStore with an increment(key, windowMs)',
      )
    }
    const method = METHOD[algorithm]
    if (typeof store[method] !== 'function') {
      throw optionError(
        factory,
        `algorithm '${algorithm}' needs a store with ${method}(key, windowMs, max); this store has none`,
      )
    }
    if ((skipFailed || skipSuccessful) && typeof store.decrement !== 'function') {
      throw optionError(
        factory,
        `${skipFailed ? 'skipFailedRequests' : 'skipSuccessfulRequests'} needs a store with decrement(key, hit); this store has none`,
      )
    }
  }

  const count: (s: RateLimitStore, key: string, max: number) => Promise<RateLimitInfo> =
    algorithm === 'fixed-window'
      ? (s, key) => s.increment(key, windowMs)
      : algorithm === 'sliding-window'
        ? (s, key, max) =>
            (s.slidingWindow as NonNullable<RateLimitStore['slidingWindow']>)(key, windowMs, max)
        : (s, key, max) =>
            (s.tokenBucket as NonNullable<RateLimitStore['tokenBucket']>)(key, windowMs, max)
  // The sliding window and the token bucket record nothing for a rejected request; the fixed
  // window counts it, so only there does skipFailedRequests give a 429 back.
  const countsRejected = algorithm === 'fixed-window'
  const [report, recovered] = storeFailures(factory, failOpen, onStoreError)

  const refund = async (
    s: RateLimitStore,
    key: string,
    hit: RateLimitHit,
    deadline: number,
    c: Context,
  ): Promise<void> => {
    // A window that has ended since the request was counted is gone: a refund would land in the
    // next one and hand out a free request (express-rate-limit checks its resetTime alike).
    if (algorithm !== 'token-bucket' && Date.now() >= deadline) return
    try {
      await (s.decrement as NonNullable<RateLimitStore['decrement']>)(key, hit)
    } catch (error) {
      report(error, c)
    }
  }

  const pkOf = standardHeaders === 'draft-8' ? partitionKeys() : undefined
  /**
   * Header values for the limits of one response; the first quota is the one to report. `key` is
   * the bounded key (see `boundKey`), as the partition keys are cached by it.
   */
  const headersFor = (
    quotas: readonly (Quota & { windowMs: number })[],
    key: string,
  ): Record<string, string> | Promise<Record<string, string>> => {
    const first = quotas[0] as Quota & { windowMs: number }
    if (standardHeaders === 'draft-6') {
      const headers = draft6(first, Math.ceil(first.windowMs / 1000))
      if (quotas.length > 1) {
        headers['RateLimit-Policy'] = quotas
          .map((q) => `${q.max};w=${Math.ceil(q.windowMs / 1000)}`)
          .join(', ')
      }
      return headers
    }
    return (pkOf as (key: string) => Promise<string>)(key).then((pk) => {
      const name = (q: Quota & { windowMs: number }) =>
        identifier ?? defaultPolicyName(q.max, q.windowMs)
      const headers = draft8(first, Math.ceil(first.windowMs / 1000), name(first), pk)
      if (quotas.length > 1) {
        headers['RateLimit-Policy'] = quotas
          .map((q) => draft8(q, Math.ceil(q.windowMs / 1000), name(q), pk)['RateLimit-Policy'])
          .join(', ')
      }
      return headers
    })
  }

  // Refused keys this process answers alone until `until` (ms), with the quotas last reported.
  const denyCache =
    !dryRun &&
    (options.denyCache ?? (store !== undefined && !(store instanceof MemoryRateLimitStore)))
      ? new BoundedCache<string, Denied>(10_000)
      : undefined
  if (options.denyCache !== undefined) assertBoolean(factory, 'denyCache', options.denyCache)
  // The store's reset(key) reaches this cache (see deny-cache.ts): a reset key passes at once.
  const forgetRefusal = denyCache
    ? async (key: string) => {
        denyCache.delete(await boundKey(key))
      }
    : undefined
  if (forgetRefusal && store) frontStore(store, forgetRefusal)
  // What this process keeps by key (deny cache, partition keys) is keyed by the bounded key: a
  // keyGenerator may return long client-chosen text (a username, a body field).
  const keepsKeys = denyCache !== undefined || pkOf !== undefined

  // Throws the 429 (synchronously when the headers are: draft-6), or returns nothing in dry
  // run; a promise only for draft-8, whose partition key is awaited.
  const refuse = (
    quotas: (Quota & { windowMs: number })[],
    key: string,
    retryMs: number,
    d: Pending | undefined,
  ): undefined | Promise<void> => {
    decide(d, dryRun ? 'dry-run' : 'reject', 'rate_limited', 429)
    if (dryRun) return undefined
    const retryAfter = String(Math.max(1, Math.ceil(retryMs / 1000)))
    const h = headersFor(quotas, key)
    if (h instanceof Promise) {
      return h.then((headers) =>
        reject(429, message, 'rate_limited', { ...headers, 'Retry-After': retryAfter }),
      )
    }
    return reject(429, message, 'rate_limited', { ...h, 'Retry-After': retryAfter })
  }

  const description = rateLimitDescription(store, failOpen, rateLimitHeaders(standardHeaders))
  return described(description, async function rateLimit(c, next) {
    const d = begin(c, 'rateLimit')
    if (skip && (await skip(c))) {
      decide(d, 'skip')
      return next()
    }
    // A synchronous value is used as it is: an await costs every request a turn of the
    // microtask queue and an allocation, which adds up in a stack of middleware.
    const k = keyGenerator(c)
    const key = typeof k === 'string' ? k : await k
    let local = key
    if (keepsKeys) {
      const bound = boundKey(key)
      local = typeof bound === 'string' ? bound : await bound
    }
    if (denyCache) {
      const denied = denyCache.get(local)
      if (denied !== undefined) {
        const left = denied.until - Date.now()
        if (left > 0) {
          const reset = Math.ceil(left / 1000)
          const refused = refuse(
            denied.quotas.map((q) => ({
              max: q.max,
              windowMs: q.windowMs,
              remaining: 0,
              reset: Math.max(q.reset, reset),
            })),
            local,
            left,
            d,
          )
          if (refused) await refused
        }
        denyCache.delete(local)
      }
    }
    const max = maxFn ? checkMax(await maxFn(c), 'max(c)') : staticMax
    const cost = costFn
      ? safe('cost(c)', assertNonNegativeInteger(factory, 'cost(c)', await costFn(c)))
      : staticCost
    const windows = limits ?? [{ max, windowMs }]
    // A cost above the smallest max can never pass: the stores count it as that max + 1, so
    // no backend's arithmetic meets a number it cannot hold (see clampCost).
    const sent = consumes ? clampCost(windows, cost) : cost
    let info: RateLimitInfo | undefined
    let verdict: RateLimitVerdict | undefined
    let s: RateLimitStore
    try {
      if (store === undefined) {
        store = new MemoryRateLimitStore()
        if (forgetRefusal) frontStore(store, forgetRefusal)
      }
      s = storeFor(store, c)
      const t = clock(d)
      if (consumes) {
        verdict = await (s.consume as NonNullable<RateLimitStore['consume']>)(key, {
          algorithm,
          limits: windows,
          cost: sent,
          blockMs,
        })
        if (
          typeof verdict?.allowed !== 'boolean' ||
          !Array.isArray(verdict.limits) ||
          verdict.limits.length !== windows.length ||
          !verdict.limits.every((l) => Number.isFinite(l?.count) && Number.isFinite(l?.ttl)) ||
          !Number.isFinite(verdict.blockedMs)
        ) {
          throw new TypeError('store returned an invalid verdict')
        }
      } else {
        // The default store counts synchronously: no turn of the microtask queue per request.
        const sync =
          algorithm === 'fixed-window' && s instanceof MemoryRateLimitStore
            ? fixedWindowNow(s, key, windowMs)
            : undefined
        const result = sync ?? count(s, key, max)
        info = result instanceof Promise ? await result : result
        if (!(Number.isFinite(info?.count) && Number.isFinite(info?.ttl))) {
          throw new TypeError('store returned an invalid { count, ttl }')
        }
      }
      storeTime(d, consumes ? 'consume' : METHOD[algorithm], t)
      recovered()
    } catch (error) {
      report(error, c)
      if (failOpen) {
        decide(d, 'skip', 'store_unavailable')
        return next()
      }
      reject(503, 'Rate limit store unavailable', 'store_unavailable')
    }

    if (verdict !== undefined) {
      const blocked = verdict.blockedMs > 0
      const quotas = windows.map((w, i) => {
        const l = verdict.limits[i] as RateLimitInfo
        const used = verdict.allowed ? l.count : l.count - sent
        return {
          max: w.max,
          windowMs: w.windowMs,
          remaining: blocked ? 0 : Math.max(0, Math.min(w.max, w.max - used)),
          reset: Math.max(0, Math.ceil(l.ttl / 1000)),
          ttl: l.ttl,
          // A free request (cost 0) needs a unit left too: a spent budget refuses everything,
          // or a route whose cost the client picks would stay open to it at 0.
          refuses: sent === 0 ? l.count >= w.max : l.count > w.max,
        }
      })
      if (!verdict.allowed || quotas.some((q) => q.refuses)) {
        // Retry once every refusing limit has room again (or the block ends).
        let retryMs = verdict.blockedMs
        let until = blocked ? verdict.blockedMs : 0
        for (const q of quotas) {
          if (!q.refuses) continue
          retryMs = Math.max(retryMs, q.ttl)
          // Cached only where nothing can pass before ttl: a fixed window with no unit left,
          // a bucket refusing a single unit.
          const full = q.max - q.remaining >= q.max
          if (
            (algorithm === 'fixed-window' && full) ||
            (algorithm === 'token-bucket' && sent === 1)
          ) {
            until = Math.max(until, q.ttl)
          }
        }
        const reported = quotas
          .filter((q) => q.refuses || blocked)
          .sort((a, b) => b.ttl - a.ttl)
          .concat(quotas.filter((q) => !(q.refuses || blocked)))
        if (blocked)
          for (const q of reported) q.reset = Math.max(q.reset, Math.ceil(retryMs / 1000))
        if (denyCache && until > 0) {
          denyCache.set(local, { until: Date.now() + until, quotas: reported })
        }
        const refused = refuse(reported, local, retryMs, d)
        if (refused) await refused
      }
      // The tightest limit first: least room left, then the longest wait.
      const reported = [...quotas].sort((a, b) => a.remaining - b.remaining || b.ttl - a.ttl)
      const h = headersFor(reported, local)
      const headers = h instanceof Promise ? await h : h
      decide(d, 'allow')
      await next()
      setHeaders(c, headers)
      return
    }

    const counted = info as RateLimitInfo
    const reset = Math.max(0, Math.ceil(counted.ttl / 1000))
    const quota = { max, windowMs, remaining: Math.max(0, max - counted.count), reset }
    const h = headersFor([quota], local)
    const headers = h instanceof Promise ? await h : h
    const refunds = skipFailed || skipSuccessful
    const deadline = refunds ? Date.now() + counted.ttl : 0
    const hit: RateLimitHit = { algorithm, windowMs, max }
    if (counted.count > max) {
      if (skipFailed && countsRejected && !dryRun) await refund(s, key, hit, deadline, c)
      if (denyCache && algorithm !== 'sliding-window') {
        denyCache.set(local, { until: Date.now() + counted.ttl, quotas: [quota] })
      }
      decide(d, dryRun ? 'dry-run' : 'reject', 'rate_limited', 429)
      if (!dryRun) {
        reject(429, message, 'rate_limited', {
          ...headers,
          'Retry-After': String(Math.max(1, reset)),
        })
      }
    }
    decide(d, 'allow')
    await next()
    if (refunds) {
      const failed = c.error !== undefined || c.res.status >= 400
      if (failed ? skipFailed : skipSuccessful) await refund(s, key, hit, deadline, c)
    }
    setHeaders(c, headers)
  })

  function setHeaders(c: Context, headers: Record<string, string>): void {
    // In place: c.header() on a finished response rebuilds the Response on every call, which
    // turns a string body into a stream and costs @hono/node-server its fast path.
    editResponseHeaders(c, (h) => {
      for (const name in headers) {
        const value = headers[name] as string
        // Stacked draft-8 limiters list every quota; the outer one (which runs last) goes first.
        const inner = standardHeaders === 'draft-8' ? h.get(name) : null
        h.set(name, inner ? `${value}, ${inner}` : value)
      }
    })
  }
}

/** A refused key in the deny cache: until when, and the quotas its refusal reported. */
interface Denied {
  until: number
  quotas: (Quota & { windowMs: number })[]
}
