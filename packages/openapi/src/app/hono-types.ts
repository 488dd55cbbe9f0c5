// Types read from a Hono app's own type: its Env, its base path, what a handler returns.
import type { Env, ErrorHandler, Hono, MiddlewareHandler } from 'hono'
import type { TypedResponse } from 'hono/types'

/**
 * What `openapi()` accepts: a Hono app (checked at run time). Its `Env` and base path are read
 * with `EnvOf` and `BasePathOf`; the routes already on it are not part of the wrapper's type.
 */
export interface HonoApp {
  // biome-ignore lint/suspicious/noExplicitAny: any request handler signature
  fetch: (...args: any[]) => unknown
  routes: unknown[]
}

/**
 * The `Env` of a Hono app, read from its `onError`.
 *
 * @example
 * type E = EnvOf<Hono<{ Variables: { user: string } }>> // { Variables: { user: string } }
 */
export type EnvOf<A> = A extends { onError: (handler: ErrorHandler<infer E>) => unknown } ? E : Env

/**
 * The base path of a Hono app (`'/'` unless `basePath()` set one).
 *
 * Read from the path type Hono gives the handlers of `app.use(path, …)` (`'/v1/${string}'` under
 * `basePath('/v1')`, `string` without one), not by matching `Hono<E, S, infer B>`: that match
 * makes tsc compute the variance of Hono's type parameters, about 139,000 instantiations once per
 * program. When Hono's `use` has another shape it falls back to that match.
 *
 * @example
 * const v1 = new Hono().basePath('/v1')
 * type B = BasePathOf<typeof v1> // '/v1'
 */
// biome-ignore lint/suspicious/noExplicitAny: only the handlers' path type is read
export type BasePathOf<A> = A extends { use: (path: any, ...handlers: infer H) => unknown }
  ? // biome-ignore lint/suspicious/noExplicitAny: only the path type is read
    H extends MiddlewareHandler<any, infer P>[]
    ? string extends P
      ? '/'
      : PathBefore<P, '', A>
    : BasePathByMatch<A>
  : BasePathByMatch<A>

/** The base path by matching the Hono class: correct, but costs the variance computation. */
// biome-ignore lint/suspicious/noExplicitAny: only the base path is read
type BasePathByMatch<A> = A extends Hono<any, any, infer B> ? B : '/'

/** `'/v1/api/${string}'` → `'/v1/api'`: the segments before the open tail (else the match). */
type PathBefore<P extends string, Acc extends string, A> = P extends `/${infer Seg}/${infer Rest}`
  ? string extends Rest
    ? `${Acc}/${Seg}`
    : PathBefore<`/${Rest}`, `${Acc}/${Seg}`, A>
  : BasePathByMatch<A>

/** Hono's `MergeTypedResponse` (not exported by Hono): what a handler's return adds to a schema. */
export type HandlerOutput<T> =
  T extends Promise<void>
    ? T
    : T extends Promise<infer T2>
      ? T2 extends TypedResponse
        ? T2
        : TypedResponse
      : T extends TypedResponse
        ? T
        : TypedResponse
