/**
 * Argument checks shared by every backend store (Redis, Cloudflare, Deno KV): the store contracts
 * in rate-limit/store.ts, sessions/store.ts and api-key/store.ts say what a valid call is; these
 * helpers say it once, with the store's name (and method, where it helps) in every message.
 */
import { assertKnownKeys, optionError } from '../options'

/**
 * The options every backend store takes: its handle (`sendCommand`, `kv`, `namespace`) and an
 * optional key `prefix`. Checks that options were given, that no key is unknown, and the prefix;
 * the backend checks its own handle. Returns the prefix, or `defaultPrefix` when none is given.
 */
export function storeOptions(
  store: string,
  options: object | undefined,
  handle: string,
  defaultPrefix: string,
): string {
  if (options === undefined) throw optionError(store, `"${handle}" is required`)
  assertKnownKeys(store, options, [handle, 'prefix'])
  return prefixOption(store, (options as { prefix?: unknown }).prefix, defaultPrefix)
}

/** A key prefix option: a string, or the default. */
export function prefixOption(store: string, prefix: unknown, fallback: string): string {
  if (prefix === undefined) return fallback
  if (typeof prefix !== 'string') {
    throw optionError(store, `"prefix" must be a string, got ${typeof prefix}`)
  }
  return prefix
}

/** `windowMs` of a rate-limit call: a positive integer number of milliseconds. */
export function checkWindowMs(where: string, windowMs: unknown): number {
  if (typeof windowMs !== 'number' || !Number.isSafeInteger(windowMs) || windowMs <= 0) {
    throw new TypeError(`${where}: windowMs must be a positive integer, got ${String(windowMs)}`)
  }
  return windowMs
}

/** `max` of a fixed-window limit: a positive safe integer (no product with `windowMs` is formed). */
export function checkCount(where: string, max: unknown): number {
  if (typeof max !== 'number' || !Number.isSafeInteger(max) || max <= 0) {
    throw new TypeError(`${where}: max must be a positive integer up to 2^53 − 1`)
  }
  return max
}

/**
 * `max` of a sliding-window or token-bucket call: a positive integer whose product with
 * `windowMs` is a safe integer (the stores count in units of `max × windowMs`).
 */
export function checkMax(where: string, windowMs: number, max: unknown): number {
  if (
    typeof max !== 'number' ||
    !Number.isInteger(max) ||
    max <= 0 ||
    !Number.isSafeInteger(max * windowMs)
  ) {
    throw new TypeError(
      `${where}: max must be a positive integer with max × windowMs a safe integer`,
    )
  }
  return max
}

/**
 * The arguments of a single-limit rate-limit call (`increment`, `slidingWindow`, `tokenBucket`)
 * or a refund (`decrement`), as every RateLimitStore checks them: `windowMs`, and `max` when the
 * call has one. Errors name `<store>.<method>`; the message is built only when a check fails
 * (the memory store runs this on every request).
 */
export function checkLimitArgs(
  store: string,
  method: string,
  windowMs: unknown,
  max?: unknown,
): void {
  if (!(Number.isSafeInteger(windowMs) && (windowMs as number) > 0)) {
    checkWindowMs(`${store}.${method}`, windowMs)
  }
  if (max !== undefined) {
    const product = (max as number) * (windowMs as number)
    if (!(Number.isInteger(max) && (max as number) > 0 && Number.isSafeInteger(product))) {
      checkMax(`${store}.${method}`, windowMs as number, max)
    }
  }
}

/** `maxAge` of `set`, in seconds, as whole milliseconds (0 or less means "delete"). */
export function sessionLifetimeMs(store: string, maxAge: unknown): number {
  if (typeof maxAge !== 'number' || !Number.isFinite(maxAge)) {
    throw new TypeError(`${store}: maxAge must be a number of seconds, got ${String(maxAge)}`)
  }
  return Math.ceil(maxAge * 1000)
}

/**
 * What `set(id, data, maxAge)` writes: the JSON text and lifetime in ms, or `null` when the
 * session is to be deleted (`maxAge <= 0`). Serialises first, so data that cannot be stored never
 * deletes the old value.
 */
export function sessionWrite(
  store: string,
  data: unknown,
  maxAge: unknown,
): { text: string; ms: number } | null {
  const ms = sessionLifetimeMs(store, maxAge)
  const text = JSON.stringify(data)
  return ms <= 0 ? null : { text, ms }
}

/** A stored session or metadata value read back: a JSON object, else (corrupt, other) `null`. */
export function parseStoredObject(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  return value as Record<string, unknown>
}

/** The key given to `add`: a non-empty string (never echoed: it may be a real key). */
export function checkApiKey(store: string, method: string, key: unknown): string {
  if (typeof key !== 'string' || key.length === 0) {
    throw new TypeError(`${store}.${method}: key must be a non-empty string`)
  }
  return key
}

/** The metadata given to `add`: an object, or absent. */
export function checkMetadata(
  store: string,
  metadata: unknown,
): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw new TypeError(`${store}.add: metadata must be an object`)
  }
  return metadata as Record<string, unknown>
}
