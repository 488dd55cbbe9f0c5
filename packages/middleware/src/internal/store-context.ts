/**
 * Stores bound to a request. On Cloudflare Workers the platform handle (a Durable Object
 * namespace) arrives with each request on `c.env`, yet middleware are best built once at module
 * scope, where the openapi wrapper sees and documents them. So a platform store may be built with
 * a resolver (`(c) => c.env.PALISADE`) instead of the handle, and exposes `forContext(c)`: the
 * store to use for one request. Each middleware asks for it once per request (`storeFor`), before
 * its first store call; a store without `forContext` (every memory store) is used as it is.
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
