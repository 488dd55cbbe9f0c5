import type { Context } from 'hono'

/**
 * Where replay checks remember what they have seen: httpSignature's `nonce`, webhook message ids
 * and DPoP proofs' `jti`. One operation, a set-if-absent with a time to live, so every backend
 * (memory, Redis, PostgreSQL, Durable Objects, Deno KV) can do it atomically in one round trip.
 *
 * @example
 * const nonces: NonceStore = new MemoryNonceStore()
 * await nonces.claim('sig:abc', 300_000) // true: first time seen
 * await nonces.claim('sig:abc', 300_000) // false: a replay within five minutes
 */
export interface NonceStore {
  /**
   * Records `nonce` for `ttlMs` milliseconds. True when it was not recorded (or its record has
   * expired): the caller may proceed. False when it is still recorded: a replay. Atomic: of two
   * concurrent claims of one nonce, exactly one gets true.
   */
  claim(nonce: string, ttlMs: number): Promise<boolean>
  /**
   * For a store whose handle arrives with the request (a Workers binding on `c.env`): the store
   * to use for the request `c`, called once per request before `claim`. Optional.
   */
  forContext?(c: Context): NonceStore
}

/** The longest nonce a store accepts (callers hash longer ones). */
export const MAX_NONCE_LENGTH = 512

/** The arguments of `claim`, checked once for every store. */
export function checkClaim(where: string, nonce: unknown, ttlMs: unknown): void {
  if (typeof nonce !== 'string' || nonce.length === 0 || nonce.length > MAX_NONCE_LENGTH) {
    throw new TypeError(`${where}: nonce must be a string of 1 to ${MAX_NONCE_LENGTH} characters`)
  }
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new TypeError(`${where}: ttlMs must be a positive integer, got ${String(ttlMs)}`)
  }
}

const NAME = 'MemoryNonceStore'

/**
 * Options of {@link MemoryNonceStore}.
 *
 * @example
 * let now = 0
 * const nonces = new MemoryNonceStore({ now: () => now }) // a test clock: advance by hand
 */
export interface MemoryNonceStoreOptions {
  /** Clock in milliseconds, for tests. Default `Date.now`. */
  now?: () => number
}

/**
 * In-memory {@link NonceStore}, the default of the replay checks: one process remembers what it
 * has seen. Nothing live is ever evicted (an evicted nonce could be replayed); expired records
 * are dropped by a sweep at most once a second, run by `claim` (no timer), so memory follows the
 * number of nonces claimed within their lifetimes. Apps with more than one instance need a shared
 * store, or a replay sent to another instance passes.
 *
 * @example
 * ```ts
 * const nonces = new MemoryNonceStore()
 * const fresh = await nonces.claim('msg_1', 300_000) // false for a replay within 5 minutes
 * ```
 */
export class MemoryNonceStore implements NonceStore {
  readonly #now: () => number
  /** nonce → expiry (ms), in insertion order. */
  readonly #seen = new Map<string, number>()
  #nextSweep = 0

  constructor(options: MemoryNonceStoreOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`${NAME}: options must be an object`)
    }
    const now = options.now ?? Date.now
    if (typeof now !== 'function') throw new TypeError(`${NAME}: "now" must be a function`)
    this.#now = now
  }

  async claim(nonce: string, ttlMs: number): Promise<boolean> {
    checkClaim(`${NAME}.claim`, nonce, ttlMs)
    const now = this.#now()
    if (now >= this.#nextSweep) this.#sweep(now)
    const expiresAt = this.#seen.get(nonce)
    if (expiresAt !== undefined && expiresAt > now) return false
    this.#seen.delete(nonce)
    this.#seen.set(nonce, now + ttlMs)
    return true
  }

  /** Nonces held (expired ones may still count until swept). */
  get size(): number {
    return this.#seen.size
  }

  /** Forgets every nonce. The store stays usable. */
  destroy(): void {
    this.#seen.clear()
  }

  #sweep(now: number): void {
    this.#nextSweep = now + 1_000
    for (const [nonce, expiresAt] of this.#seen) if (expiresAt <= now) this.#seen.delete(nonce)
  }
}
