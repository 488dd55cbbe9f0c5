import type { Context, MiddlewareHandler } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'

/** A response the wrapper serves itself: the document, a page, or a viewer file. */
export type DocsResponder = (c: Context) => Response | Promise<Response>

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
 * Wraps `respond` so that it runs behind `chain`, the way Hono's own composition would run that
 * middleware before a handler registered after it: in order, each `next()` reaching the next one,
 * a returned Response ending the chain, headers set after `next()` applying to the response, and
 * thrown errors left to the app's `onError`.
 *
 * `openapi()` registers the docs endpoints when it is called, so Hono runs them before any
 * middleware added later; `chain` is how `api.use(guard)` still protects them.
 */
export function behind(
  chain: readonly MiddlewareHandler[],
  respond: DocsResponder,
): MiddlewareHandler {
  return async function docsEndpoint(c) {
    if (chain.length === 0) return respond(c)
    let index = -1
    const dispatch = async (i: number): Promise<void> => {
      if (i <= index) throw new Error('next() called multiple times')
      index = i
      const mw = chain[i]
      const res = mw === undefined ? await respond(c) : await mw(c, () => dispatch(i + 1))
      if (res && !c.finalized) c.res = res
    }
    await dispatch(0)
    // Unfinalized (a middleware neither answered nor called next): Hono reports it, as it would.
    return c.finalized ? c.res : undefined
  }
}

/** True when middleware registered (by Hono) at `pattern` runs for a GET of the concrete `path`. */
export function patternMatches(pattern: string, path: string): boolean {
  const router = new TrieRouter<true>()
  router.add('ALL', pattern, true)
  return router.match('GET', path)[0].length > 0
}
