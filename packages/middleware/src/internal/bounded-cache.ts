/**
 * A Map capped at `max` entries that evicts the least recently used one. It remembers the
 * results of expensive verifications (HMAC cookies, JWTs) so a returning client costs a lookup;
 * callers store successes only, never failures, so an attacker's guesses cannot fill it with
 * anything they could later be served from.
 */
export class BoundedCache<K, V> {
  readonly #map = new Map<K, V>()
  readonly #max: number

  constructor(max: number) {
    this.#max = max
  }

  get size(): number {
    return this.#map.size
  }

  /** The value for exactly `key`, marking it most recently used; `undefined` when absent. */
  get(key: K): V | undefined {
    const value = this.#map.get(key)
    if (value !== undefined) {
      this.#map.delete(key)
      this.#map.set(key, value)
    }
    return value
  }

  set(key: K, value: V): void {
    if (this.#map.has(key)) this.#map.delete(key)
    else if (this.#map.size >= this.#max) this.#map.delete(this.#map.keys().next().value as K)
    this.#map.set(key, value)
  }

  delete(key: K): void {
    this.#map.delete(key)
  }
}
