// Over 300 lines: one factory whose option checks and request path share a dozen precomputed
// values (window, algorithm, store method, header draft, refund policy). Splitting the checks into
// a config object was tried: the property names it adds survive minification and cost the
// rate-limit entry 128 bytes gzipped, for no change in behaviour.
import type { Context, MiddlewareHandler } from 'hono'
import { begin, clock, decide, storeTime } from '../internal/decisions'
import { described } from '../internal/described'
import { editResponseHeaders } from '../internal/headers'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertOneOf,
  assertPositiveInteger,
  formatValue,
  optionError,
} from '../internal/options'
import { refuse } from '../internal/refuse'
import { reject } from '../internal/reject'
import { clientIpKey, isIPv6Subnet } from './client-ip-key'
import { rateLimitDescription, rateLimitHeaders } from './description'
import {
  defaultPolicyName,
  draft6,
  draft8,
  POLICY_NAME,
  partitionKey,
  type Quota,
  type RateLimitHeaders,
} from './headers'
import { MemoryRateLimitStore } from './memory-store'
import type { RateLimitAlgorithm, RateLimitHit, RateLimitInfo, RateLimitStore } from './store'

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
   * the limit passes with a `dry-run` decision (`rate_limited`). Default `false`.
   */
  dryRun?: boolean
}

const KNOWN = [
  'max',
  'windowMs',
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
export function rateLimit(options: RateLimitOptions = {}): MiddlewareHandler {
  const factory = 'rateLimit'
  assertKnownKeys(factory, options, KNOWN)
  const windowMs = assertPositiveInteger(factory, 'windowMs', options.windowMs ?? 60_000)
  const algorithm = assertOneOf(
    factory,
    'algorithm',
    options.algorithm ?? 'fixed-window',
    ALGORITHMS,
  )
  const checkMax = (max: unknown, where: string): number => {
    if (typeof max !== 'number' || !Number.isInteger(max) || max <= 0) {
      throw optionError(factory, `${where} must be a positive integer, got ${formatValue(max)}`)
    }
    if (algorithm === 'token-bucket' && !Number.isSafeInteger(max * windowMs)) {
      throw optionError(
        factory,
        `${where} × "windowMs" must be a safe integer for the token bucket`,
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
  const ipv6Subnet = options.ipv6Subnet === undefined ? 56 : options.ipv6Subnet
  if (!isIPv6Subnet(ipv6Subnet)) {
    throw optionError(
      factory,
      `"ipv6Subnet" must be an integer from 32 to 128 or false, got ${formatValue(ipv6Subnet)}`,
    )
  }
  let keyGenerator: (c: Context) => string | Promise<string>
  if (options.keyGenerator === undefined) {
    keyGenerator = (c) => clientIpKey(c, ipv6Subnet)
  } else {
    keyGenerator = assertFunction(factory, 'keyGenerator', options.keyGenerator)
    if (options.ipv6Subnet !== undefined) {
      throw optionError(
        factory,
        '"ipv6Subnet" applies to the default key only; with a keyGenerator, call clientIpKey(c, subnet) in it',
      )
    }
  }
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
  let store = options.store
  if (store !== undefined) {
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
  const windowSeconds = Math.ceil(windowMs / 1000)
  let failing = false

  const report = (error: unknown, c: Context): void => {
    const firstOfOutage = !failing
    failing = true
    try {
      if (onStoreError) onStoreError(error, c)
      else if (firstOfOutage) {
        const reason = error instanceof Error ? error.message : String(error)
        console.warn(
          `rateLimit: store failed, ${failOpen ? 'letting requests through' : 'rejecting with 503'} until it recovers: ${reason}`,
        )
      }
    } catch {
      // A broken error hook must not turn a store outage into a crash.
    }
  }

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

  const headersFor = async (quota: Quota, key: string): Promise<Record<string, string>> => {
    if (standardHeaders === 'draft-6') return draft6(quota, windowSeconds)
    const name = identifier ?? defaultPolicyName(quota.max, windowMs)
    return draft8(quota, windowSeconds, name, await partitionKey(key))
  }

  const description = rateLimitDescription(store, failOpen, rateLimitHeaders(standardHeaders))
  return described(description, async function rateLimit(c, next) {
    const d = begin(c, 'rateLimit')
    if (skip && (await skip(c))) {
      decide(d, 'skip')
      return next()
    }
    const key = await keyGenerator(c)
    const max = maxFn ? checkMax(await maxFn(c), 'max(c)') : staticMax
    let info: RateLimitInfo
    let s: RateLimitStore
    try {
      s = store ??= new MemoryRateLimitStore()
      const t = clock(d)
      info = await count(s, key, max)
      storeTime(d, METHOD[algorithm], t)
      if (!(Number.isFinite(info?.count) && Number.isFinite(info?.ttl))) {
        throw new TypeError('store returned an invalid { count, ttl }')
      }
      failing = false
    } catch (error) {
      report(error, c)
      if (failOpen) {
        decide(d, 'skip', 'store_unavailable')
        return next()
      }
      reject(503, 'Rate limit store unavailable', 'store_unavailable')
    }

    const reset = Math.max(0, Math.ceil(info.ttl / 1000))
    const headers = await headersFor({ max, remaining: Math.max(0, max - info.count), reset }, key)
    const refunds = skipFailed || skipSuccessful
    const deadline = refunds ? Date.now() + info.ttl : 0
    const hit: RateLimitHit = { algorithm, windowMs, max }
    if (info.count > max) {
      if (skipFailed && countsRejected && !dryRun) await refund(s, key, hit, deadline, c)
      refuse(d, dryRun, 429, message, 'rate_limited', {
        ...headers,
        'Retry-After': String(Math.max(1, reset)),
      })
    }
    decide(d, 'allow')
    await next()
    if (refunds) {
      const failed = c.error !== undefined || c.res.status >= 400
      if (failed ? skipFailed : skipSuccessful) await refund(s, key, hit, deadline, c)
    }
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
  })
}
