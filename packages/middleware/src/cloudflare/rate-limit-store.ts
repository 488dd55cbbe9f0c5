import { checkWindowMs } from '../internal/store-args'
import type { RateLimitInfo, RateLimitStore } from '../rate-limit/store'
import {
  type DurableObjectStoreOptions,
  durableObjectStoreOptions,
  type ObjectCall,
} from './namespace'

const NAME = 'DurableObjectRateLimitStore'

/**
 * Options of {@link DurableObjectRateLimitStore}.
 *
 * @example
 * const options: DurableObjectRateLimitStoreOptions = { namespace: env.PALISADE }
 */
export interface DurableObjectRateLimitStoreOptions extends DurableObjectStoreOptions {
  /** Object-name prefix. Default `'palisade:rl:'`. */
  prefix?: string
}

/**
 * Rate-limit counters in Durable Objects, for Cloudflare Workers: one object per key, so every
 * increment of a key runs inside one single-threaded object and is exact (of N concurrent requests
 * against `max`, exactly `max` pass, from every location). Fixed windows, like the other stores;
 * an alarm deletes a counter when its window ends. A failed call rejects, so `rateLimit`'s
 * `failOpen` decides what the request gets.
 *
 * @param options.namespace - The `PalisadeStoreObject` binding, e.g. `env.PALISADE`. Required.
 * @param options.prefix - Object-name prefix. Default `'palisade:rl:'`.
 * @example
 * import { DurableObjectRateLimitStore } from '@palisade/middleware/cloudflare'
 * export { PalisadeStoreObject } from '@palisade/middleware/cloudflare'
 *
 * const app = new Hono<{ Bindings: { PALISADE: DurableObjectNamespaceLike } }>()
 * app.use('/api/*', (c, next) => {
 *   const store = new DurableObjectRateLimitStore({ namespace: c.env.PALISADE })
 *   return rateLimit({ max: 100, store })(c, next)
 * })
 */
export class DurableObjectRateLimitStore implements RateLimitStore {
  readonly #call: ObjectCall
  readonly #prefix: string

  constructor(options: DurableObjectRateLimitStoreOptions) {
    const { call, prefix } = durableObjectStoreOptions(NAME, options, 'palisade:rl:')
    this.#call = call
    this.#prefix = prefix
  }

  /** Counts one request for `key`; starts a window of `windowMs` when none is running. */
  async increment(key: string, windowMs: number): Promise<RateLimitInfo> {
    checkWindowMs(NAME, windowMs)
    const reply = (await this.#call(this.#prefix + key, 'increment', { windowMs })) as {
      count?: unknown
      ttl?: unknown
    }
    if (typeof reply?.count !== 'number' || typeof reply.ttl !== 'number') {
      throw new Error(`${NAME}: unexpected reply to increment`)
    }
    return { count: reply.count, ttl: reply.ttl }
  }

  /** Forgets `key`: its next request starts a new window. */
  async reset(key: string): Promise<void> {
    await this.#call(this.#prefix + key, 'delete')
  }
}
