import { BoundedCache } from './bounded-cache'
import { hmacSign, hmacVerify, importHmacKey, lazy } from './crypto'
import { optionError } from './options'

/**
 * Signs cookie values as `<value>.<base64url HMAC-SHA256>`. With several secrets, the first signs
 * and every one verifies, so secrets can be rotated without logging everybody out.
 */
export interface CookieSigner {
  sign(value: string): Promise<string>
  /** Returns the value when the signature is valid under any secret, else `null`. */
  unsign(signed: string): Promise<string | null>
}

/** How many verified cookies each signer remembers. */
export const VERIFIED_COOKIE_CACHE_SIZE = 1000

/**
 * Creates a signer. `unsign` remembers up to {@link VERIFIED_COOKIE_CACHE_SIZE} signed strings
 * whose signature verified (least recently used evicted), so a returning cookie costs a Map
 * lookup instead of a WebCrypto verify. Only exact strings that verified are remembered, never a
 * failure; the cache belongs to this signer, so other secrets (a rotation builds a new signer)
 * never see its entries.
 */
export function createCookieSigner(secrets: readonly string[]): CookieSigner {
  const keys = lazy(() => Promise.all(secrets.map((s) => importHmacKey(s))))
  const verified = new BoundedCache<string, string>(VERIFIED_COOKIE_CACHE_SIZE)
  return {
    async sign(value) {
      const [first] = await keys()
      return `${value}.${await hmacSign(first as CryptoKey, value)}`
    },
    async unsign(signed) {
      const hit = verified.get(signed)
      if (hit !== undefined) return hit
      const dot = signed.lastIndexOf('.')
      if (dot <= 0 || dot === signed.length - 1) return null
      const value = signed.slice(0, dot)
      const signature = signed.slice(dot + 1)
      for (const key of await keys()) {
        if (await hmacVerify(key, value, signature)) {
          verified.set(signed, value)
          return value
        }
      }
      return null
    },
  }
}

/** Validates a `secret` option: one non-empty string or a non-empty list of them, as a list. */
export function assertSecretList(factory: string, value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : value
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.some((s) => typeof s !== 'string' || s.length === 0)
  ) {
    throw optionError(factory, '"secret" must be a non-empty string or a list of them')
  }
  return [...list]
}
