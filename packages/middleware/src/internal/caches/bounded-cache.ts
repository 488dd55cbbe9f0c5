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
