// A route middleware wrapped so that the answer it gives instead of calling `next()` goes through
// the response check.
import type { Context, MiddlewareHandler } from 'hono'
import type { ResponseChecker } from './response-checker'

/**
 * A route middleware whose answer (a response returned, or set as `c.res`, without calling
 * `next()`) is checked like the handler's; what it does around `next()` is left alone.
 */
export function checkedMiddleware(
  checker: ResponseChecker,
  mw: MiddlewareHandler,
): MiddlewareHandler {
  // Not async: a route middleware that calls `next()` (the common answer) costs at most one
  // `then` on its promise, not an async frame and an await around it.
  const checked: MiddlewareHandler = (c, next) => {
    let passed = false
    let out: ReturnType<MiddlewareHandler>
    try {
      out = mw(c, () => {
        passed = true
        return next()
      })
    } catch (error) {
      return Promise.reject(error)
    }
    // Already passed on (jwtAuth's remembered token, any middleware that calls `next()` before it
    // returns): what it resolves to is what `next()` led to, never an answer of its own, so its
    // promise goes back as it is, without a `then`, a closure and two microtask turns more.
    if (passed && out instanceof Promise) return out
    const settled = (value: Response | undefined) =>
      passed ? value : checkAnswer(checker, c, value)
    // (Promise.resolve(out) is `out` itself when it is a native promise; a thenable is adopted
    // as `await` would.)
    return Promise.resolve(out as Promise<Response | undefined>).then(settled)
  }
  // What it describes of itself (symbol-keyed: the openapi description) stays readable on the
  // function Hono runs, for whoever reads the router.
  for (const key of Object.getOwnPropertySymbols(mw)) {
    Object.defineProperty(
      checked,
      key,
      Object.getOwnPropertyDescriptor(mw, key) as PropertyDescriptor,
    )
  }
  return checked
}

/** What a route middleware answered without calling `next()`, checked. */
async function checkAnswer(
  checker: ResponseChecker,
  c: Context,
  out: Response | undefined,
): Promise<Response | undefined> {
  const answer = out instanceof Response ? out : c.finalized ? c.res : undefined
  if (answer === undefined) return out
  const result = await checker.check(c, answer, undefined, undefined)
  // Hono keeps a response set on the context over the one returned.
  if (result !== answer && c.finalized) c.res = result as Response
  return result as Response
}
