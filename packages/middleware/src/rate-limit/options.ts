/**
 * The options of `rateLimit`: their type, and the checks that run once when the factory is
 * called, so a misconfiguration is found at startup.
 */
import type { Context } from 'hono'
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
import { clientIpKey, isIPv6Subnet } from './client-ip-key'
import { POLICY_NAME, type RateLimitHeaders } from './headers'
import type { RateLimitAlgorithm, RateLimitStore } from './store'

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
] as const

const ALGORITHMS = ['fixed-window', 'sliding-window', 'token-bucket'] as const
const METHOD = {
  'fixed-window': 'increment',
  'sliding-window': 'slidingWindow',
  'token-bucket': 'tokenBucket',
} as const

/** The options of one `rateLimit` middleware, checked once at construction. */
export type RateLimitConfig = ReturnType<typeof rateLimitConfig>

/** Validates the options of `rateLimit`; a bad one throws a `TypeError` starting `rateLimit:`. */
export function rateLimitConfig(options: RateLimitOptions) {
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
  const onStoreError =
    options.onStoreError === undefined
      ? undefined
      : assertFunction<(error: unknown, c: Context) => void>(
          factory,
          'onStoreError',
          options.onStoreError,
        )
  const store = options.store
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
  return {
    windowMs,
    algorithm,
    checkMax,
    maxFn,
    staticMax,
    standardHeaders,
    identifier,
    message,
    keyGenerator,
    skip,
    skipFailed,
    skipSuccessful,
    failOpen,
    onStoreError,
    store,
  }
}
