// A route middleware wrapped so that the answer it gives instead of calling `next()` goes through
// the response check.
import type { MiddlewareHandler } from 'hono'
import type { ResponseChecker } from './response-checker'

/**
 * A route middleware whose answer (a response returned, or set as `c.res`, without calling
 * `next()`) is checked like the handler's; what it does around `next()` is left alone.
 */
export function checkedMiddleware(
  checker: ResponseChecker,
  mw: MiddlewareHandler,
): MiddlewareHandler {
  const checked: MiddlewareHandler = async (c, next) => {
    let passed = false
    const out = await mw(c, () => {
      passed = true
      return next()
    })
    if (passed) return out
    const answer = out instanceof Response ? out : c.finalized ? c.res : undefined
    if (answer === undefined) return out
    const result = await checker.check(c, answer, undefined, undefined)
    // Hono keeps a response set on the context over the one returned.
    if (result !== answer && c.finalized) c.res = result as Response
    return result as Response
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
