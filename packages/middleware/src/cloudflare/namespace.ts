import type { Context } from 'hono'
import { optionError } from '../internal/options'
import { storeOptions } from '../internal/stores/store-args'
import { ContextBinding, unboundStoreError } from '../internal/stores/store-binding'
import { OBJECT_ORIGIN } from './durable-object'

/**
 * The part of a Durable Object stub the stores use: `fetch`.
 *
 * @example
 * const stub: DurableObjectStubLike = env.PALISADE.get(env.PALISADE.idFromName('x'))
 */
export interface DurableObjectStubLike {
  fetch(input: string, init?: RequestInit): Promise<Response>
}

/**
 * The part of a `DurableObjectNamespace` binding the stores use. Pass the binding itself
 * (`env.PALISADE`): the package reads no platform global and imports nothing from Cloudflare.
 *
 * @example
 * const namespace: DurableObjectNamespaceLike = env.PALISADE
 */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown
  get(id: never): DurableObjectStubLike
}

/**
 * Reads the `PalisadeStoreObject` binding from the request's context, so a store (and the
 * middleware using it) can be built once at module scope, where bindings do not exist yet.
 *
 * @example
 * const resolve: DurableObjectNamespaceResolver = (c) => c.env.PALISADE
 * const store = new DurableObjectRateLimitStore({ namespace: resolve })
 */
// biome-ignore lint/suspicious/noExplicitAny: c.env is typed by the app's Bindings, unknown here
export type DurableObjectNamespaceResolver = (c: Context<any>) => DurableObjectNamespaceLike

/**
 * Options every Durable Object store takes.
 *
 * @example
 * // At module scope: the binding is read from each request's context.
 * const options: DurableObjectStoreOptions = { namespace: (c) => c.env.PALISADE, prefix: 'shop:rl:' }
 */
export interface DurableObjectStoreOptions {
  /**
   * The binding of {@link PalisadeStoreObject} (`env.PALISADE`), or a resolver that reads it from
   * the request's context (`(c) => c.env.PALISADE`), so the store can be built at module scope.
   * Required.
   */
  namespace: DurableObjectNamespaceLike | DurableObjectNamespaceResolver
  /** Prepended to every object name, so several apps or stores can share one binding. */
  prefix?: string
}

/** Calls one operation on the object named `name`; resolves its JSON result. */
export type ObjectCall = (name: string, operation: string, body?: object) => Promise<unknown>

/** What a Durable Object store is built on: its call function, prefix and context binding. */
export interface DurableObjectTarget<S> {
  /** Calls the object; rejects when the store was built with a resolver (see `binding`). */
  call: ObjectCall
  prefix: string
  /** For `forContext(c)`: the store itself, or (resolver) the store on the resolved binding. */
  binding: ContextBinding<DurableObjectNamespaceLike, S>
}

/**
 * Validates a Durable Object store's options; returns its call function, prefix and context
 * binding. A `namespace` resolver is called only by `forContext(c)`, never here.
 */
export function durableObjectStoreOptions<S>(
  store: string,
  options: DurableObjectStoreOptions | undefined,
  defaultPrefix: string,
): DurableObjectTarget<S> {
  const prefix = storeOptions(store, options, 'namespace', defaultPrefix)
  const binding = new ContextBinding<DurableObjectNamespaceLike, S>(
    store,
    'a Durable Object namespace binding',
    options?.namespace,
  )
  if (binding.resolves) {
    const call: ObjectCall = async () => {
      throw unboundStoreError(store)
    }
    return { call, prefix, binding }
  }
  const namespace = options?.namespace as Partial<DurableObjectNamespaceLike> | undefined
  if (
    namespace === null ||
    typeof namespace !== 'object' ||
    typeof namespace.idFromName !== 'function' ||
    typeof namespace.get !== 'function'
  ) {
    throw optionError(
      store,
      '"namespace" must be a Durable Object namespace binding (with idFromName and get), or a resolver (c) => c.env.BINDING',
    )
  }
  const ns = namespace as DurableObjectNamespaceLike
  const call: ObjectCall = async (name, operation, body = {}) => {
    const stub = ns.get(ns.idFromName(name) as never)
    const response = await stub.fetch(`${OBJECT_ORIGIN}/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) {
      throw new Error(`${store}: Durable Object answered ${response.status} to ${operation}`)
    }
    return response.json()
  }
  return { call, prefix, binding }
}
