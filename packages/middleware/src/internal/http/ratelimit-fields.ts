import { BoundedCache } from '../caches/bounded-cache'
import { digestHex } from '../crypto'

// The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-08) as every limit that
// reports them writes them: rateLimit (draft-8 mode) and quota.

/** What one response reports. */
export interface Quota {
  max: number
  remaining: number
  /** Seconds until the count drops. */
  reset: number
}

/** A quota name must be an sf-string we never have to escape: printable ASCII without `"` `\`. */
export const POLICY_NAME = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}$/

/**
 * The draft-8 partition keys of one limiter: `key` → the first 12 hex digits of the SHA-256 of a
 * random salt followed by the key, base64-encoded (16 characters, the shape express-rate-limit
 * sends). express-rate-limit hashes the key unsalted, so a client's IPv4 address is found again by
 * hashing all 2³² candidates (or the few hundred of a known network) in moments; with a salt no
 * one outside this limiter knows, the pk identifies a client's partition and nothing more. The
 * salt is drawn on first use, never at construction (Workers forbid randomness at module scope),
 * so each limiter (and each process) has its own: a pk is stable for as long as the limiter
 * lives. Cached by `key`, which must already be bounded (see `boundKey`), since most requests
 * come from clients seen before.
 */
export function partitionKeys(): (key: string) => Promise<string> {
  const cache = new BoundedCache<string, string>(10_000)
  let salt: string | undefined
  return async (key) => {
    let pk = cache.get(key)
    if (pk === undefined) {
      // 122 random bits, and no base64 code in the bundle for them.
      salt ??= crypto.randomUUID()
      pk = btoa((await digestHex('SHA-256', salt + key)).slice(0, 12))
      cache.set(key, pk)
    }
    return pk
  }
}

/** The draft-8 header pair. */
export function draft8(
  quota: Quota,
  windowSeconds: number,
  name: string,
  pk: string,
): Record<string, string> {
  return {
    RateLimit: `"${name}"; r=${quota.remaining}; t=${quota.reset}`,
    'RateLimit-Policy': `"${name}"; q=${quota.max}; w=${windowSeconds}; pk=:${pk}:`,
  }
}
