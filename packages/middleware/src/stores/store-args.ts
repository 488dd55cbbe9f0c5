/**
 * Argument checks shared by the platform stores (Cloudflare, Deno KV): the store contracts in
 * rate-limit/store.ts, sessions/store.ts and api-key/store.ts say what a valid call is; these
 * helpers say it once, with the store's name in every message.
 */

/** `windowMs` of `increment`: a positive integer number of milliseconds. */
export function checkWindowMs(store: string, windowMs: unknown): number {
  if (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs <= 0) {
    throw new TypeError(`${store}: windowMs must be a positive integer, got ${String(windowMs)}`)
  }
  return windowMs
}

/** `maxAge` of `set`, in seconds, as whole milliseconds (0 or less means "delete"). */
export function sessionLifetimeMs(store: string, maxAge: unknown): number {
  if (typeof maxAge !== 'number' || !Number.isFinite(maxAge)) {
    throw new TypeError(`${store}: maxAge must be a number of seconds, got ${String(maxAge)}`)
  }
  return Math.ceil(maxAge * 1000)
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

/** A key prefix option: a string, or the default. */
export function prefixOption(store: string, prefix: unknown, fallback: string): string {
  if (prefix === undefined) return fallback
  if (typeof prefix !== 'string') {
    throw new TypeError(`${store}: "prefix" must be a string, got ${typeof prefix}`)
  }
  return prefix
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
