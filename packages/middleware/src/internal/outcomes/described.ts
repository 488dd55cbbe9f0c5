import { describeMiddleware, type MiddlewareDescription } from '@palisade/shared/describe'

/**
 * `describeMiddleware` with the description first, so a factory's
 * `return described(description, async function name(c, next) { … })` keeps its body where it was.
 */
export function described<F extends (...args: never[]) => unknown>(
  description: MiddlewareDescription,
  handler: F,
): F {
  return describeMiddleware<F>(handler, description)
}

/** Methods a description can be limited to; `unsafeMethods` is everything outside a safe list. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'QUERY', 'TRACE']

/** Every known method that is not in `safe` (upper case). */
export function methodsExcept(safe: ReadonlySet<string>): string[] {
  return METHODS.filter((m) => !safe.has(m))
}

/** Methods whose requests carry a body in practice: what body checks are documented on. */
export const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'QUERY'] as const
