import type { MiddlewareHandler } from 'hono'
import { every } from 'hono/combine'
import { TrieRouter } from 'hono/router/trie-router'

/**
 * One endpoint `openapi()` registered, with the middleware added through the wrapper's `use()`
 * afterwards whose path matches it.
 */
export interface DocsRoute {
  /** The path as served, with the app's base path. */
  readonly path: string
  readonly chain: MiddlewareHandler[]
}

/**
 * The middleware registered in front of a docs endpoint: runs `chain` (which grows as `use()` is
 * called) through Hono's own `every()` from `hono/combine`, so ordering, `next()`, early
 * responses and errors behave as Hono's composition does.
 *
 * `openapi()` registers the docs endpoints when it is called, so Hono runs them before any
 * middleware added later; `chain` is how `api.use(guard)` still protects them.
 */
export function docsGuard(chain: readonly MiddlewareHandler[]): MiddlewareHandler {
  let combined: MiddlewareHandler | undefined
  let size = 0
  return async function docsGuard(c, next) {
    if (chain.length === 0) {
      await next()
      return
    }
    if (combined === undefined || size !== chain.length) {
      combined = every(...chain)
      size = chain.length
    }
    return combined(c, next)
  }
}

/** True when middleware registered (by Hono) at `pattern` runs for a GET of the concrete `path`. */
export function patternMatches(pattern: string, path: string): boolean {
  const router = new TrieRouter<true>()
  router.add('ALL', pattern, true)
  return router.match('GET', path)[0].length > 0
}
