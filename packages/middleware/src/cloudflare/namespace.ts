import { optionError } from '../internal/options'
import { storeOptions } from '../internal/store-args'
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
 * Options every Durable Object store takes.
 *
 * @example
 * const options: DurableObjectStoreOptions = { namespace: env.PALISADE, prefix: 'shop:rl:' }
 */
export interface DurableObjectStoreOptions {
  /** The binding of {@link PalisadeStoreObject}, e.g. `env.PALISADE`. Required. */
  namespace: DurableObjectNamespaceLike
  /** Prepended to every object name, so several apps or stores can share one binding. */
  prefix?: string
}

/** Calls one operation on the object named `name`; resolves its JSON result. */
export type ObjectCall = (name: string, operation: string, body?: object) => Promise<unknown>

/** Validates a Durable Object store's options; returns its call function and prefix. */
export function durableObjectStoreOptions(
  store: string,
  options: DurableObjectStoreOptions | undefined,
  defaultPrefix: string,
): { call: ObjectCall; prefix: string } {
  const prefix = storeOptions(store, options, 'namespace', defaultPrefix)
  const namespace = options?.namespace as Partial<DurableObjectNamespaceLike> | undefined
  if (
    namespace === null ||
    typeof namespace !== 'object' ||
    typeof namespace.idFromName !== 'function' ||
    typeof namespace.get !== 'function'
  ) {
    throw optionError(
      store,
      '"namespace" must be a Durable Object namespace binding (with idFromName and get)',
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
  return { call, prefix }
}
