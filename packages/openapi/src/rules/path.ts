/** One documented form of a Hono route path. */
export interface PathVariant {
  /** OpenAPI path template: `/users/{id}`. */
  template: string
  /** Template variables in order; `pattern` is the anchored Hono regex, when the path had one. */
  params: { name: string; pattern?: string }[]
  /** Optional parameters this variant leaves out (`/posts` for `/posts/:id?` leaves out `id`). */
  omitted: string[]
}

interface Segment {
  literal?: string
  param?: { name: string; pattern?: string; optional: boolean }
}

/** Splits on `/` outside `{…}`, so a regex like `:path{.+/.+}` stays one segment (as in Hono). */
export function splitSegments(path: string): string[] {
  const segments: string[] = []
  let depth = 0
  let current = ''
  for (const ch of path) {
    if (ch === '{') depth++
    else if (ch === '}') depth = Math.max(0, depth - 1)
    if (ch === '/' && depth === 0) {
      segments.push(current)
      current = ''
    } else current += ch
  }
  segments.push(current)
  return segments
}

function isWildcard(segment: string): boolean {
  let depth = 0
  for (const ch of segment) {
    if (ch === '{') depth++
    else if (ch === '}') depth--
    else if (ch === '*' && depth === 0) return true
  }
  return false
}

/**
 * Parses a Hono route path into the OpenAPI paths it serves. `:id` becomes `{id}`,
 * `:id{[0-9]+}` becomes `{id}` with pattern `^(?:[0-9]+)$`, and trailing optional parameters
 * (`/posts/:id?`) give one variant per present prefix, as Hono registers them. Returns
 * undefined for a wildcard path, which OpenAPI cannot describe.
 */
export function parseRoutePath(path: string): PathVariant[] | undefined {
  const raw = splitSegments(path.startsWith('/') ? path.slice(1) : path)
  if (raw.some(isWildcard)) return undefined
  // Hono only expands optional parameters when the whole path ends in `?`.
  const expandOptional = path.endsWith('?')
  const segments: Segment[] = raw.map((s) => {
    if (!s.startsWith(':')) return { literal: s }
    const optional = expandOptional && s.endsWith('?')
    const label = optional ? s.slice(0, -1) : s
    const m = /^:([^{}]+)(?:\{(.+)\})?$/.exec(label)
    if (!m) return { literal: s }
    const name = m[1] as string
    const pattern = m[2] === undefined ? undefined : `^(?:${m[2]})$`
    return { param: { name, pattern, optional } }
  })
  const all = segments.flatMap((s) => (s.param ? [s.param.name] : []))
  const toVariant = (used: Segment[]): PathVariant => {
    const params = used.flatMap((s) =>
      s.param ? [{ name: s.param.name, pattern: s.param.pattern }] : [],
    )
    const names = new Set(params.map((p) => p.name))
    return {
      template: `/${used.map((s) => (s.param ? `{${s.param.name}}` : s.literal)).join('/')}`,
      params,
      omitted: all.filter((n) => !names.has(n)),
    }
  }
  if (!segments.some((s) => s.param?.optional)) return [toVariant(segments)]
  // Mirrors Hono's checkOptionalParameter: a variant ends before and after each optional one.
  const prefixes: Segment[][] = []
  const base: Segment[] = []
  for (const s of segments) {
    if (s.param?.optional) {
      prefixes.push([...base])
      base.push(s)
      prefixes.push([...base])
    } else if (s.param || s.literal !== '') base.push(s)
  }
  const seen = new Set<string>()
  return prefixes
    .map(toVariant)
    .filter((v) => !seen.has(v.template) && seen.add(v.template) !== undefined)
}
