import type { Context } from 'hono'
import { BoundedCache } from '../internal/caches/bounded-cache'
import { boundKey } from '../internal/stores/bounded-key'
import { frontStore } from '../internal/stores/deny-caches'
import { storeFor } from '../internal/stores/store-binding'
import { storeFailures } from '../internal/stores/store-failure'
import type { RateLimitConfig } from './config'
import type { WindowQuota } from './headers'
import { fixedWindowNow, MemoryRateLimitStore } from './memory-store'
import type {
  RateLimitHit,
  RateLimitInfo,
  RateLimitStore,
  RateLimitVerdict,
  RateLimitWindow,
} from './store'

/**
 * A refused key in the deny cache: until when (ms), the quotas its refusal reported, and when
 * (ms) it reported them (their `reset`s count from then).
 */
export interface Denied {
  until: number
  quotas: WindowQuota[]
  at: number
}

/**
 * The counting side of one `rateLimit`: its store (a memory store made on first use when none
 * was given), the algorithm's store call, the refund of a request given back, and the deny cache
 * of refused keys this process answers alone. A store's answer is checked before it is used: a
 * malformed one is a store failure (503, or a pass under failOpen), never a request let through
 * by accident.
 */
export class RateLimitCounter {
  #store: RateLimitStore | undefined
  readonly #config: RateLimitConfig
  /** Refused keys (bounded) this process refuses without a store call until `until`. */
  readonly #denied: BoundedCache<string, Denied> | undefined
  /** Hands a store failure to `onStoreError`, or warns once per outage. */
  readonly report: (error: unknown, c: Context) => void
  /** Ends an outage: call after each successful store call. */
  readonly recovered: () => void

  constructor(config: RateLimitConfig) {
    this.#config = config
    this.#store = config.store
    const [report, recovered] = storeFailures('rateLimit', config.failOpen, config.onStoreError)
    this.report = report
    this.recovered = recovered
    if (config.denyCache) {
      this.#denied = new BoundedCache<string, Denied>(10_000)
      // The store's reset(key) reaches this cache (see deny-caches.ts): a reset key passes at once.
      if (this.#store) frontStore(this.#store, this.#forget)
    }
  }

  readonly #forget = async (key: string): Promise<void> => {
    this.#denied?.delete(await boundKey(key))
  }

  /** The store for this request (a store built with a resolver finds its handle on it). */
  bind(c: Context): RateLimitStore {
    if (this.#store === undefined) {
      this.#store = new MemoryRateLimitStore()
      if (this.#denied) frontStore(this.#store, this.#forget)
    }
    return storeFor(this.#store, c)
  }

  /**
   * One unit of one limit, by the configured algorithm. The default store counts a fixed window
   * synchronously: no turn of the microtask queue per request.
   */
  count(s: RateLimitStore, key: string, max: number): RateLimitInfo | Promise<RateLimitInfo> {
    const { algorithm, windowMs } = this.#config
    let result: RateLimitInfo | Promise<RateLimitInfo> | undefined
    if (algorithm === 'fixed-window') {
      if (s instanceof MemoryRateLimitStore) result = fixedWindowNow(s, key, windowMs)
      result ??= s.increment(key, windowMs)
    } else if (algorithm === 'sliding-window') {
      result = (s.slidingWindow as NonNullable<RateLimitStore['slidingWindow']>)(key, windowMs, max)
    } else {
      result = (s.tokenBucket as NonNullable<RateLimitStore['tokenBucket']>)(key, windowMs, max)
    }
    return result instanceof Promise ? result.then(checkInfo) : checkInfo(result)
  }

  /** `cost` units of every limit in `windows`, in one store call (`consume`). */
  consume(
    s: RateLimitStore,
    key: string,
    windows: readonly RateLimitWindow[],
    cost: number,
  ): Promise<RateLimitVerdict> {
    const { algorithm, blockMs } = this.#config
    // Chained on the store's promise rather than awaited in an async frame of its own (one frame
    // and one turn fewer per request); a store that throws instead of rejecting still rejects.
    try {
      const pending = (s.consume as NonNullable<RateLimitStore['consume']>)(key, {
        algorithm,
        limits: windows,
        cost,
        blockMs,
      })
      return Promise.resolve(pending).then((verdict) => checkedVerdict(verdict, windows))
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * Gives back one counted request (skipFailedRequests, skipSuccessfulRequests). A failure is
   * reported, never thrown: the response is already decided.
   */
  async refund(
    s: RateLimitStore,
    key: string,
    hit: RateLimitHit,
    deadline: number,
    c: Context,
  ): Promise<void> {
    // A window that has ended since the request was counted is gone: a refund would land in the
    // next one and hand out a free request (express-rate-limit checks its resetTime alike).
    if (this.#config.algorithm !== 'token-bucket' && Date.now() >= deadline) return
    try {
      await (s.decrement as NonNullable<RateLimitStore['decrement']>)(key, hit)
    } catch (error) {
      this.report(error, c)
    }
  }

  /** Whether refused keys are remembered (the deny cache is on). */
  get remembers(): boolean {
    return this.#denied !== undefined
  }

  /**
   * The remembered refusal of `local` (the bounded key) with the milliseconds it has left, or
   * `undefined`; a refusal that has run out is forgotten.
   */
  refusal(local: string): { denied: Denied; left: number } | undefined {
    const denied = this.#denied?.get(local)
    if (denied === undefined) return undefined
    const left = denied.until - Date.now()
    if (left > 0) return { denied, left }
    this.#denied?.delete(local)
    return undefined
  }

  /** Remembers that `local` is refused for `ms` more milliseconds, with the quotas reported. */
  remember(local: string, ms: number, quotas: WindowQuota[]): void {
    const now = Date.now()
    this.#denied?.set(local, { until: now + ms, quotas, at: now })
  }
}

/** A store's `{ count, ttl }`, checked. */
function checkInfo(info: RateLimitInfo): RateLimitInfo {
  if (!(Number.isFinite(info?.count) && Number.isFinite(info?.ttl))) {
    throw new TypeError('store returned an invalid { count, ttl }')
  }
  return info
}

/** `verdict` when it has the shape `consume` promises for `windows`; else the TypeError. */
function checkedVerdict(
  verdict: RateLimitVerdict,
  windows: readonly RateLimitWindow[],
): RateLimitVerdict {
  if (
    typeof verdict?.allowed !== 'boolean' ||
    !Array.isArray(verdict.limits) ||
    verdict.limits.length !== windows.length ||
    !verdict.limits.every((l) => Number.isFinite(l?.count) && Number.isFinite(l?.ttl)) ||
    !Number.isFinite(verdict.blockedMs)
  ) {
    throw new TypeError('store returned an invalid verdict')
  }
  return verdict
}
