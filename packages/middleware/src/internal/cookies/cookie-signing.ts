import { BoundedCache, tailKey } from '../caches/bounded-cache'
import { hmacSign, hmacVerify, importHmacKey, lazy } from '../crypto'
import { optionError } from '../options'

/**
 * What a signed value is for. Each purpose is a separate label inside the HMAC input, so a value
 * signed for one middleware never verifies in another, even when both share one secret.
 */
export type SigningPurpose = 'sessions' | 'csrf'

/**
 * Signs cookie values as `<value>.<base64url HMAC-SHA256>`. With several secrets, the first signs
 * and every one verifies, so secrets can be rotated without logging everybody out.
 *
 * The HMAC covers `palisade.<purpose>.v1`, the optional `context` (length-prefixed) and the
 * value. `context` binds a value to something that is not in the cookie (csrf binds its token to
 * the session ID): the same signed string verifies only with the same context.
 */
export interface CookieSigner {
  sign(value: string, context?: string): Promise<string>
  /** Returns the value when the signature is valid under any secret (and `context`), else `null`. */
  unsign(signed: string, context?: string): Promise<string | null>
  /**
   * The value of a signed string this signer has verified before without a context (and still
   * remembers), without waiting: `undefined` means "ask {@link CookieSigner.unsign}", never
   * "invalid".
   */
  remembered(signed: string): string | undefined
}

/**
 * Context key under which `sessions()` tells `csrf()` which session a token is bound to. Not a
 * public variable: the name is namespaced so no application key collides with it.
 */
export const SESSION_BINDING = 'palisade.sessionBinding'

/** What `sessions()` puts under {@link SESSION_BINDING}. */
export interface SessionBinding {
  /** ID of the session the request brought, or `''` when it brought none. */
  readonly current: string
  /** ID the session will have once this response is saved, or `''` when it will have none. */
  next(): string
}

/** A signed string that verified: its whole cache key (context and string) and its value. */
interface Verified {
  readonly key: string
  readonly value: string
}

/** How many verified cookies each signer remembers. */
export const VERIFIED_COOKIE_CACHE_SIZE = 1000

/** Shortest accepted secret, in characters: the 32-byte output of HMAC-SHA256 (RFC 7518 §3.2). */
export const MIN_SECRET_LENGTH = 32

/** The exact bytes the HMAC covers; exported for the tests that prove the separation. */
export function signingInput(purpose: SigningPurpose, context: string, value: string): string {
  return `palisade.${purpose}.v1\n${context.length}:${context}\n${value}`
}

/**
 * Creates a signer for one purpose. `unsign` remembers up to {@link VERIFIED_COOKIE_CACHE_SIZE}
 * signed strings whose signature verified (least recently used evicted), so a returning cookie
 * costs a Map lookup instead of a WebCrypto verify. Only exact (context, string) pairs that
 * verified are served from that cache. Pairs that failed under every secret are remembered
 * apart (as many again), so a browser resending a tampered or stale cookie costs a lookup too,
 * and a flood of bad cookies evicts only other bad cookies. Both caches belong to this signer,
 * so other secrets (a rotation builds a new signer) and other purposes never see their entries.
 */
export function createCookieSigner(
  secrets: readonly string[],
  purpose: SigningPurpose,
): CookieSigner {
  const keys = lazy(() => Promise.all(secrets.map((s) => importHmacKey(s))))
  // Filed under the last characters of the signed string (`tailKey`: the end of its HMAC, cheaper
  // to hash than the whole cookie), each entry with its whole (context, string) key: a hit counts
  // only when that is this request's.
  const verified = new BoundedCache<string, Verified>(VERIFIED_COOKIE_CACHE_SIZE)
  // Signed strings that failed under every secret: the secrets are this signer's for life, so
  // a failure stays one.
  const refused = new BoundedCache<string, true>(VERIFIED_COOKIE_CACHE_SIZE)
  // The signed string of a value that arrived signed with the first secret: signing it again
  // would give exactly that string (the HMAC is deterministic, and only the canonical encoding of
  // a signature verifies), so a session saved again under its own ID is not signed again.
  const signedByFirst = new BoundedCache<string, string>(VERIFIED_COOKIE_CACHE_SIZE)
  return {
    async sign(value, context = '') {
      const known = signedByFirst.get(context === '' ? value : `${context}\0${value}`)
      if (known !== undefined) return known
      const [first] = await keys()
      return `${value}.${await hmacSign(first as CryptoKey, signingInput(purpose, context, value))}`
    },
    remembered(signed) {
      const hit = verified.get(tailKey(signed))
      return hit !== undefined && hit.key === signed ? hit.value : undefined
    },
    async unsign(signed, context = '') {
      // A cookie value has no NUL, so the cache key cannot be made ambiguous by either part.
      const cacheKey = context === '' ? signed : `${context}\0${signed}`
      const hit = verified.get(tailKey(cacheKey))
      if (hit !== undefined && hit.key === cacheKey) return hit.value
      if (refused.get(cacheKey)) return null
      const dot = signed.lastIndexOf('.')
      if (dot <= 0 || dot === signed.length - 1) return null
      const value = signed.slice(0, dot)
      const signature = signed.slice(dot + 1)
      const input = signingInput(purpose, context, value)
      const all = await keys()
      for (let i = 0; i < all.length; i++) {
        if (await hmacVerify(all[i] as CryptoKey, input, signature)) {
          verified.set(tailKey(cacheKey), { key: cacheKey, value })
          if (i === 0) signedByFirst.set(context === '' ? value : `${context}\0${value}`, signed)
          return value
        }
      }
      refused.set(cacheKey, true)
      return null
    },
  }
}

/**
 * Validates a `secret` option: one string or a non-empty list of them, each at least
 * {@link MIN_SECRET_LENGTH} characters; returns a list.
 */
export function assertSecretList(factory: string, value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : value
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.some((s) => typeof s !== 'string' || s.length === 0)
  ) {
    throw optionError(factory, '"secret" must be a non-empty string or a list of them')
  }
  if (list.some((s: string) => s.length < MIN_SECRET_LENGTH)) {
    throw optionError(
      factory,
      `"secret" must be at least ${MIN_SECRET_LENGTH} characters (each one, in a list); generate one with \`openssl rand -base64 32\``,
    )
  }
  return [...list]
}
