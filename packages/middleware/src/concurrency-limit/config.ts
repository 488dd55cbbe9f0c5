import type { Context } from 'hono'
import { keyOption } from '../internal/network/client-ip-key'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertOneOf,
  assertPositiveInteger,
  optionError,
} from '../internal/options'
import type { ConcurrencyStore } from './store'

/**
 * Options of {@link concurrencyLimit}.
 *
 * @example
 * const options: ConcurrencyLimitOptions = { max: 2, leaseMs: 30_000 }
 * app.post('/chat', concurrencyLimit(options), chat)
 */
export interface ConcurrencyLimitOptions {
  /** Requests in flight at once per key. Required: a positive integer. */
  max: number
  /** Derives the slot key. Default: the client IP, as rateLimit's default key (`clientIpKey`). */
  key?: (c: Context) => string | Promise<string>
  /**
   * Prefix length by which the default key groups IPv6 clients (32–128), or `false` for the full
   * address. Default `56`. Only for the default key.
   */
  ipv6Subnet?: number | false
  /** Where slots are held. Default: a `MemoryConcurrencyStore` per middleware (per process). */
  store?: ConcurrencyStore
  /**
   * How long a slot's lease lasts without renewal, in milliseconds. Requests in flight renew
   * theirs every `leaseMs / 2`, so a long stream keeps its slot; the leases of an instance that
   * crashed expire after at most `leaseMs`. Default `60000`.
   */
  leaseMs?: number
  /** `Retry-After` of the 429, in seconds. Default `1`. */
  retryAfter?: number
  /** Body of the 429 response. Default `'Too many concurrent requests'`. */
  message?: string
  /** Requests for which this returns true take no slot and are never refused. */
  skip?: (c: Context) => boolean | Promise<boolean>
  /** When the store fails: `false` (default) rejects with 503, `true` lets the request through. */
  failOpen?: boolean
  /**
   * Called when the store throws. Default: one `console.warn` per outage (the first failure after
   * a success).
   */
  onStoreError?: (error: unknown, c: Context) => void
  /**
   * Report instead of refuse: a request over the limit passes (without a slot) with a `dry-run`
   * decision (`concurrency_limited`). Default `false`.
   */
  dryRun?: boolean
  /**
   * When the slot comes back while the handler still runs. `'response'` (default): as soon as
   * the client has its answer, also when an enclosing `requestTimeout` answers 408 or the client
   * aborts, so a hung handler never locks its client out. `'handler'`: not before the handler
   * has returned (or thrown), whatever was answered meanwhile, so the work in flight never
   * exceeds `max` even when handlers ignore `timeoutSignal`.
   */
  release?: 'response' | 'handler'
}

/**
 * `concurrencyLimit`'s options, checked once at construction, with their defaults filled in.
 * Frozen: the request path reads it, never changes it.
 */
export interface ConcurrencyLimitConfig {
  readonly max: number
  readonly leaseMs: number
  /** How often a request in flight renews its lease: every `leaseMs / 2`. */
  readonly renewMs: number
  /** `Retry-After` of the 429, as the header value. */
  readonly retryAfter: string
  readonly message: string
  readonly keyOf: (c: Context) => string | Promise<string>
  readonly skip: ((c: Context) => boolean | Promise<boolean>) | undefined
  readonly failOpen: boolean
  readonly dryRun: boolean
  /** `release: 'handler'`: the slot is held at least until the handler has returned. */
  readonly untilHandlerEnds: boolean
  readonly onStoreError: ((error: unknown, c: Context) => void) | undefined
  /** The store passed in; `undefined`: a memory store is made on first use. */
  readonly store: ConcurrencyStore | undefined
}

export const NAME = 'concurrencyLimit'
const KNOWN = [
  'max',
  'key',
  'ipv6Subnet',
  'store',
  'leaseMs',
  'retryAfter',
  'message',
  'skip',
  'failOpen',
  'onStoreError',
  'dryRun',
  'release',
] as const

/** Checks `options` and returns the frozen configuration, or throws the first problem found. */
export function concurrencyLimitConfig(options: ConcurrencyLimitOptions): ConcurrencyLimitConfig {
  if (options === undefined) throw optionError(NAME, 'options with "max" must be given')
  assertKnownKeys(NAME, options, KNOWN)
  if (options.max === undefined) throw optionError(NAME, '"max" is required')
  const max = assertPositiveInteger(NAME, 'max', options.max)
  if (!Number.isSafeInteger(max)) {
    // No store can count beyond: PostgreSQL's bigint fails, and under failOpen a failing store
    // lets every request through.
    throw optionError(NAME, `"max" must be at most 2^53 − 1, got ${max}`)
  }
  const leaseMs = assertPositiveInteger(NAME, 'leaseMs', options.leaseMs ?? 60_000)
  if (leaseMs < 2 || leaseMs > 2_147_483_647) {
    throw optionError(NAME, `"leaseMs" must be from 2 to 2147483647, got ${leaseMs}`)
  }
  const retryAfter = String(assertPositiveInteger(NAME, 'retryAfter', options.retryAfter ?? 1))
  const message = assertNonEmptyString(
    NAME,
    'message',
    options.message ?? 'Too many concurrent requests',
  )
  const keyOf = keyOption(NAME, 'key', options.key, options.ipv6Subnet)
  const skip =
    options.skip === undefined
      ? undefined
      : assertFunction<(c: Context) => boolean | Promise<boolean>>(NAME, 'skip', options.skip)
  const failOpen = assertBoolean(NAME, 'failOpen', options.failOpen ?? false)
  const dryRun = assertBoolean(NAME, 'dryRun', options.dryRun ?? false)
  const untilHandlerEnds =
    assertOneOf(NAME, 'release', options.release ?? 'response', [
      'response',
      'handler',
    ] as const) === 'handler'
  const onStoreError =
    options.onStoreError === undefined
      ? undefined
      : assertFunction<(error: unknown, c: Context) => void>(
          NAME,
          'onStoreError',
          options.onStoreError,
        )
  const store = options.store
  if (
    store !== undefined &&
    (store === null ||
      typeof store !== 'object' ||
      typeof store.acquire !== 'function' ||
      typeof store.renew !== 'function' ||
      typeof store.release !== 'function')
  ) {
    throw optionError(NAME, '"store" must be a ConcurrencyStore with acquire, renew and release')
  }
  return Object.freeze({
    max,
    leaseMs,
    renewMs: Math.floor(leaseMs / 2),
    retryAfter,
    message,
    keyOf,
    skip,
    failOpen,
    dryRun,
    untilHandlerEnds,
    onStoreError,
    store,
  })
}
