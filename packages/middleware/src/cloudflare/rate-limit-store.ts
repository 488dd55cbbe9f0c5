import type { Context } from 'hono'
import { boundKey } from '../internal/stores/bounded-key'
import { forgetRefusals, linkStore } from '../internal/stores/deny-caches'
import { checkLimitArgs } from '../internal/stores/store-args'
import type { ContextBinding } from '../internal/stores/store-binding'
import {
  checkRateLimitRequest,
  type RateLimitHit,
  type RateLimitInfo,
  type RateLimitRequest,
  type RateLimitStore,
  type RateLimitVerdict,
} from '../rate-limit/store'
import {
  type DurableObjectNamespaceLike,
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
 * against `max`, exactly `max` pass, from every location). All three algorithms (fixed window,
 * sliding window, token bucket), `consume` (cost, several limits all or nothing, a block after a
 * refusal, reads with cost 0), `decrement` and `reset`: each call is one event of the key's
 * object, so it is atomic. An alarm deletes a key's state once all of it has expired. A failed
 * call rejects, so `rateLimit`'s `failOpen` decides what the request gets.
 *
 * @param options.namespace - The `PalisadeStoreObject` binding (`env.PALISADE`), or a resolver
 *   `(c) => c.env.PALISADE` so the store and its middleware are built once at module scope.
 *   Required.
 * @param options.prefix - Object-name prefix. Default `'palisade:rl:'`.
 * @example
 * import { DurableObjectRateLimitStore } from '@palisade/middleware/cloudflare'
 * export { PalisadeStoreObject } from '@palisade/middleware/cloudflare'
 *
 * const app = new Hono<{ Bindings: { PALISADE: DurableObjectNamespaceLike } }>()
 * const store = new DurableObjectRateLimitStore({ namespace: (c) => c.env.PALISADE })
 * app.use('/api/*', rateLimit({ max: 100, store }))
 */
export class DurableObjectRateLimitStore implements RateLimitStore {
  readonly #call: ObjectCall
  readonly #prefix: string
  readonly #binding: ContextBinding<DurableObjectNamespaceLike, DurableObjectRateLimitStore>

  constructor(options: DurableObjectRateLimitStoreOptions) {
    const target = durableObjectStoreOptions<DurableObjectRateLimitStore>(
      NAME,
      options,
      'palisade:rl:',
    )
    this.#call = target.call
    this.#prefix = target.prefix
    this.#binding = target.binding
  }

  /**
   * The store for the request `c`: this one when it was built with a binding; built with a
   * resolver, the store on the binding the resolver returns (made once per binding). `rateLimit`
   * calls it once per request; call it yourself before using the store in a handler.
   */
  forContext(c: Context): DurableObjectRateLimitStore {
    return this.#binding.bind(c, this, (namespace) =>
      linkStore(new DurableObjectRateLimitStore({ namespace, prefix: this.#prefix }), this),
    )
  }

  /** Counts one request for `key`; starts a window of `windowMs` when none is running. */
  async increment(key: string, windowMs: number): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, 'increment', windowMs)
    const reply = await this.#call(this.#prefix + (await boundKey(key)), 'increment', { windowMs })
    if (!isInfo(reply)) throw new Error(`${NAME}: unexpected reply to increment`)
    return { count: reply.count, ttl: reply.ttl }
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
    checkLimitArgs(NAME, 'decrement', hit?.windowMs, hit?.max)
    const { algorithm, windowMs, max } = hit
    await this.#call(this.#prefix + (await boundKey(key)), 'rate/refund', {
      algorithm,
      windowMs,
      max,
    })
  }

  /**
   * Checks every limit of `request` and takes `request.cost` from each only if all pass and the
   * key is not blocked; a refused request with `blockMs` blocks the key. `cost: 0` reads only.
   * One call to the key's object.
   */
  async consume(key: string, request: RateLimitRequest): Promise<RateLimitVerdict> {
    const checked = checkRateLimitRequest(NAME, request)
    const reply = (await this.#call(
      this.#prefix + (await boundKey(key)),
      'rate/consume',
      checked,
    )) as Partial<RateLimitVerdict> | undefined
    const limits = reply?.limits
    if (
      typeof reply?.allowed !== 'boolean' ||
      typeof reply.blockedMs !== 'number' ||
      !Array.isArray(limits) ||
      limits.length !== checked.limits.length ||
      !limits.every(isInfo)
    ) {
      throw new Error(`${NAME}: unexpected reply to consume`)
    }
    return { allowed: reply.allowed, limits, blockedMs: reply.blockedMs }
  }

  async #hit(
    method: string,
    algorithm: 'sliding-window' | 'token-bucket',
    key: string,
    windowMs: number,
    max: number,
  ): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, method, windowMs, max)
    const reply = await this.#call(this.#prefix + (await boundKey(key)), 'rate/hit', {
      algorithm,
      windowMs,
      max,
    })
    if (!isInfo(reply)) throw new Error(`${NAME}: unexpected reply to ${method}`)
    return { count: reply.count, ttl: reply.ttl }
  }

  /** Forgets `key` under every algorithm: its next request starts fresh. */
  async reset(key: string): Promise<void> {
    await this.#call(this.#prefix + (await boundKey(key)), 'delete')
    await forgetRefusals(this, key)
  }
}

function isInfo(reply: unknown): reply is RateLimitInfo {
  const info = reply as Partial<RateLimitInfo> | null | undefined
  return typeof info?.count === 'number' && typeof info.ttl === 'number'
}
