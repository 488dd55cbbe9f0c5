/**
 * Which deny caches front which store, so that a store's `reset(key)` also clears the key from
 * the refusals `rateLimit` remembers in this process (otherwise a reset key stays refused, with
 * no store call, until its remembered refusal ends). The stores of this package call
 * {@link forgetRefusals} in `reset`; a store built by `forContext` is linked to the store it came
 * from, whose middlewares registered their caches.
 */

/** Per store: the forget functions of the deny caches in front of it. */
const fronting = new WeakMap<object, Set<(key: string) => unknown>>()
/** A store made by `forContext` → the store it came from (the one the middlewares were given). */
const origins = new WeakMap<object, object>()

/** Registers a deny cache in front of `store`: `forget(key)` drops the key's refusal. */
export function frontStore(store: object, forget: (key: string) => unknown): void {
  let caches = fronting.get(store)
  if (caches === undefined) {
    caches = new Set()
    fronting.set(store, caches)
  }
  caches.add(forget)
}

/** Records that `derived` (a `forContext` store) stands for `origin`. */
export function linkStore<S extends object>(derived: S, origin: object): S {
  if (derived !== origin) origins.set(derived, origin)
  return derived
}

/**
 * Drops `key` from the deny cache of every `rateLimit` in front of `store` in this process (or
 * of the store it came from), so the key passes at once instead of after its remembered refusal.
 * The stores of this package call it in their `reset`; call it in the `reset` of a store you
 * write.
 *
 * @example
 * const counters = new MemoryRateLimitStore()
 * const store: RateLimitStore = {
 *   increment: (key, windowMs) => counters.increment(key, windowMs),
 *   async reset(key) {
 *     await counters.reset(key)
 *     await forgetRefusals(store, key)
 *   },
 * }
 */
export async function forgetRefusals(store: object, key: string): Promise<void> {
  const caches = fronting.get(origins.get(store) ?? store)
  if (caches === undefined) return
  await Promise.all([...caches].map((forget) => forget(key)))
}
