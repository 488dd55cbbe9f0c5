import type { Context, MiddlewareHandler } from 'hono'
import { getClientIPParsed } from '../internal/client-ip'
import { described } from '../internal/described'
import { editResponseHeaders } from '../internal/headers'
import { formatIPv4 } from '../internal/ip'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertPositiveInteger,
  optionError,
} from '../internal/options'
import { reject } from '../internal/reject'
import { rateLimitDescription } from './description'
import { MemoryRateLimitStore } from './memory-store'
import type { RateLimitInfo, RateLimitStore } from './store'

/**
 * Options of {@link rateLimit}.
 *
 * @example
 * const options: RateLimitOptions = { max: 100, windowMs: 60_000, failOpen: true }
 * app.use('/api/*', rateLimit(options))
 */
export interface RateLimitOptions {
  /** Requests allowed per key and window. Default `60`. */
  max?: number
  /** Window length in milliseconds. Default `60000`. */
  windowMs?: number
  /** Body of the 429 response. Default `'Too many requests'`. */
  message?: string
  /** Counter store. Default: a `MemoryRateLimitStore` per middleware, created on first use. */
  store?: RateLimitStore
  /** Derives the counter key. Default: the client IP (IPv6 by /64), see {@link clientIpKey}. */
  keyGenerator?: (c: Context) => string | Promise<string>
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
  'message',
  'store',
  'keyGenerator',
  'failOpen',
  'onStoreError',
] as const

/**
 * The default rate-limit key: the client address from the shared client-IP rule (the runtime's
 * connection address; `X-Forwarded-For` only when the runtime exposes none, and then its
 * right-most entry). IPv4-mapped IPv6 counts as IPv4. IPv6 clients are keyed by their /64
 * network, since one host usually owns a whole /64 and could otherwise rotate addresses freely.
 * Requests without a usable address share the single key `unknown`: they are limited together,
 * never exempted.
 *
 * @example
 * // Separate buckets per route on one shared store: prefix the default key.
 * const store = new MemoryRateLimitStore()
 * app.post('/login', rateLimit({ max: 5, store, keyGenerator: (c) => `login:${clientIpKey(c)}` }))
 * app.use('/api/*', rateLimit({ max: 100, store, keyGenerator: (c) => `api:${clientIpKey(c)}` }))
 */
export function clientIpKey(c: Context): string {
  const ip = getClientIPParsed(c)
  if (ip === null) return 'unknown'
  if (ip.version === 4) return formatIPv4(ip.value)
  return `${(ip.value >> 64n).toString(16).padStart(16, '0')}::/64`
}

/**
 * Fixed-window rate limiting per key (default: client IP). Request number `max` in a window
 * passes, `max + 1` gets 429 with `message` and `Retry-After` (seconds). Every response carries
 * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds) and `RateLimit-Policy`
 * (`<max>;w=<window seconds>`). A failing store gives 503 `Rate limit store unavailable`, or
 * lets requests through with `failOpen: true`.
 *
 * @param options.max default `60`
 * @param options.windowMs default `60000`
 * @param options.message default `'Too many requests'`
 * @param options.store default `new MemoryRateLimitStore()` (created lazily)
 * @param options.failOpen default `false`
 * @example
 * ```ts
 * app.use('/api/*', rateLimit({ max: 100, windowMs: 60_000 }))
 * app.post('/login', rateLimit({ max: 5, windowMs: 15 * 60_000 }), login)
 * ```
 */
export function rateLimit(options: RateLimitOptions = {}): MiddlewareHandler {
  const factory = 'rateLimit'
  assertKnownKeys(factory, options, KNOWN)
  const max = assertPositiveInteger(factory, 'max', options.max ?? 60)
  const windowMs = assertPositiveInteger(factory, 'windowMs', options.windowMs ?? 60_000)
  const message = assertNonEmptyString(factory, 'message', options.message ?? 'Too many requests')
  const keyGenerator =
    options.keyGenerator === undefined
      ? clientIpKey
      : assertFunction<(c: Context) => string | Promise<string>>(
          factory,
          'keyGenerator',
          options.keyGenerator,
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
  let store = options.store
  if (
    store !== undefined &&
    (store === null || typeof store !== 'object' || typeof store.increment !== 'function')
  ) {
    throw optionError(factory, '"store" must be a RateLimitStore with an increment(key, windowMs)')
  }

  const limit = String(max)
  const policy = `${max};w=${Math.ceil(windowMs / 1000)}`
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

  const description = rateLimitDescription(store, failOpen)
  return described(description, async function rateLimit(c, next) {
    const key = await keyGenerator(c)
    let info: RateLimitInfo
    try {
      store ??= new MemoryRateLimitStore()
      info = await store.increment(key, windowMs)
      if (!(Number.isFinite(info?.count) && Number.isFinite(info?.ttl))) {
        throw new TypeError('store returned an invalid { count, ttl }')
      }
      failing = false
    } catch (error) {
      report(error, c)
      if (failOpen) return next()
      reject(503, 'Rate limit store unavailable', 'store_unavailable')
    }

    const reset = Math.max(0, Math.ceil(info.ttl / 1000))
    const headers: Record<string, string> = {
      'RateLimit-Limit': limit,
      'RateLimit-Remaining': String(Math.max(0, max - info.count)),
      'RateLimit-Reset': String(reset),
      'RateLimit-Policy': policy,
    }
    if (info.count > max) {
      reject(429, message, 'rate_limited', {
        ...headers,
        'Retry-After': String(Math.max(1, reset)),
      })
    }
    await next()
    // In place: c.header() on a finished response rebuilds the Response on every call, which
    // turns a string body into a stream and costs @hono/node-server its fast path.
    editResponseHeaders(c, (h) => {
      for (const name in headers) h.set(name, headers[name] as string)
    })
  })
}
