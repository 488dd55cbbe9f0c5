import {
  type ConcurrencyAcquired,
  type ConcurrencyStore,
  checkAcquire,
  checkRelease,
  checkRenew,
} from './store'

const NAME = 'MemoryConcurrencyStore'

/**
 * Options of {@link MemoryConcurrencyStore}.
 *
 * @example
 * let now = 0
 * const store = new MemoryConcurrencyStore({ now: () => now }) // a test clock: advance by hand
 */
export interface MemoryConcurrencyStoreOptions {
  /** Clock in milliseconds, for tests. Default `Date.now`. */
  now?: () => number
}

/**
 * In-memory {@link ConcurrencyStore}, the default of `concurrencyLimit`: each process counts
 * its own in-flight requests. A key is held only while it has leases, so memory follows the
 * number of requests in flight, not the number of clients ever seen. Leases still expire after
 * `leaseMs` like on a shared store (a lease taken and never released, by code that calls the
 * store directly, cannot hold a slot forever); expired leases are dropped when their key is next
 * used and by a sweep of every key at most once a minute, run by `acquire` (no timer).
 *
 * @example
 * ```ts
 * const store = new MemoryConcurrencyStore()
 * app.post('/chat', concurrencyLimit({ max: 2, store }), chat)
 * ```
 */
export class MemoryConcurrencyStore implements ConcurrencyStore {
  readonly #now: () => number
  /** key → lease id → expiry (ms). */
  readonly #keys = new Map<string, Map<string, number>>()
  #nextSweep = 0

  constructor(options: MemoryConcurrencyStoreOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`${NAME}: options must be an object`)
    }
    const now = options.now ?? Date.now
    if (typeof now !== 'function') throw new TypeError(`${NAME}: "now" must be a function`)
    this.#now = now
  }

  async acquire(
    key: string,
    lease: string,
    max: number,
    leaseMs: number,
  ): Promise<ConcurrencyAcquired> {
    checkAcquire(`${NAME}.acquire`, key, lease, max, leaseMs)
    const now = this.#now()
    if (now >= this.#nextSweep) this.#sweep(now)
    let leases = this.#keys.get(key)
    if (leases === undefined) {
      leases = new Map()
      this.#keys.set(key, leases)
    } else {
      dropExpired(leases, now)
    }
    if (leases.has(lease) || leases.size < max) {
      leases.set(lease, now + leaseMs)
      return { acquired: true, inFlight: leases.size }
    }
    return { acquired: false, inFlight: leases.size }
  }

  async renew(key: string, lease: string, leaseMs: number): Promise<boolean> {
    checkRenew(`${NAME}.renew`, key, lease, leaseMs)
    const leases = this.#keys.get(key)
    const expiresAt = leases?.get(lease)
    if (leases === undefined || expiresAt === undefined) return false
    const now = this.#now()
    if (expiresAt <= now) {
      leases.delete(lease)
      if (leases.size === 0) this.#keys.delete(key)
      return false
    }
    leases.set(lease, now + leaseMs)
    return true
  }

  async release(key: string, lease: string): Promise<void> {
    checkRelease(`${NAME}.release`, key, lease)
    const leases = this.#keys.get(key)
    if (leases === undefined) return
    leases.delete(lease)
    if (leases.size === 0) this.#keys.delete(key)
  }

  /** Keys with at least one lease held (expired leases may still count until swept). */
  get size(): number {
    return this.#keys.size
  }

  /** Forgets every lease. The store stays usable. */
  destroy(): void {
    this.#keys.clear()
  }

  #sweep(now: number): void {
    this.#nextSweep = now + 60_000
    for (const [key, leases] of this.#keys) {
      dropExpired(leases, now)
      if (leases.size === 0) this.#keys.delete(key)
    }
  }
}

function dropExpired(leases: Map<string, number>, now: number): void {
  for (const [id, expiresAt] of leases) if (expiresAt <= now) leases.delete(id)
}
