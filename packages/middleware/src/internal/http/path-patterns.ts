import { assertStringArray, optionError } from '../options'

/**
 * A list option of paths: exact paths (`/health`) and `prefix/*` patterns (`/static/*`: the
 * prefix itself and everything below it), checked once at construction. Used by logger's
 * `exclude` and shield's `exempt`.
 */
export interface PathPatterns {
  /** Whether `path` is listed (exactly, or under a listed prefix). */
  matches(path: string): boolean
  /** Whether the list is empty (so `matches` need not be called). */
  readonly empty: boolean
}

/** Checks the list option `name` of `factory` and returns its matcher. */
export function pathPatterns(factory: string, name: string, value: unknown): PathPatterns {
  const exact = new Set<string>()
  const prefixes: string[] = []
  for (const pattern of assertStringArray(factory, name, value)) {
    if (!pattern.startsWith('/')) {
      throw optionError(factory, `"${name}" entry ${JSON.stringify(pattern)} must start with "/"`)
    }
    if (pattern.endsWith('/*')) prefixes.push(pattern.slice(0, -2))
    else if (pattern.includes('*')) {
      throw optionError(
        factory,
        `"${name}" entry ${JSON.stringify(pattern)}: "*" is only allowed as a final "/*"`,
      )
    } else exact.add(pattern)
  }
  // `prefix/`, built once here rather than on every request.
  const below = prefixes.map((prefix) => `${prefix}/`)
  return {
    empty: exact.size === 0 && prefixes.length === 0,
    matches(path) {
      if (exact.has(path)) return true
      for (let i = 0; i < prefixes.length; i++) {
        if (path === prefixes[i] || path.startsWith(below[i] as string)) return true
      }
      return false
    },
  }
}
