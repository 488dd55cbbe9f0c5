import { boundKey } from '../internal/stores/bounded-key'
import { forgetRefusals } from '../internal/stores/deny-caches'
import { checkLimitArgs } from '../internal/stores/store-args'
import { unrefInterval } from '../internal/stores/timers'
import {
  type BucketState,
  bucketExpiresAt,
  type ConsumeState,
  consumeEvaluate,
  refillBucket,
  type SlidingState,
  slidingExpiresAt,
  slidingWindowHit,
  tokenBucketHit,
} from './algorithms'
import type {
  RateLimitHit,
  RateLimitInfo,
  RateLimitRequest,
  RateLimitStore,
  RateLimitVerdict,
} from './store'
import { checkRateLimitRequest } from './store'

const NAME = 'MemoryRateLimitStore'

/**
 * The default store's fixed-window count without a promise (unless the key must be hashed
 * first), for rateLimit: an `await` costs every request a turn of the microtask queue.
 * `undefined` for a subclass that overrides `increment`, whose own method must run. Set by the
 * class below, which alone can reach its private state.
 */
export let fixedWindowNow: (
  store: MemoryRateLimitStore,
  key: string,
  windowMs: number,
) => RateLimitInfo | Promise<RateLimitInfo> | undefined

/**
 * Options of {@link MemoryRateLimitStore}.
 *
 * @example
 * let now = 0
 * const options: MemoryRateLimitStoreOptions = { now: () => now, maxKeys: 50_000 }
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
  /**
   * Most keys held at once, over all algorithms. Default `100000` (about 12 MB). When it is
   * reached, expired keys are swept (at most once a second), and if none can go, new keys share
   * one overflow counter per algorithm until room frees up. Live counters are never evicted.
   */
  maxKeys?: number
}

interface Fixed {
  count: number
  expiresAt: number
}
interface Sliding extends SlidingState {
  expiresAt: number
}
interface Bucket extends BucketState {
  expiresAt: number
}

/**
 * The key under which keys that find the store full are counted together. A symbol, so no
 * client-chosen string key can ever name it.
 */
const OVERFLOW: unique symbol = Symbol('overflow')
type Key = string | typeof OVERFLOW

/**
 * In-memory {@link RateLimitStore} for development and single-process apps (each process counts
 * on its own). It implements all three algorithms, `consume`, `decrement` and `reset`. Expired state is
 * dropped when its key is next seen and by an `unref`'d sweep that runs only while the store
 * holds keys. At most `maxKeys` keys are held: beyond that, new keys share one overflow counter
 * (fail closed) instead of evicting anyone's live counter, so flooding the store with fresh keys
 * can neither grow memory nor reset the count of a key under attack. Every method is atomic:
 * concurrent requests never share a count.
 *
 * @param options.maxKeys default `100000`
 * @example
 * ```ts
 * const store = new MemoryRateLimitStore()
 * app.use('/login', rateLimit({ max: 5, windowMs: 15 * 60_000, store }))
 * ```
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #fixed = new Map<Key, Fixed>()
  readonly #sliding = new Map<Key, Sliding>()
  readonly #buckets = new Map<Key, Bucket>()
  readonly #consumed = new Map<Key, ConsumeState>()
  readonly #now: () => number
  readonly #sweepIntervalMs: number | undefined
  readonly #maxKeys: number
  #stopSweep: (() => void) | undefined
  #nextRoomSweep = Number.NEGATIVE_INFINITY

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`${NAME}: options must be an object`)
    }
    this.#now = options.now ?? (() => Date.now())
    const interval = options.sweepIntervalMs
    if (interval !== undefined && !(Number.isInteger(interval) && interval > 0)) {
      throw new TypeError(`${NAME}: "sweepIntervalMs" must be a positive integer`)
    }
    this.#sweepIntervalMs = interval
    const maxKeys = options.maxKeys ?? 100_000
    if (!(Number.isInteger(maxKeys) && maxKeys > 0)) {
      throw new TypeError(`${NAME}: "maxKeys" must be a positive integer`)
    }
    this.#maxKeys = maxKeys
  }

  /** Number of keys currently held, over all algorithms (expired ones count until swept). */
  get size(): number {
    return this.#fixed.size + this.#sliding.size + this.#buckets.size + this.#consumed.size
  }

  /** Fixed window: counts one request for `key`; starts a window of `windowMs` if none runs. */
  async increment(key: string, windowMs: number): Promise<RateLimitInfo> {
    return this.#increment(key, windowMs)
  }

  static {
    fixedWindowNow = (store, key, windowMs) =>
      store.increment === MemoryRateLimitStore.prototype.increment
        ? store.#increment(key, windowMs)
        : undefined
  }

  /** `increment`'s work, synchronous unless the key is long enough to be hashed first. */
  #increment(key: string, windowMs: number): RateLimitInfo | Promise<RateLimitInfo> {
    checkLimitArgs(NAME, 'increment', windowMs)
    const bound = boundKey(key)
    if (typeof bound !== 'string') return bound.then((hashed) => this.#countFixed(hashed, windowMs))
    return this.#countFixed(key, windowMs)
  }

  #countFixed(key: string, windowMs: number): RateLimitInfo {
    const now = this.#now()
    const slot = this.#slot(this.#fixed, key, now, windowMs)
    let window = this.#fixed.get(slot)
    if (window === undefined || window.expiresAt <= now) {
      window = { count: 0, expiresAt: now + windowMs }
      this.#fixed.set(slot, window)
    }
    window.count++
    return { count: window.count, ttl: window.expiresAt - now }
  }

  /** Sliding window: counts one request unless the weighted count would pass `max`. */
  async slidingWindow(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, 'slidingWindow', windowMs, max)
    const bound = boundKey(key)
    if (typeof bound !== 'string') key = await bound
    const now = this.#now()
    const slot = this.#slot(this.#sliding, key, now, windowMs)
    let state = this.#sliding.get(slot)
    if (state === undefined) {
      state = { index: Number.NEGATIVE_INFINITY, current: 0, previous: 0, expiresAt: 0 }
      this.#sliding.set(slot, state)
    }
    const info = slidingWindowHit(state, now, windowMs, max)
    state.expiresAt = slidingExpiresAt(state, windowMs)
    return info
  }

  /** Token bucket of `max` tokens, refilled at `max` per `windowMs`: takes one token. */
  async tokenBucket(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, 'tokenBucket', windowMs, max)
    const bound = boundKey(key)
    if (typeof bound !== 'string') key = await bound
    const now = this.#now()
    const slot = this.#slot(this.#buckets, key, now, windowMs)
    let state = this.#buckets.get(slot)
    if (state === undefined) {
      state = { level: max * windowMs, at: now, expiresAt: 0 }
      this.#buckets.set(slot, state)
    }
    const info = tokenBucketHit(state, now, windowMs, max)
    state.expiresAt = bucketExpiresAt(state, windowMs, max)
    return info
  }

  /**
   * Checks every limit of `request` and takes `request.cost` from each only if all pass and the
   * key is not blocked; a refused request with `blockMs` blocks the key. `cost: 0` reads only.
   * Synchronous inside, so atomic within the process.
   */
  async consume(key: string, request: RateLimitRequest): Promise<RateLimitVerdict> {
    const checked = checkRateLimitRequest(NAME, request)
    const bound = boundKey(key)
    if (typeof bound !== 'string') key = await bound
    const now = this.#now()
    const slot = this.#slot(this.#consumed, key, now, checked.limits[0]?.windowMs ?? 1_000)
    const { verdict, next } = consumeEvaluate(this.#consumed.get(slot), now, checked)
    if (next !== undefined) this.#consumed.set(slot, next)
    return verdict
  }

  /**
   * Gives back one request of `key` under `hit.algorithm`: a fixed or sliding count goes down by
   * one if its window is still running (never below zero), a bucket gets its token back (never
   * above `max`). A key that was counted in the overflow counter is not refunded.
   */
  async decrement(key: string, hit: RateLimitHit): Promise<void> {
    const bound = boundKey(key)
    if (typeof bound !== 'string') key = await bound
    const now = this.#now()
    if (hit.algorithm === 'fixed-window') {
      const window = this.#fixed.get(key)
      if (window && window.expiresAt > now && window.count > 0) window.count--
    } else if (hit.algorithm === 'sliding-window') {
      const state = this.#sliding.get(key)
      if (state && state.index === Math.floor(now / hit.windowMs) && state.current > 0) {
        state.current--
      }
    } else {
      const state = this.#buckets.get(key)
      if (state === undefined) return
      refillBucket(state, now, hit.windowMs, hit.max)
      state.level = Math.min(hit.max * hit.windowMs, state.level + hit.windowMs)
      state.expiresAt = bucketExpiresAt(state, hit.windowMs, hit.max)
    }
  }

  /** Forgets `key` under every algorithm, so its next request starts fresh. */
  async reset(key: string): Promise<void> {
    const bound = boundKey(key)
    const held = typeof bound === 'string' ? bound : await bound
    this.#fixed.delete(held)
    this.#sliding.delete(held)
    this.#buckets.delete(held)
    this.#consumed.delete(held)
    await forgetRefusals(this, key)
  }

  /** Stops the sweep and forgets every key. The store stays usable. */
  destroy(): void {
    this.#stopSweep?.()
    this.#stopSweep = undefined
    this.#fixed.clear()
    this.#sliding.clear()
    this.#buckets.clear()
    this.#consumed.clear()
    this.#nextRoomSweep = Number.NEGATIVE_INFINITY
  }

  /**
   * Where `key` is counted: its own entry when it has one or there is room for one, else the
   * shared overflow entry. Evicting a live counter instead would let anyone who can mint keys
   * (new IPv6 prefixes, usernames in a login form) wipe the count of the key they attack.
   */
  #slot<E>(map: Map<Key, E>, key: string, now: number, windowMs: number): Key {
    if (this.#stopSweep === undefined) this.#startSweep(windowMs)
    if (map.has(key) || this.size < this.#maxKeys) return key
    // Full: a sweep may free room, but at most once a second, so a flood cannot make every
    // request pay for a scan of the whole store.
    if (now >= this.#nextRoomSweep) {
      this.#nextRoomSweep = now + 1_000
      this.#sweep(now)
    }
    return this.#ownKeys() < this.#maxKeys ? key : OVERFLOW
  }

  /** Keys held apart from the overflow counters, which do not take a key's room. */
  #ownKeys(): number {
    let overflow = 0
    for (const map of [this.#fixed, this.#sliding, this.#buckets, this.#consumed]) {
      if (map.has(OVERFLOW)) overflow++
    }
    return this.size - overflow
  }

  #startSweep(windowMs: number): void {
    const interval = this.#sweepIntervalMs ?? Math.min(60_000, Math.max(1_000, windowMs))
    this.#stopSweep = unrefInterval(() => {
      this.#sweep(this.#now())
      // An idle store holds no timer at all.
      if (this.size === 0) {
        this.#stopSweep?.()
        this.#stopSweep = undefined
      }
    }, interval)
  }

  #sweep(now: number): void {
    const maps = [this.#fixed, this.#sliding, this.#buckets, this.#consumed] as Map<Key, Fixed>[]
    for (const map of maps) {
      for (const [key, entry] of map) if (entry.expiresAt <= now) map.delete(key)
    }
  }
}
