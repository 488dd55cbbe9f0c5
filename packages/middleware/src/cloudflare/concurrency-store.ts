import type { Context } from 'hono'
import {
  type ConcurrencyStore,
  checkAcquire,
  checkKey,
  checkLease,
  checkLeaseMs,
} from '../concurrency-limit/store'
import { boundKey } from '../internal/stores/bounded-key'
import type { ContextBinding } from '../internal/stores/store-binding'
import {
  type DurableObjectNamespaceLike,
  type DurableObjectStoreOptions,
  durableObjectStoreOptions,
  type ObjectCall,
} from './namespace'

const NAME = 'DurableObjectConcurrencyStore'

/**
 * Options of {@link DurableObjectConcurrencyStore}.
 *
 * @example
 * const options: DurableObjectConcurrencyStoreOptions = { namespace: (c) => c.env.PALISADE }
 */
export interface DurableObjectConcurrencyStoreOptions extends DurableObjectStoreOptions {
  /** Object-name prefix. Default `'palisade:cc:'`. */
  prefix?: string
}

/**
 * Concurrency leases in Durable Objects, for `concurrencyLimit` on Cloudflare Workers: one object
 * per key holds that key's leases (lease id → expiry) in one storage value. `acquire`, `renew` and
 * `release` are each one event of the key's object, which runs one event at a time, so of any
 * number of concurrent acquires exactly `max` get a slot, from every location. Expired leases (an
 * isolate that died mid-request never releases) are not counted and are dropped by the next call;
 * an alarm deletes the object's storage once its last lease has expired. A failed call rejects, so
 * the middleware's `failOpen` decides what the request gets.
 *
 * One value per key rather than one per lease: the object is single-threaded, so a single value
 * costs no contention, and it stays far below the value limit (about 50 bytes a lease: 2 MB holds
 * tens of thousands on SQLite-backed objects, 128 KiB some two thousand on KV-backed ones).
 *
 * @param options.namespace - The `PalisadeStoreObject` binding (`env.PALISADE`), or a resolver
 *   `(c) => c.env.PALISADE` so the store and its middleware are built once at module scope.
 *   Required.
 * @param options.prefix - Object-name prefix. Default `'palisade:cc:'`.
 * @example
 * import { DurableObjectConcurrencyStore } from '@palisade/middleware/cloudflare'
 *
 * const store = new DurableObjectConcurrencyStore({ namespace: (c) => c.env.PALISADE })
 * // app.use('/llm/*', concurrencyLimit({ max: 2, store }))
 * const { acquired } = await store.forContext(c).acquire('user-42', crypto.randomUUID(), 2, 60_000)
 */
export class DurableObjectConcurrencyStore implements ConcurrencyStore {
  readonly #call: ObjectCall
  readonly #prefix: string
  readonly #binding: ContextBinding<DurableObjectNamespaceLike, DurableObjectConcurrencyStore>

  constructor(options: DurableObjectConcurrencyStoreOptions) {
    const target = durableObjectStoreOptions<DurableObjectConcurrencyStore>(
      NAME,
      options,
      'palisade:cc:',
    )
    this.#call = target.call
    this.#prefix = target.prefix
    this.#binding = target.binding
  }

  /**
   * The store for the request `c`: this one when it was built with a binding; built with a
   * resolver, the store on the binding the resolver returns (made once per binding).
   * `concurrencyLimit` calls it once per request; call it yourself before using the store in a
   * handler.
   */
  forContext(c: Context): DurableObjectConcurrencyStore {
    return this.#binding.bind(
      c,
      this,
      (namespace) => new DurableObjectConcurrencyStore({ namespace, prefix: this.#prefix }),
    )
  }

  /**
   * Takes a slot for `key` under `lease` if fewer than `max` unexpired leases are held (a lease
   * already held is renewed and keeps its slot). One event of the key's object.
   */
  async acquire(
    key: string,
    lease: string,
    max: number,
    leaseMs: number,
  ): Promise<{ acquired: boolean; inFlight: number }> {
    checkAcquire(`${NAME}.acquire`, key, lease, max, leaseMs)
    const reply = (await this.#call(this.#prefix + (await boundKey(key)), 'lease/acquire', {
      lease,
      max,
      leaseMs,
    })) as { acquired?: unknown; inFlight?: unknown } | undefined
    if (typeof reply?.acquired !== 'boolean' || typeof reply.inFlight !== 'number') {
      throw new Error(`${NAME}: unexpected reply to acquire`)
    }
    return { acquired: reply.acquired, inFlight: reply.inFlight }
  }

  /** Pushes the lease's expiry to now + `leaseMs`; `false` when it expired or was released. */
  async renew(key: string, lease: string, leaseMs: number): Promise<boolean> {
    checkKey(`${NAME}.renew`, key)
    checkLease(`${NAME}.renew`, lease)
    checkLeaseMs(`${NAME}.renew`, leaseMs)
    const reply = (await this.#call(this.#prefix + (await boundKey(key)), 'lease/renew', {
      lease,
      leaseMs,
    })) as { renewed?: unknown } | undefined
    if (typeof reply?.renewed !== 'boolean') throw new Error(`${NAME}: unexpected reply to renew`)
    return reply.renewed
  }

  /** Frees the lease's slot; an unknown or already released lease is a no-op. */
  async release(key: string, lease: string): Promise<void> {
    checkKey(`${NAME}.release`, key)
    checkLease(`${NAME}.release`, lease)
    await this.#call(this.#prefix + (await boundKey(key)), 'lease/release', { lease })
  }
}
