import { patternMatches } from './docs-routes'

/** Middleware registered through the wrapper's `use()`, at the path Hono records. */
export interface UseRecord {
  readonly pattern: string
  readonly handlers: readonly unknown[]
  /**
   * The pattern is the path Hono matches, base path included (middleware the app had before
   * `openapi()` wrapped it); otherwise it is relative to the wrapper, as routes are.
   */
  readonly served?: boolean
}

/** A concrete path that a route template matches: each `:param` replaced by a value it accepts. */
function samplePath(template: string): string {
  return template
    .split('/')
    .map((segment) => {
      const param = /^:[^{?]+(?:\{(.+)\})?\??$/.exec(segment)
      if (!param) return segment
      const pattern = param[1]
      if (pattern === undefined) return 'p0'
      const accepts = new RegExp(`^(?:${pattern})$`)
      return ['1', 'a', 'p0', 'A'].find((sample) => accepts.test(sample)) ?? 'p0'
    })
    .join('/')
}

/**
 * The middleware registered so far through `use()` that Hono runs for a route at `path`
 * (registered before the route: Hono runs handlers in registration order, and a route's handler
 * ends the chain), outermost first.
 */
export function middlewareFor(
  uses: readonly UseRecord[],
  path: string,
  servedPath: string = path,
): unknown[] {
  const sample = samplePath(path)
  const served = samplePath(servedPath)
  return uses
    .filter((use) => patternMatches(use.pattern, use.served ? served : sample))
    .flatMap((use) => use.handlers)
}
