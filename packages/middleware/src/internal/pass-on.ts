import type { Next } from 'hono'

/** What `then` turns `next()`'s value into: nothing. */
const NOTHING = (): undefined => undefined

/**
 * Passes the request on and hands back a promise of `undefined`, for a middleware that is not an
 * async function (an async one writes `await next()` and returns).
 *
 * `next()` resolves to Hono's Context, and Hono's compose takes a truthy value a middleware
 * resolves to as the response when the context is not finalized: a handler that forgot to
 * `return` its response. A middleware returning `next()` itself therefore made the Context the
 * answer (@hono/node-server: 500 "res.body.getReader is not a function") where Hono, with or
 * without middleware of its own, reports "Context is not finalized" to `onError`.
 */
export function passOn(next: Next): Promise<undefined> {
  return next().then(NOTHING)
}
