import type { Context } from 'hono'
import { boundKey } from '../internal/stores/bounded-key'
import { checkClaim, type NonceStore } from '../internal/stores/nonce-store'
import type { ContextBinding } from '../internal/stores/store-binding'
import {
  type DurableObjectNamespaceLike,
  type DurableObjectStoreOptions,
  durableObjectStoreOptions,
  type ObjectCall,
} from './namespace'

const NAME = 'DurableObjectNonceStore'

/**
 * Options of {@link DurableObjectNonceStore}.
 *
 * @example
 * const options: DurableObjectNonceStoreOptions = { namespace: (c) => c.env.PALISADE }
 */
export interface DurableObjectNonceStoreOptions extends DurableObjectStoreOptions {
  /** Object-name prefix. Default `'palisade:nonce:'`. */
  prefix?: string
}

/**
 * Replay records in Durable Objects, for httpSignature, webhook and DPoP on Cloudflare Workers:
 * one object per nonce holds its expiry. `claim` is one event of that object, which runs one
 * event at a time, so of any number of concurrent claims from any location exactly one gets
 * `true`; an alarm deletes the record once it has expired. A failed call rejects: the middleware
 * refuses the request rather than let a replay through.
 *
 * @param options.namespace - The `PalisadeStoreObject` binding (`env.PALISADE`), or a resolver
 *   `(c) => c.env.PALISADE` so the store and its middleware are built once at module scope.
 *   Required.
 * @param options.prefix - Object-name prefix. Default `'palisade:nonce:'`.
 * @example
 * import { DurableObjectNonceStore } from '@palisade/middleware/cloudflare'
 *
 * const nonce = new DurableObjectNonceStore({ namespace: (c) => c.env.PALISADE })
 * // app.use('/api/*', httpSignature({ keys, nonce }))
 * const fresh = await nonce.forContext(c).claim('sig:abc', 300_000)
 */
export class DurableObjectNonceStore implements NonceStore {
  readonly #call: ObjectCall
  readonly #prefix: string
  readonly #binding: ContextBinding<DurableObjectNamespaceLike, DurableObjectNonceStore>

  constructor(options: DurableObjectNonceStoreOptions) {
    const target = durableObjectStoreOptions<DurableObjectNonceStore>(
      NAME,
      options,
      'palisade:nonce:',
    )
    this.#call = target.call
    this.#prefix = target.prefix
    this.#binding = target.binding
  }

  /**
   * The store for the request `c`: this one when it was built with a binding; built with a
   * resolver, the store on the binding the resolver returns (made once per binding). The
   * middleware call it once per request; call it yourself before using the store in a handler.
   */
  forContext(c: Context): DurableObjectNonceStore {
    return this.#binding.bind(
      c,
      this,
      (namespace) => new DurableObjectNonceStore({ namespace, prefix: this.#prefix }),
    )
  }

  async claim(nonce: string, ttlMs: number): Promise<boolean> {
    checkClaim(`${NAME}.claim`, nonce, ttlMs)
    const reply = (await this.#call(this.#prefix + (await boundKey(nonce)), 'nonce/claim', {
      ttlMs,
    })) as { claimed?: unknown } | undefined
    if (typeof reply?.claimed !== 'boolean') throw new Error(`${NAME}: unexpected reply to claim`)
    return reply.claimed
  }
}
