import type { Context } from 'hono'
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
import { POLICY_NAME, type RateLimitHeaders } from './headers'
import { MemoryRateLimitStore } from './memory-store'
import type { RateLimitAlgorithm, RateLimitStore, RateLimitWindow } from './store'
import { MAX_LIMITS } from './store'

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

/** A number of the request (`max`, `cost`): fixed, or a function of the request. */
type PerRequest = (c: Context) => number | Promise<number>

/**
 * `rateLimit`'s options, checked once at construction, with their defaults filled in. Frozen: the
 * request path reads it, never changes it.
 */
export interface RateLimitConfig {
  readonly algorithm: RateLimitAlgorithm
  readonly windowMs: number
  /** `max` as a number; `0` when {@link maxFn} gives it per request. */
  readonly max: number
  readonly maxFn: PerRequest | undefined
  /** Several limits (sorted, tightest window first), replacing `max` and `windowMs`. */
  readonly limits: readonly RateLimitWindow[] | undefined
  /** `cost` as a number (default 1); ignored when {@link costFn} gives it per request. */
  readonly cost: number
  readonly costFn: PerRequest | undefined
  readonly blockMs: number
  /** Whether requests go through the store's `consume` (anything beyond one unit of one limit). */
  readonly consumes: boolean
  readonly standardHeaders: RateLimitHeaders
  readonly identifier: string | undefined
  readonly message: string
  readonly keyGenerator: (c: Context) => string | Promise<string>
  readonly skip: ((c: Context) => boolean | Promise<boolean>) | undefined
  readonly skipFailed: boolean
  readonly skipSuccessful: boolean
  readonly failOpen: boolean
  readonly dryRun: boolean
  readonly onStoreError: ((error: unknown, c: Context) => void) | undefined
  /** The store passed in; `undefined`: a memory store is made on first use. */
  readonly store: RateLimitStore | undefined
  /** Whether refused keys are remembered in this process (never in dry run). */
  readonly denyCache: boolean
}

const FACTORY = 'rateLimit'

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

/** The store method that counts one unit of one limit, per algorithm. */
export const COUNT_METHOD = {
  'fixed-window': 'increment',
  'sliding-window': 'slidingWindow',
  'token-bucket': 'tokenBucket',
} as const

/**
 * Checks `options` and returns the frozen configuration, or throws the first problem found (in
 * the order of the checks below, which is the order the error messages were written for).
 */
export function rateLimitConfig(options: RateLimitOptions): RateLimitConfig {
  assertKnownKeys(FACTORY, options, KNOWN)
  const windowMs = safeInteger(
    'windowMs',
    assertPositiveInteger(FACTORY, 'windowMs', options.windowMs ?? 60_000),
  )
  const algorithm = assertOneOf(
    FACTORY,
    'algorithm',
    options.algorithm ?? 'fixed-window',
    ALGORITHMS,
  )
  const maxOption = options.max ?? 60
  const maxFn = typeof maxOption === 'function' ? (maxOption as PerRequest) : undefined
  const max = maxFn ? 0 : checkMax(maxOption, '"max"', windowMs)
  const { standardHeaders, identifier } = headerOptions(options)
  const message = assertNonEmptyString(FACTORY, 'message', options.message ?? 'Too many requests')
  const keyGenerator = keyOption(FACTORY, 'keyGenerator', options.keyGenerator, options.ipv6Subnet)
  const skip =
    options.skip === undefined
      ? undefined
      : assertFunction<(c: Context) => boolean | Promise<boolean>>(FACTORY, 'skip', options.skip)
  const skipFailed = assertBoolean(
    FACTORY,
    'skipFailedRequests',
    options.skipFailedRequests ?? false,
  )
  const skipSuccessful = assertBoolean(
    FACTORY,
    'skipSuccessfulRequests',
    options.skipSuccessfulRequests ?? false,
  )
  const failOpen = assertBoolean(FACTORY, 'failOpen', options.failOpen ?? false)
  const dryRun = assertBoolean(FACTORY, 'dryRun', options.dryRun ?? false)
  const onStoreError =
    options.onStoreError === undefined
      ? undefined
      : assertFunction<(error: unknown, c: Context) => void>(
          FACTORY,
          'onStoreError',
          options.onStoreError,
        )
  const limits = limitsOption(options)
  const costFn = typeof options.cost === 'function' ? options.cost : undefined
  const cost =
    costFn || options.cost === undefined
      ? 1
      : safeInteger('cost', assertNonNegativeInteger(FACTORY, 'cost', options.cost))
  const blockMs =
    options.blockDurationMs === undefined
      ? 0
      : safeInteger(
          'blockDurationMs',
          assertPositiveInteger(FACTORY, 'blockDurationMs', options.blockDurationMs),
        )
  // Anything beyond one unit of one limit goes through the store's consume().
  const consumes = limits !== undefined || options.cost !== undefined || blockMs > 0
  const refunds = skipFailed || skipSuccessful
  const consumeOption =
    limits !== undefined ? 'limits' : options.cost !== undefined ? 'cost' : 'blockDurationMs'
  const refundOption = skipFailed ? 'skipFailedRequests' : 'skipSuccessfulRequests'
  if (consumes && refunds) {
    throw optionError(
      FACTORY,
      `${refundOption} cannot be combined with "${consumeOption}" (a refund of several limits or units is not supported)`,
    )
  }
  if (limits !== undefined && maxFn) {
    throw optionError(FACTORY, '"limits" takes fixed numbers; "max" as a function is not allowed')
  }
  const store = options.store
  if (store !== undefined) {
    checkStore(store, algorithm, consumes ? consumeOption : undefined, refunds ? refundOption : '')
  }
  const denyCache =
    !dryRun &&
    (options.denyCache ?? (store !== undefined && !(store instanceof MemoryRateLimitStore)))
  if (options.denyCache !== undefined) assertBoolean(FACTORY, 'denyCache', options.denyCache)
  return Object.freeze({
    algorithm,
    windowMs,
    max,
    maxFn,
    limits,
    cost,
    costFn,
    blockMs,
    consumes,
    standardHeaders,
    identifier,
    message,
    keyGenerator,
    skip,
    skipFailed,
    skipSuccessful,
    failOpen,
    dryRun,
    onStoreError,
    store,
    denyCache,
  })
}

/**
 * A number a store counts with, checked to be a safe integer: beyond 2^53 PostgreSQL's bigint
 * overflows and Lua's doubles round, and a failing store lets the request through under failOpen.
 */
export function safeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value)) {
    throw optionError(FACTORY, `"${name}" must be at most 2^53 − 1, got ${formatValue(value)}`)
  }
  return value
}

/**
 * A `max` (of the options, of a limit, or returned by `max(c)`) checked against its window.
 * `where` names it in the message.
 */
export function checkMax(max: unknown, where: string, windowMs: number): number {
  if (typeof max !== 'number' || !Number.isInteger(max) || max <= 0) {
    throw optionError(FACTORY, `${where} must be a positive integer, got ${formatValue(max)}`)
  }
  // Every store's consume() and the bucket count in units of max × windowMs: beyond 2^53 a
  // store would refuse the call (or PostgreSQL's bigint overflow), and a failing store lets the
  // request through under failOpen.
  if (!Number.isSafeInteger(max * windowMs)) {
    throw optionError(
      FACTORY,
      `${where} × "windowMs" must be a safe integer (at most 2^53 − 1), got ${formatValue(max)} × ${windowMs}`,
    )
  }
  return max
}

/** `standardHeaders` and the draft-8 quota name. */
function headerOptions(options: RateLimitOptions): {
  standardHeaders: RateLimitHeaders
  identifier: string | undefined
} {
  const standardHeaders = assertOneOf(
    FACTORY,
    'standardHeaders',
    options.standardHeaders ?? 'draft-6',
    ['draft-6', 'draft-8'] as const,
  )
  const identifier = options.identifier
  if (identifier !== undefined) {
    if (typeof identifier !== 'string' || !POLICY_NAME.test(identifier)) {
      throw optionError(
        FACTORY,
        `"identifier" must be 1–64 printable ASCII characters without quotes or backslashes, got ${formatValue(identifier)}`,
      )
    }
    if (standardHeaders !== 'draft-8') {
      throw optionError(
        FACTORY,
        '"identifier" names the draft-8 quota: set standardHeaders: \'draft-8\'',
      )
    }
  }
  return { standardHeaders, identifier }
}

/** `limits`, checked and sorted tightest window first (headers and refusals look at it first). */
function limitsOption(options: RateLimitOptions): RateLimitWindow[] | undefined {
  const limits = options.limits
  if (limits === undefined) return undefined
  if (!Array.isArray(limits) || limits.length === 0) {
    throw optionError(FACTORY, '"limits" must be a non-empty array of { max, windowMs }')
  }
  if (limits.length > MAX_LIMITS) {
    throw optionError(FACTORY, `"limits" takes at most ${MAX_LIMITS} limits`)
  }
  for (const name of ['max', 'windowMs', 'identifier'] as const) {
    if (options[name] !== undefined) {
      throw optionError(FACTORY, `"limits" replaces "${name}": give one or the other`)
    }
  }
  const seen = new Set<number>()
  const checked = limits.map((limit, i) => {
    if (limit === null || typeof limit !== 'object') {
      throw optionError(FACTORY, `"limits[${i}]" must be { max, windowMs }`)
    }
    assertKnownKeys(FACTORY, limit, ['max', 'windowMs'])
    const w = assertPositiveInteger(FACTORY, `limits[${i}].windowMs`, limit.windowMs)
    if (seen.has(w)) throw optionError(FACTORY, `two limits share windowMs ${w}`)
    seen.add(w)
    return { max: checkMax(limit.max, `"limits[${i}].max"`, w), windowMs: w }
  })
  return checked.sort((a, b) => a.windowMs - b.windowMs)
}

/**
 * Checks that a store passed in has every method the options need: `consume` for `consumeOption`
 * (when requests are consumed), the algorithm's method, `decrement` for `refundOption` (when
 * set).
 */
function checkStore(
  store: RateLimitStore,
  algorithm: RateLimitAlgorithm,
  consumeOption: string | undefined,
  refundOption: string,
): void {
  if (consumeOption !== undefined && typeof store.consume !== 'function') {
    throw optionError(
      FACTORY,
      `"${consumeOption}" needs a store with consume(key, request); this store has none`,
    )
  }
  if (store === null || typeof store !== 'object' || typeof store.increment !== 'function') {
    throw optionError(FACTORY, '"store" must be a RateLimitStore with an increment(key, windowMs)')
  }
  const method = COUNT_METHOD[algorithm]
  if (typeof store[method] !== 'function') {
    throw optionError(
      FACTORY,
      `algorithm '${algorithm}' needs a store with ${method}(key, windowMs, max); this store has none`,
    )
  }
  if (refundOption && typeof store.decrement !== 'function') {
    throw optionError(
      FACTORY,
      `${refundOption} needs a store with decrement(key, hit); this store has none`,
    )
  }
}
