import { unrefInterval } from '../internal/timers'
import type { RateLimitInfo, RateLimitStore } from './store'

/**
 * Options of {@link MemoryRateLimitStore}.
 *
 * @example
 * let now = 0
 * const options: MemoryRateLimitStoreOptions = { now: () => now, sweepIntervalMs: 10_000 }
 * const store = new MemoryRateLimitStore(options) // a test clock: advance `now` by hand
 */
export interface MemoryRateLimitStoreOptions {
  /** Clock in milliseconds, for tests. Default `Date.now`. */
  now?: () => number
  /**
   * How often expired windows are swept. Default: the `windowMs` of the first counted request,
   * clamped to 1–60 seconds.
   */
  sweepIntervalMs?: number
}

interface Window {
  count: number
  resetAt: number
}

/**
 * In-memory fixed-window {@link RateLimitStore} for development and single-process apps (each
 * process counts on its own). Expired windows are dropped when their key is next seen and by an
 * `unref`'d sweep that runs only while the store holds keys, so memory stays bounded by the keys
 * seen within one window. `increment` is atomic: concurrent requests never share a count.
 *
 * @example
 * ```ts
 * const store = new MemoryRateLimitStore()
 * app.use('/login', rateLimit({ max: 5, windowMs: 15 * 60_000, store }))
 * ```
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, Window>()
  readonly #now: () => number
  readonly #sweepIntervalMs: number | undefined
  #stopSweep: (() => void) | undefined

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.#now = options.now ?? (() => Date.now())
    const interval = options.sweepIntervalMs
    if (interval !== undefined && !(Number.isInteger(interval) && interval > 0)) {
      throw new TypeError('MemoryRateLimitStore: "sweepIntervalMs" must be a positive integer')
    }
    this.#sweepIntervalMs = interval
  }

  /** Number of keys currently held (expired ones count until swept or seen again). */
  get size(): number {
    return this.#windows.size
  }

  /** Counts one request for `key`; starts a new window of `windowMs` when none is running. */
  async increment(key: string, windowMs: number): Promise<RateLimitInfo> {
    if (!(Number.isFinite(windowMs) && windowMs > 0)) {
      throw new TypeError('MemoryRateLimitStore.increment: windowMs must be a positive number')
    }
    const now = this.#now()
    let window = this.#windows.get(key)
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs }
      this.#windows.set(key, window)
    }
    window.count++
    if (this.#stopSweep === undefined) this.#startSweep(windowMs)
    return { count: window.count, ttl: window.resetAt - now }
  }

  /** Forgets `key`, so its next request starts a fresh window. */
  async reset(key: string): Promise<void> {
    this.#windows.delete(key)
  }

  /** Stops the sweep and forgets every key. The store stays usable. */
  destroy(): void {
    this.#stopSweep?.()
    this.#stopSweep = undefined
    this.#windows.clear()
  }

  #startSweep(windowMs: number): void {
    const interval = this.#sweepIntervalMs ?? Math.min(60_000, Math.max(1_000, windowMs))
    this.#stopSweep = unrefInterval(() => this.#sweep(), interval)
  }

  #sweep(): void {
    const now = this.#now()
    for (const [key, window] of this.#windows) {
      if (window.resetAt <= now) this.#windows.delete(key)
    }
    // An idle store holds no timer at all.
    if (this.#windows.size === 0) {
      this.#stopSweep?.()
      this.#stopSweep = undefined
    }
  }
}
