import type { Context } from 'hono'
import { POLICY_NAME } from '../internal/http/ratelimit-fields'
import { clientIdentity } from '../internal/network/client-identity'
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
import type { RateLimitStore } from '../rate-limit/store'
import { type DateOf, dateIn, type QuotaPeriod } from './period'

/**
 * Options of {@link quota}.
 *
 * @example
 * const options: QuotaOptions = { limit: 10_000, period: 'month', store }
 * app.use('/partner/*', apiKey({ store: keys }), quota(options))
 */
export interface QuotaOptions {
  /**
   * Calls per period: a positive integer, or a function of the request (a plan's limit, read
   * from the API key's metadata). Required.
   */
  limit: number | ((c: Context) => number | Promise<number>)
  /** `'day'` or `'month'`, by the calendar of `timeZone`. Required. */
  period: QuotaPeriod
  /** IANA time zone whose midnight starts a period (`'Europe/Berlin'`). Default `'UTC'`. */
  timeZone?: string
  /**
   * Where counts live: a rate-limit store with `consume` (memory, Redis, PostgreSQL, Durable
   * Objects, Deno KV). Required: a monthly count kept in memory would start again at every deploy,
   * so choose `new MemoryRateLimitStore()` on purpose (tests, one long-lived process).
   */
  store: RateLimitStore
  /**
   * Whose quota a request counts against. Default: the API key's id (`apiKey()` before it), else
   * the JWT `sub` (`jwtAuth()` before it), else the client IP.
   */
  key?: (c: Context) => string | Promise<string>
  /** Name of the quota in the RateLimit fields. Default `'<limit>-per-<period>'`. */
  name?: string
  /** Body of the 429. Default `'Quota exceeded'`. */
  message?: string
  /** When the store fails: `false` (default) answers 503, `true` lets the request through uncounted. */
  failOpen?: boolean
  /** Called when the store throws. Default: one `console.warn` per outage. */
  onStoreError?: (error: unknown, c: Context) => void
  /** Report instead of refuse: a request over the quota passes with a `dry-run` decision. */
  dryRun?: boolean
}

/** `quota`'s options, checked once, defaults filled in. */
export interface QuotaConfig {
  readonly limitOf: (c: Context) => number | Promise<number>
  readonly period: QuotaPeriod
  readonly dateOf: DateOf
  readonly store: RateLimitStore
  readonly keyOf: (c: Context) => string | Promise<string>
  readonly name: (limit: number) => string
  readonly message: string
  readonly failOpen: boolean
  readonly onStoreError: ((error: unknown, c: Context) => void) | undefined
  readonly dryRun: boolean
}

export const NAME = 'quota'
const KNOWN = [
  'limit',
  'period',
  'timeZone',
  'store',
  'key',
  'name',
  'message',
  'failOpen',
  'onStoreError',
  'dryRun',
] as const

/** Checks `options` and returns the frozen configuration, or throws the first problem found. */
export function quotaConfig(options: QuotaOptions): QuotaConfig {
  if (options === null || typeof options !== 'object') {
    throw optionError(NAME, 'options with "limit", "period" and "store" must be given')
  }
  assertKnownKeys(NAME, options, KNOWN)
  const period = assertOneOf(NAME, 'period', options.period, ['day', 'month'] as const)
  const timeZone = assertNonEmptyString(NAME, 'timeZone', options.timeZone ?? 'UTC')
  let dateOf: DateOf
  try {
    dateOf = dateIn(timeZone)
  } catch {
    throw optionError(
      NAME,
      `"timeZone" must be an IANA time zone this runtime knows, got ${formatValue(timeZone)}`,
    )
  }
  const store = options.store as RateLimitStore | undefined
  if (typeof store?.consume !== 'function') {
    throw optionError(
      NAME,
      '"store" is required: a rate-limit store with consume() (MemoryRateLimitStore, RedisRateLimitStore, …)',
    )
  }
  const name =
    options.name === undefined ? undefined : assertNonEmptyString(NAME, 'name', options.name)
  if (name !== undefined && !POLICY_NAME.test(name)) {
    throw optionError(NAME, '"name" must be 1–64 printable ASCII characters without " or \\')
  }
  return Object.freeze({
    limitOf: limitOption(options.limit),
    period,
    dateOf,
    store,
    keyOf:
      options.key === undefined
        ? (c: Context) => clientIdentity(c)
        : assertFunction<(c: Context) => string | Promise<string>>(NAME, 'key', options.key),
    name: name === undefined ? (limit: number) => `${limit}-per-${period}` : () => name,
    message: assertNonEmptyString(NAME, 'message', options.message ?? 'Quota exceeded'),
    failOpen: assertBoolean(NAME, 'failOpen', options.failOpen ?? false),
    onStoreError:
      options.onStoreError === undefined
        ? undefined
        : assertFunction<(error: unknown, c: Context) => void>(
            NAME,
            'onStoreError',
            options.onStoreError,
          ),
    dryRun: assertBoolean(NAME, 'dryRun', options.dryRun ?? false),
  })
}

function limitOption(limit: unknown): (c: Context) => number | Promise<number> {
  if (limit === undefined) throw optionError(NAME, '"limit" is required')
  if (typeof limit === 'function') return limit as (c: Context) => number | Promise<number>
  const fixed = checkLimit(assertPositiveInteger(NAME, 'limit', limit))
  return () => fixed
}

/** A limit, fixed or returned per request: a positive integer up to 2^53 − 1. */
export function checkLimit(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit <= 0) {
    throw optionError(
      NAME,
      `"limit" must be a positive integer up to 2^53 − 1, got ${formatValue(limit)}`,
    )
  }
  return limit
}
