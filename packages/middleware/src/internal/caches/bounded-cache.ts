/**
 * A Map capped at `max` entries that evicts the least recently used one. It remembers the
 * results of expensive verifications (HMAC cookies, JWTs) so a returning client costs a lookup.
 * A cache that serves successes holds successes only, so an attacker's guesses cannot fill it
 * with anything they could later be served from. jwtAuth and the cookie signer remember their
 * refusals in a second one each, so a flood of bad values evicts only other bad values.
 */
export class BoundedCache<K, V> {
  readonly #map = new Map<K, V>()
  readonly #max: number
  /** The key moved or inserted last: the newest in the map's order, while it is in the map. */
  #last: K | undefined

  constructor(max: number) {
    this.#max = max
  }

  get size(): number {
    return this.#map.size
  }

  /** The value for exactly `key`, marking it most recently used; `undefined` when absent. */
  get(key: K): V | undefined {
    const value = this.#map.get(key)
    // The most recently used key is already last: moving it again would only churn the map's
    // table (each delete leaves a hole that a later rehash must clear).
    if (value !== undefined && key !== this.#last) {
      this.#map.delete(key)
      this.#map.set(key, value)
      this.#last = key
    }
    return value
  }

  set(key: K, value: V): void {
    if (this.#map.has(key)) this.#map.delete(key)
    else if (this.#map.size >= this.#max) this.#map.delete(this.#map.keys().next().value as K)
    this.#map.set(key, value)
    this.#last = key
  }

  delete(key: K): void {
    this.#map.delete(key)
    if (key === this.#last) this.#last = undefined
  }
}

/** How many characters of a signed string {@link tailKey} keeps: 96 bits of base64url. */
export const TAIL_KEY_LENGTH = 16

/**
 * The last {@link TAIL_KEY_LENGTH} characters of a signed string (a JWT, a signed cookie), the
 * key under which a cache of verified values files it. A Map hashes every character of a key
 * it has not seen as this very string, and each request brings a fresh one: about 2 ns a
 * character, so 190 ns for an 87-character session cookie against 75 ns for its last 16 (a
 * micro loop, bench/FINDINGS.md). Those characters are the end of an HMAC or a signature, so
 * two values that verified share them only by chance (2^-96 a pair); the entry holds the whole
 * string and a hit counts only when that is this one, so a shared tail (a forgery made to end
 * like a valid value) is a miss, never the other value's verdict.
 */
export function tailKey(signed: string): string {
  return signed.length > TAIL_KEY_LENGTH ? signed.slice(-TAIL_KEY_LENGTH) : signed
}
