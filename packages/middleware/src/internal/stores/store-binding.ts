/**
 * Stores bound to a request. On Cloudflare Workers the platform handle (a Durable Object
 * namespace) arrives with each request on `c.env`, yet middleware are best built once at module
 * scope, where the openapi wrapper sees and documents them. So a platform store may be built with
 * a resolver (`(c) => c.env.PALISADE`) instead of the handle, and exposes `forContext(c)`: the
 * store to use for one request.
 *
 * Both sides live here: the middleware side (`storeFor`: each middleware asks for the store once
 * per request, before its first store call; a store without `forContext`, every memory store, is
 * used as it is) and the backend side (`ContextBinding`: a store built with a resolver, and the
 * store made for each handle the resolver returns).
 */
import type { Context } from 'hono'

/** A store that may need the request to know its handle (see the module comment). */
interface ContextualStore<S> {
  forContext?(c: Context): S
}

/**
 * The store to use for the request `c`: `store.forContext(c)` when the store has it, else the
 * store itself. Throws what `forContext` throws (a resolver that fails, or returns no handle):
 * call it where a failing store call is handled, so the middleware's failure policy applies.
 */
export function storeFor<S extends object>(store: S, c: Context): S {
  const bind = (store as ContextualStore<S>).forContext
  return typeof bind === 'function' ? bind.call(store, c) : store
}

/**
 * The handle of a platform store built with `handle`, which is either the handle itself or a
 * resolver. `bind(c, self, make)` gives the store for one request: `self` for a direct handle;
 * for a resolver, the store `make` builds around the resolved handle, built once per distinct
 * handle (bindings are the same object on every request of an isolate, so this is once).
 */
export class ContextBinding<H extends object, S> {
  readonly #store: string
  readonly #what: string
  readonly #resolve: ((c: Context) => unknown) | undefined
  readonly #bound = new WeakMap<object, S>()

  /**
   * `handle` is the store's handle option: a function is a resolver, anything else the handle.
   * `store` and `what` (the handle, e.g. "a Durable Object namespace binding") name a bad result.
   */
  constructor(store: string, what: string, handle: unknown) {
    this.#store = store
    this.#what = what
    this.#resolve = typeof handle === 'function' ? (handle as (c: Context) => unknown) : undefined
  }

  /** Whether the store was built with a resolver (and so needs `forContext` before use). */
  get resolves(): boolean {
    return this.#resolve !== undefined
  }

  /** The store for the request `c` (see the class comment). */
  bind(c: Context, self: S, make: (handle: H) => S): S {
    if (this.#resolve === undefined) return self
    const handle = this.#resolve(c)
    if (handle === null || typeof handle !== 'object') {
      throw new TypeError(
        `${this.#store}: the resolver returned ${handle === null ? 'null' : typeof handle}, not ${this.#what}`,
      )
    }
    let store = this.#bound.get(handle)
    if (store === undefined) {
      store = make(handle as H)
      this.#bound.set(handle, store)
    }
    return store
  }
}

/** The error of a store built with a resolver and called without `forContext(c)`. */
export function unboundStoreError(store: string): Error {
  return new Error(
    `${store}: built with a resolver, so it needs the request: use store.forContext(c) (the middleware do this themselves)`,
  )
}
