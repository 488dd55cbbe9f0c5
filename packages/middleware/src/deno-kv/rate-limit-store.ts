import type { Context } from 'hono'
import { boundKey } from '../internal/stores/bounded-key'
import { forgetRefusals, linkStore } from '../internal/stores/deny-caches'
import { checkLimitArgs } from '../internal/stores/store-args'
import {
  algorithmHit,
  algorithmRefund,
  type ConsumeState,
  consumeEvaluate,
  type StoredBucket,
  type StoredSliding,
} from '../rate-limit/algorithms'
import {
  checkRateLimitRequest,
  type RateLimitHit,
  type RateLimitInfo,
  type RateLimitRequest,
  type RateLimitStore,
  type RateLimitVerdict,
} from '../rate-limit/store'
import {
  checkAndSet,
  type DenoKvKey,
  type DenoKvLike,
  type DenoKvStoreOptions,
  type DenoKvTarget,
  denoKvStoreOptions,
} from './kv'

const NAME = 'DenoKvRateLimitStore'

interface Counter {
  count: number
  resetAt: number
}

/** The key part after `[prefix, key]` under which each other kind of state is kept. */
const PART = { 'sliding-window': 'sliding', 'token-bucket': 'bucket', consume: 'consumed' } as const

/** What a read-compute-write step returns: its result, and the value to commit, if any. */
type Step<T, V> = (
  value: V | undefined,
  now: number,
) => { result: T; next?: V & { expiresAt: number } }

/**
 * Options of {@link DenoKvRateLimitStore}.
 *
 * @example
 * const options: DenoKvRateLimitStoreOptions = { kv: await Deno.openKv() }
 */
export interface DenoKvRateLimitStoreOptions extends DenoKvStoreOptions {
  /** Key prefix (first key part). Default `'palisade:rl'`. */
  prefix?: string
}

/**
 * Rate-limit counters in Deno KV, for Deno Deploy and any Deno app. All three algorithms (fixed
 * window, sliding window, token bucket), `consume` (cost, several limits all or nothing, a block
 * after a refusal, reads with cost 0), `decrement` and `reset`. Every call that writes is an
 * atomic check-and-set: read the state, then `kv.atomic().check({ key, versionstamp }).set(…)`; a
 * writer that lost the race reads again (a bounded number of times, then the call fails). Deno KV
 * is strongly consistent for these writes, so counts are exact from every instance and region.
 * Entries carry `expireIn` so they are cleaned up, and their expiry is also kept in the value
 * (KV deletes expired keys lazily).
 *
 * @param options.kv - An open Deno KV handle (`await Deno.openKv()`), or a resolver returning it
 *   (or the promise of it) for a request. Required.
 * @param options.prefix - Key prefix. Default `'palisade:rl'`.
 * @example
 * import { DenoKvRateLimitStore } from '@palisade/middleware/deno-kv'
 *
 * const kv = await Deno.openKv()
 * app.use('/api/*', rateLimit({ max: 100, store: new DenoKvRateLimitStore({ kv }) }))
 */
export class DenoKvRateLimitStore implements RateLimitStore {
  readonly #kv: DenoKvLike
  readonly #prefix: string
  readonly #target: DenoKvTarget<DenoKvRateLimitStore>

  constructor(options: DenoKvRateLimitStoreOptions) {
    this.#target = denoKvStoreOptions<DenoKvRateLimitStore>(NAME, options, 'palisade:rl')
    this.#kv = this.#target.kv
    this.#prefix = this.#target.prefix
  }

  /**
   * The store for the request `c`: this one when it was built with a handle; built with a
   * resolver, the store on the handle the resolver returns (made once per handle). `rateLimit` calls
   * it once per request; call it yourself before using the store in a handler.
   */
  forContext(c: Context): DenoKvRateLimitStore {
    return this.#target.forContext(c, this, (kv) =>
      linkStore(new DenoKvRateLimitStore({ kv, prefix: this.#prefix }), this),
    )
  }

  /** Counts one request for `key`; starts a window of `windowMs` when none is running. */
  async increment(key: string, windowMs: number): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, 'increment', windowMs)
    const kvKey = [this.#prefix, await boundKey(key)]
    return checkAndSet(NAME, async () => {
      const entry = await this.#kv.get<Counter>(kvKey)
      const now = Date.now()
      const live = entry.value && entry.value.resetAt > now ? entry.value : null
      const next: Counter = live
        ? { count: live.count + 1, resetAt: live.resetAt }
        : { count: 1, resetAt: now + windowMs }
      const { ok } = await this.#kv
        .atomic()
        .check({ key: kvKey, versionstamp: entry.versionstamp })
        .set(kvKey, next, { expireIn: next.resetAt - now })
        .commit()
      return ok
        ? { committed: true, value: { count: next.count, ttl: next.resetAt - now } }
        : undefined
    })
  }

  /** Sliding window: counts one request unless the weighted count would pass `max`. */
  async slidingWindow(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    return this.#hit('slidingWindow', 'sliding-window', key, windowMs, max)
  }

  /** Token bucket of `max` tokens, refilled at `max` per `windowMs`: takes one token. */
  async tokenBucket(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    return this.#hit('tokenBucket', 'token-bucket', key, windowMs, max)
  }

  /** Gives back one request of `key` under `hit.algorithm` (never below zero or above `max`). */
  async decrement(key: string, hit: RateLimitHit): Promise<void> {
    const { algorithm, windowMs, max } = hit
    checkLimitArgs(NAME, 'decrement', windowMs, max)
    if (algorithm === 'fixed-window') {
      await this.#step<undefined, { count: number; resetAt: number }>(
        [this.#prefix, await boundKey(key)],
        (counter, now) => {
          if (counter === undefined || counter.resetAt <= now || counter.count <= 0) {
            return { result: undefined }
          }
          const next = { count: counter.count - 1, resetAt: counter.resetAt }
          return { result: undefined, next: { ...next, expiresAt: counter.resetAt } }
        },
      )
      return
    }
    await this.#step<undefined, StoredSliding | StoredBucket>(
      [this.#prefix, await boundKey(key), PART[algorithm]],
      (state, now) => ({
        result: undefined,
        next: algorithmRefund(algorithm, state, now, windowMs, max),
      }),
    )
  }

  /**
   * Checks every limit of `request` and takes `request.cost` from each only if all pass and the
   * key is not blocked; a refused request with `blockMs` blocks the key. `cost: 0` reads only.
   * One checked commit of the key's state.
   */
  async consume(key: string, request: RateLimitRequest): Promise<RateLimitVerdict> {
    const checked = checkRateLimitRequest(NAME, request)
    return this.#step<RateLimitVerdict, ConsumeState>(
      [this.#prefix, await boundKey(key), PART.consume],
      (state, now) => {
        const { verdict, next } = consumeEvaluate(state, now, checked)
        return { result: verdict, next }
      },
    )
  }

  /** Forgets `key` under every algorithm: its next request starts fresh. */
  async reset(key: string): Promise<void> {
    const base = [this.#prefix, await boundKey(key)]
    await this.#kv
      .atomic()
      .delete(base)
      .delete([...base, PART['sliding-window']])
      .delete([...base, PART['token-bucket']])
      .delete([...base, PART.consume])
      .commit()
    await forgetRefusals(this, key)
  }

  async #hit(
    method: string,
    algorithm: 'sliding-window' | 'token-bucket',
    key: string,
    windowMs: number,
    max: number,
  ): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, method, windowMs, max)
    return this.#step<RateLimitInfo, StoredSliding | StoredBucket>(
      [this.#prefix, await boundKey(key), PART[algorithm]],
      (state, now) => {
        const { info, next } = algorithmHit(algorithm, state, now, windowMs, max)
        return { result: info, next }
      },
    )
  }

  /**
   * Reads `kvKey`, runs `step` on its value (`undefined` when absent or expired) and, when the
   * step has a value to write, commits it only if the key is unchanged since the read; retried
   * on conflict (see `checkAndSet`). A step with nothing to write commits nothing.
   */
  #step<T, V extends { expiresAt?: number; resetAt?: number }>(
    kvKey: DenoKvKey,
    step: Step<T, V>,
  ): Promise<T> {
    return checkAndSet(NAME, async () => {
      const entry = await this.#kv.get<V>(kvKey)
      const now = Date.now()
      const stored = entry.value ?? undefined
      const expiry = stored?.expiresAt ?? stored?.resetAt ?? 0
      const { result, next } = step(expiry > now ? stored : undefined, now)
      if (next === undefined) return { committed: true, value: result }
      const { ok } = await this.#kv
        .atomic()
        .check({ key: kvKey, versionstamp: entry.versionstamp })
        .set(kvKey, next, { expireIn: Math.max(1, next.expiresAt - now) })
        .commit()
      return ok ? { committed: true, value: result } : undefined
    })
  }
}
