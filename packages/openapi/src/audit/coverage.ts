// Whether a middleware registered at one Hono path runs for every request a route answers, for
// some of them, or for none. A route path is a set of request paths (parameters, regex
// constraints, wildcards, optional parameters), so the question is asked of concrete paths the
// route matches, with values for each parameter chosen to fall on both sides of the regex
// constraints middleware commonly carry (digits, letters, separators, encoded bytes, a slash).
// Hono's own router answers both "does the route match it" and "does the middleware", so
// wildcards, regexes, optional parameters and trailing slashes mean what they mean in Hono.
import { TrieRouter } from 'hono/router/trie-router'
import { splitSegments } from '../rules/path'

/** How much of a route a middleware's path reaches. */
export type Coverage = 'all' | 'some' | 'none'

/** Parameter values tried for every parameter (the ones its own regex refuses are dropped). */
const PARAM_VALUES = [
  'p0',
  '1',
  'a',
  'A',
  '0',
  '12',
  '123456789',
  'abc',
  'Z',
  '_',
  '-',
  '.',
  '~',
  'a-b',
  'a_b',
  'a.b',
  'v1',
  'p0.json',
  '%20',
  '%2F',
  'x/y',
  '0123456789abcdef01234567',
  '123e4567-e89b-12d3-a456-426614174000',
]
/** What a `*` stands for in the samples: nothing, one segment, several. */
const WILDCARD_VALUES = ['', 'x', 'x/y', '1/a/_']
/** A left-out optional parameter or an empty trailing wildcard segment. */
const OMIT = '\u0000'

function valuesOf(segment: string): string[] | undefined {
  const param = /^:([^{}?]+)(?:\{(.+)\})?(\?)?$/.exec(segment)
  if (param) {
    let values = PARAM_VALUES
    if (param[2] !== undefined) {
      let accepts: RegExp
      try {
        accepts = new RegExp(`^(?:${param[2]})$`)
      } catch {
        return undefined
      }
      values = PARAM_VALUES.filter((v) => accepts.test(v))
      if (values.length === 0) return undefined
    }
    return param[3] === '?' ? [...values, OMIT] : values
  }
  if (segment === '*') return [...WILDCARD_VALUES, OMIT]
  if (segment.includes('*')) return WILDCARD_VALUES.map((v) => segment.replaceAll('*', v))
  return [segment]
}

function join(segments: readonly string[]): string {
  return `/${segments.filter((s) => s !== OMIT).join('/')}`
}

/**
 * Concrete request paths that the Hono route path `path` matches: one with the first value of
 * every part, and one per other value of each part (the others kept at their first). Empty when a
 * part has no value the samples can give (a regex none of them fits).
 */
export function samplePaths(path: string): string[] {
  const parts = splitSegments(path.startsWith('/') ? path.slice(1) : path).map(valuesOf)
  if (parts.some((p) => p === undefined)) return []
  const choices = parts as string[][]
  const base = choices.map((c) => c[0] as string)
  const paths = new Set([join(base)])
  choices.forEach((values, i) => {
    for (const value of values.slice(1)) {
      const sample = [...base]
      sample[i] = value
      paths.add(join(sample))
    }
  })
  return [...paths].filter((p) => matches(path, p))
}

/** A router holding `pattern` alone, by pattern; `null` when Hono's router refuses it. */
const routers = new Map<string, TrieRouter<true> | null>()

/** Whether Hono matches the request path `path` to `pattern` (false when it cannot tell). */
function matches(pattern: string, path: string): boolean {
  let router = routers.get(pattern)
  // Stryker disable next-line ConditionalExpression: a cache; the same answers without it
  if (router === undefined) {
    try {
      router = new TrieRouter<true>()
      // Stryker disable next-line BooleanLiteral: the value is never read, only whether it matched
      router.add('ALL', pattern, true)
    } catch {
      router = null
    }
    // Stryker disable next-line all: the cache's bound; the same answers without it
    if (routers.size > 1000) routers.clear()
    routers.set(pattern, router)
  }
  try {
    return router !== null && router.match('GET', path)[0].length > 0
  } catch {
    return false
  }
}

/** `/api/*`, `*`: a literal prefix and a trailing wildcard, nothing else. */
function literalPrefix(pattern: string): string | undefined {
  if (pattern === '*') return ''
  if (!pattern.endsWith('/*')) return undefined
  const prefix = pattern.slice(0, -2)
  return /[:*{}?]/.test(prefix) ? undefined : prefix
}

/**
 * How much of the route registered at `route` the middleware registered at `pattern` runs for
 * (the methods are the caller's business). When no sample of the route can be made, only what
 * is certain counts: the same path, or a literal prefix with a trailing wildcard.
 */
export function coverage(pattern: string, route: string, samples = samplePaths(route)): Coverage {
  if (samples.length === 0) {
    if (pattern === route) return 'all'
    const prefix = literalPrefix(pattern)
    if (prefix !== undefined && (route === prefix || route.startsWith(`${prefix}/`))) return 'all'
    return 'none'
  }
  const matched = samples.filter((p) => matches(pattern, p)).length
  return matched === samples.length ? 'all' : matched === 0 ? 'none' : 'some'
}
