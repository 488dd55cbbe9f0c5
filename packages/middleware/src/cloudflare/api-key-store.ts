import type { Context } from 'hono'
import { hashApiKey } from '../api-key/hash-key'
import type { ApiKeyInfo, ManagedApiKeyStore } from '../api-key/store'
import { checkApiKey, checkMetadata } from '../internal/stores/store-args'
import type { ContextBinding } from '../internal/stores/store-binding'
import {
  type DurableObjectNamespaceLike,
  type DurableObjectStoreOptions,
  durableObjectStoreOptions,
  type ObjectCall,
} from './namespace'

const NAME = 'DurableObjectApiKeyStore'

/**
 * Options of {@link DurableObjectApiKeyStore}.
 *
 * @example
 * const options: DurableObjectApiKeyStoreOptions = { namespace: env.PALISADE, prefix: 'key:' }
 */
export interface DurableObjectApiKeyStoreOptions extends DurableObjectStoreOptions {
  /** Object-name prefix. Default `'palisade:key:'`. */
  prefix?: string
}

/**
 * API keys in Durable Objects, one object per key, named by the key's SHA-256 hash (the plain key
 * never leaves the Worker). Durable Objects rather than Workers KV because removing a key is a
 * revocation: with KV, a removed key would keep working for up to a minute in other locations.
 * Adding a key again keeps its id and replaces its metadata, as in the other stores.
 *
 * @param options.namespace - The `PalisadeStoreObject` binding (`env.PALISADE`), or a resolver
 *   `(c) => c.env.PALISADE` so the store and its middleware are built once at module scope.
 *   Required.
 * @param options.prefix - Object-name prefix. Default `'palisade:key:'`.
 * @example
 * import { DurableObjectApiKeyStore } from '@palisade/middleware/cloudflare'
 *
 * const keys = new DurableObjectApiKeyStore({ namespace: (c) => c.env.PALISADE })
 * app.use('/partner/*', apiKey({ store: keys }))
 * // In a handler (an admin route), bind the store to the request first:
 * const id = await keys.forContext(c).add(newKey, { owner: 'billing' })
 */
export class DurableObjectApiKeyStore implements ManagedApiKeyStore {
  readonly #call: ObjectCall
  readonly #prefix: string
  readonly #binding: ContextBinding<DurableObjectNamespaceLike, DurableObjectApiKeyStore>

  constructor(options: DurableObjectApiKeyStoreOptions) {
    const target = durableObjectStoreOptions<DurableObjectApiKeyStore>(
      NAME,
      options,
      'palisade:key:',
    )
    this.#call = target.call
    this.#prefix = target.prefix
    this.#binding = target.binding
  }

  /**
   * The store for the request `c`: this one when it was built with a binding; built with a
   * resolver, the store on the binding the resolver returns (made once per binding). `apiKey`
   * calls it once per request; call it yourself before using the store in a handler.
   */
  forContext(c: Context): DurableObjectApiKeyStore {
    return this.#binding.bind(
      c,
      this,
      (namespace) => new DurableObjectApiKeyStore({ namespace, prefix: this.#prefix }),
    )
  }

  async #name(key: string): Promise<string> {
    return this.#prefix + (await hashApiKey(key))
  }

  /** Stores the hash of `key` with `metadata`; resolves its id (the existing one if present). */
  async add(key: string, metadata?: Record<string, unknown>): Promise<string> {
    checkApiKey(NAME, 'add', key)
    const meta = checkMetadata(NAME, metadata)
    const reply = (await this.#call(await this.#name(key), 'key/add', {
      id: crypto.randomUUID(),
      metadata: meta,
    })) as { id?: unknown }
    if (typeof reply?.id !== 'string') throw new Error(`${NAME}.add: unexpected reply`)
    return reply.id
  }

  /** Deletes `key`; resolves `true` when it was stored. */
  async remove(key: string): Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0) return false
    const reply = (await this.#call(await this.#name(key), 'delete')) as { existed?: unknown }
    return reply?.existed === true
  }

  /** The key's `{ id, metadata }`, or `null` when it is not stored. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    const reply = (await this.#call(await this.#name(key), 'key/get')) as { info?: unknown }
    const info = reply?.info as ApiKeyInfo | null | undefined
    return info && typeof info.id === 'string' ? info : null
  }
}
