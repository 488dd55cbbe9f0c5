import { checkWindowMs } from '../internal/store-args'
import type { RateLimitInfo, RateLimitStore } from '../rate-limit/store'
import { checkAndSet, type DenoKvLike, type DenoKvStoreOptions, denoKvStoreOptions } from './kv'

const NAME = 'DenoKvRateLimitStore'

interface Counter {
  count: number
  resetAt: number
}

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
 * Rate-limit counters in Deno KV, for Deno Deploy and any Deno app. Each increment is an atomic
 * check-and-set: read the counter, then `kv.atomic().check({ key, versionstamp }).set(…)`; a
 * writer that lost the race reads again. Deno KV is strongly consistent for these writes, so
 * counts are exact from every instance and region. Entries carry `expireIn` so they are cleaned
 * up, and the window end is also kept in the value (KV deletes expired keys lazily).
 *
 * @param options.kv - An open Deno KV handle (`await Deno.openKv()`). Required.
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

  constructor(options: DenoKvRateLimitStoreOptions) {
    const { kv, prefix } = denoKvStoreOptions(NAME, options, 'palisade:rl')
    this.#kv = kv
    this.#prefix = prefix
  }

  /** Counts one request for `key`; starts a window of `windowMs` when none is running. */
  async increment(key: string, windowMs: number): Promise<RateLimitInfo> {
    checkWindowMs(NAME, windowMs)
    const kvKey = [this.#prefix, key]
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

  /** Forgets `key`: its next request starts a new window. */
  async reset(key: string): Promise<void> {
    await this.#kv.delete([this.#prefix, key])
  }
}
