import type { Context } from 'hono'
import { clientIdentity } from '../internal/network/client-identity'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertPositiveInteger,
  assertStringArray,
  formatValue,
  optionError,
} from '../internal/options'
import type { IdempotencyStore } from './store'

/**
 * Options of {@link idempotency}.
 *
 * @example
 * const options: IdempotencyOptions = { required: true, ttlMs: 3_600_000 }
 * app.post('/orders', idempotency(options), createOrder)
 */
export interface IdempotencyOptions {
  /** Methods whose requests are made idempotent. Default `['POST', 'PATCH']`. */
  methods?: string[]
  /** Refuse a request of those methods without the header: 400 `idempotency_key_missing`. Default `false`. */
  required?: boolean
  /**
   * The client a key belongs to, so two clients can use the same key. Default: the API key id
   * (`c.get('apiKey').id`, set by `apiKey`), else the JWT `sub` (`c.get('jwtPayload').sub`, set
   * by `jwtAuth`), else the client IP.
   */
  scope?: (c: Context) => string | Promise<string>
  /**
   * What identifies the request under its key. Default: method, path with query, and the SHA-256
   * of the body bytes. A retry with another fingerprint gets 422 `idempotency_key_reused`.
   */
  fingerprint?: (c: Context) => string | Promise<string>
  /** Where records live. Default: a `MemoryIdempotencyStore` per middleware (per process). */
  store?: IdempotencyStore
  /** How long the first request's lock lasts, in milliseconds. Default `60000`. */
  lockMs?: number
  /** How long a response is replayed, in milliseconds. Default `86400000` (24 h). */
  ttlMs?: number
  /** Largest body stored for replay, in bytes; a larger answer is not stored. Default `1048576`. */
  maxBodyBytes?: number
  /** Response headers stored and replayed. Default `['content-type', 'location']`. */
  replayHeaders?: string[]
  /** When the store fails: `false` (default) answers 503, `true` runs the request without a record. */
  failOpen?: boolean
  /** Called when the store throws. Default: one `console.warn` per outage. */
  onStoreError?: (error: unknown, c: Context) => void
}

/** `idempotency`'s options, checked once at construction, with their defaults filled in. */
export interface IdempotencyConfig {
  readonly methods: ReadonlySet<string>
  readonly required: boolean
  readonly scopeOf: (c: Context) => string | Promise<string>
  readonly fingerprintOf: ((c: Context) => string | Promise<string>) | undefined
  readonly store: IdempotencyStore | undefined
  readonly lockMs: number
  readonly ttlMs: number
  readonly maxBodyBytes: number
  readonly replayHeaders: readonly string[]
  readonly failOpen: boolean
  readonly onStoreError: ((error: unknown, c: Context) => void) | undefined
}

export const NAME = 'idempotency'
const KNOWN = [
  'methods',
  'required',
  'scope',
  'fingerprint',
  'store',
  'lockMs',
  'ttlMs',
  'maxBodyBytes',
  'replayHeaders',
  'failOpen',
  'onStoreError',
] as const
const MAX_MS = 2_147_483_647
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/

/**
 * The default scope: `key:<apiKey id>`, else `sub:<JWT sub>`, else `ip:<client address>` (the
 * one identity helper quota uses too; each IPv6 address kept apart, not grouped by /56).
 */
export function defaultScope(c: Context): string {
  return clientIdentity(c, false)
}

function milliseconds(name: string, value: unknown, fallback: number): number {
  const ms = assertPositiveInteger(NAME, name, value ?? fallback)
  if (ms > MAX_MS) throw optionError(NAME, `"${name}" must be at most ${MAX_MS}, got ${ms}`)
  return ms
}

/** Checks `options` and returns the frozen configuration, or throws the first problem found. */
export function idempotencyConfig(options: IdempotencyOptions = {}): IdempotencyConfig {
  if (options === null || typeof options !== 'object') {
    throw optionError(NAME, `options must be an object, got ${formatValue(options)}`)
  }
  assertKnownKeys(NAME, options, KNOWN)
  const methods = assertStringArray(NAME, 'methods', options.methods ?? ['POST', 'PATCH']).map(
    (m) => m.toUpperCase(),
  )
  if (methods.length === 0) throw optionError(NAME, '"methods" must list at least one method')
  const replayHeaders = assertStringArray(
    NAME,
    'replayHeaders',
    options.replayHeaders ?? ['content-type', 'location'],
  ).map((h) => h.toLowerCase())
  for (const h of replayHeaders) {
    if (!HEADER_NAME.test(h))
      throw optionError(NAME, `"replayHeaders": invalid header name ${formatValue(h)}`)
  }
  const store = options.store
  if (
    store !== undefined &&
    (store === null ||
      typeof store !== 'object' ||
      typeof store.begin !== 'function' ||
      typeof store.complete !== 'function' ||
      typeof store.release !== 'function')
  ) {
    throw optionError(NAME, '"store" must be an IdempotencyStore with begin, complete and release')
  }
  const fn = <T extends (...args: never[]) => unknown>(name: string, value: unknown) =>
    value === undefined ? undefined : assertFunction<T>(NAME, name, value)
  return Object.freeze({
    methods: new Set(methods),
    required: assertBoolean(NAME, 'required', options.required ?? false),
    scopeOf: fn<(c: Context) => string | Promise<string>>('scope', options.scope) ?? defaultScope,
    fingerprintOf: fn<(c: Context) => string | Promise<string>>('fingerprint', options.fingerprint),
    store,
    lockMs: milliseconds('lockMs', options.lockMs, 60_000),
    ttlMs: milliseconds('ttlMs', options.ttlMs, 86_400_000),
    maxBodyBytes: assertPositiveInteger(NAME, 'maxBodyBytes', options.maxBodyBytes ?? 1_048_576),
    replayHeaders,
    failOpen: assertBoolean(NAME, 'failOpen', options.failOpen ?? false),
    onStoreError: fn<(error: unknown, c: Context) => void>('onStoreError', options.onStoreError),
  })
}
