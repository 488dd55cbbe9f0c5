import type { Context } from 'hono'
import {
  checkBegin,
  checkComplete,
  checkRelease,
  decodeResponse,
  encodeResponse,
  type IdempotencyBegin,
  type IdempotencyStore,
  type IdempotentResponse,
} from '../idempotency/store'
import { boundKey } from '../internal/stores/bounded-key'
import type { ContextBinding } from '../internal/stores/store-binding'
import {
  type DurableObjectNamespaceLike,
  type DurableObjectStoreOptions,
  durableObjectStoreOptions,
  type ObjectCall,
} from './namespace'

const NAME = 'DurableObjectIdempotencyStore'

/**
 * Options of {@link DurableObjectIdempotencyStore}.
 *
 * @example
 * const options: DurableObjectIdempotencyStoreOptions = { namespace: (c) => c.env.PALISADE }
 */
export interface DurableObjectIdempotencyStoreOptions extends DurableObjectStoreOptions {
  /** Object-name prefix. Default `'palisade:ik:'`. */
  prefix?: string
}

/**
 * Idempotency records in Durable Objects, for `idempotency` on Cloudflare Workers: one object per
 * key holds its record (the lock's lease and fingerprint, then the stored response) in one
 * storage value. `begin`, `complete` and `release` are each one event of the key's object, which
 * runs one event at a time, so of any number of concurrent begins from every location exactly one
 * acquires. A lock whose isolate died expires after `lockMs`; an alarm deletes the record once it
 * has expired. Stored bodies count against the object's value limit (128 KiB on KV-backed
 * objects, 2 MB on SQLite-backed ones): keep `maxBodyBytes` below it.
 *
 * @param options.namespace - The `PalisadeStoreObject` binding (`env.PALISADE`), or a resolver
 *   `(c) => c.env.PALISADE`. Required.
 * @param options.prefix - Object-name prefix. Default `'palisade:ik:'`.
 * @example
 * import { DurableObjectIdempotencyStore } from '@palisade/middleware/cloudflare'
 *
 * const store = new DurableObjectIdempotencyStore({ namespace: (c) => c.env.PALISADE })
 * app.post('/orders', idempotency({ store }), createOrder)
 */
export class DurableObjectIdempotencyStore implements IdempotencyStore {
  readonly #call: ObjectCall
  readonly #prefix: string
  readonly #binding: ContextBinding<DurableObjectNamespaceLike, DurableObjectIdempotencyStore>

  constructor(options: DurableObjectIdempotencyStoreOptions) {
    const target = durableObjectStoreOptions<DurableObjectIdempotencyStore>(
      NAME,
      options,
      'palisade:ik:',
    )
    this.#call = target.call
    this.#prefix = target.prefix
    this.#binding = target.binding
  }

  /**
   * The store for the request `c`: this one when it was built with a binding; built with a
   * resolver, the store on the binding the resolver returns (made once per binding).
   */
  forContext(c: Context): DurableObjectIdempotencyStore {
    return this.#binding.bind(
      c,
      this,
      (namespace) => new DurableObjectIdempotencyStore({ namespace, prefix: this.#prefix }),
    )
  }

  async #object(key: string): Promise<string> {
    return this.#prefix + (await boundKey(key))
  }

  async begin(
    key: string,
    lease: string,
    fingerprint: string,
    lockMs: number,
  ): Promise<IdempotencyBegin> {
    checkBegin(`${NAME}.begin`, key, lease, fingerprint, lockMs)
    const reply = (await this.#call(await this.#object(key), 'idem/begin', {
      lease,
      fingerprint,
      lockMs,
    })) as { state?: unknown; retryAfterMs?: unknown; response?: unknown } | undefined
    const state = reply?.state
    if (state === 'acquired' || state === 'mismatch') return { state }
    if (state === 'in-flight' && typeof reply?.retryAfterMs === 'number') {
      return { state, retryAfterMs: reply.retryAfterMs }
    }
    const response = state === 'completed' ? decodeResponse(reply?.response) : null
    if (response !== null) return { state: 'completed', response }
    throw new Error(`${NAME}: unexpected reply to begin`)
  }

  async complete(
    key: string,
    lease: string,
    response: IdempotentResponse,
    ttlMs: number,
  ): Promise<boolean> {
    checkComplete(`${NAME}.complete`, key, lease, response, ttlMs)
    const reply = (await this.#call(await this.#object(key), 'idem/complete', {
      lease,
      response: encodeResponse(response),
      ttlMs,
    })) as { stored?: unknown } | undefined
    if (typeof reply?.stored !== 'boolean') throw new Error(`${NAME}: unexpected reply to complete`)
    return reply.stored
  }

  async release(key: string, lease: string): Promise<void> {
    checkRelease(`${NAME}.release`, key, lease)
    await this.#call(await this.#object(key), 'idem/release', { lease })
  }
}
