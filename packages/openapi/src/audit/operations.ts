// What the audit checks: one operation per route Hono really serves (each documented operation of
// a wrapper route, and each route registered past the wrapper or that the document cannot
// describe), with the middleware that run for it, read from Hono's router in the order Hono
// runs them.
import { type RouterEntry, routerEntries } from '../app/registered-routes'
import type { OpenAPIApp } from '../app/router-types'
import { type Description, readDescription } from '../document/described-read'
import type { StoredRoute } from '../model/route'
import { ALL_METHODS, planRoute } from '../rules/route-plan'
import { coverage, samplePaths } from './coverage'

/** A middleware registered before a route whose path reaches all or part of the route's paths. */
export interface ChainEntry {
  /** Upper case; `ALL` for every method. */
  readonly method: string
  /** The path it is registered at, as Hono matches it. */
  readonly pattern: string
  readonly description: Description | undefined
  readonly reach: 'all' | 'some'
}

/** One route as the audit sees it. */
export interface Operation {
  /** Upper case; `ALL` for a route registered past the wrapper for every method. */
  readonly method: string
  /** The methods the rules are checked for: `[method]`, or each documented method for `ALL`. */
  readonly methods: readonly string[]
  /** The documented path (`/users/{id}`), or the registered one when it is not documented. */
  readonly path: string
  /** The path as registered in Hono, base path included (`/users/:id{[0-9]+}`). */
  readonly route: string
  /** The wrapper's record, when the route is documented. */
  readonly documented?: StoredRoute
  /** Path parameter names of the documented path. */
  readonly params: readonly string[]
  /**
   * Why a route is not documented, when it is not: registered past the wrapper, mounted, a
   * wildcard path, or a path whose operation the document takes from another route.
   */
  readonly undocumented?: 'unregistered' | 'mounted' | 'wildcard' | 'described-elsewhere'
  readonly chain: readonly ChainEntry[]
}

/**
 * The descriptions of the middleware Hono runs for every request of `op` with `method`: those
 * registered for it on a path reaching all of the route. With `documentedOnly` (the default),
 * only those whose description applies to `method` (csrf describes the unsafe methods, bodyLimit
 * the ones that usually carry a body).
 */
export function descriptionsFor(
  op: Operation,
  method: string,
  documentedOnly = true,
): Description[] {
  return op.chain.flatMap((entry) => {
    const d = entry.description
    if (entry.reach !== 'all' || d === undefined) return []
    if (entry.method !== 'ALL' && entry.method !== method) return []
    return !documentedOnly || !d.methods || d.methods.includes(method) ? [d] : []
  })
}

/** Middleware that run for `method` on only part of the route's paths. */
export function partialFor(op: Operation, method: string): ChainEntry[] {
  return op.chain.filter(
    (entry) =>
      entry.reach === 'some' &&
      entry.description !== undefined &&
      (entry.method === 'ALL' || entry.method === method) &&
      (!entry.description.methods || entry.description.methods.includes(method)),
  )
}

const EVERY_METHOD = ALL_METHODS.map((m) => m.toUpperCase())

function chainOf(entries: readonly RouterEntry[], index: number, route: string): ChainEntry[] {
  const samples = samplePaths(route)
  const chain: ChainEntry[] = []
  for (const entry of entries.slice(0, index)) {
    if (entry.kind !== 'middleware') continue
    const reach = coverage(entry.path, route, samples)
    if (reach === 'none') continue
    chain.push({
      method: entry.method,
      pattern: entry.path,
      description: readDescription(entry.handler),
      reach,
    })
  }
  return chain
}

/**
 * The route whose operation the document shows, by `method template`: as `generateSpec` picks
 * it, the highest priority (metadata beats none, a method beats `all`), the first on a tie.
 */
function describingRoutes(routes: readonly StoredRoute[]): Map<string, StoredRoute> {
  const chosen = new Map<string, { priority: number; route: StoredRoute }>()
  for (const route of routes) {
    for (const op of planRoute(route)) {
      const key = `${op.method} ${op.variant.template}`
      const current = chosen.get(key)
      if (!current || current.priority < op.priority)
        chosen.set(key, { priority: op.priority, route })
    }
  }
  return new Map([...chosen].map(([key, { route }]) => [key, route]))
}

/**
 * The operations of `api`, by Hono's registration order. A method and path that an earlier route
 * already answers (Hono's first matching route answers) is not audited again.
 */
export function operationsOf(api: OpenAPIApp): Operation[] | undefined {
  const entries = routerEntries(api, api.app)
  if (entries === undefined) return undefined
  const describing = describingRoutes(api.routes)
  const operations: Operation[] = []
  /** `METHOD path` of the routes seen so far (`ALL path` for any method). */
  const answered = new Set<string>()
  const answers = (method: string, path: string) =>
    answered.has(`${method} ${path}`) || answered.has(`ALL ${path}`)
  entries.forEach((entry, index) => {
    if (entry.kind !== 'route' || answers(entry.method, entry.path)) return
    const chain = chainOf(entries, index, entry.path)
    const undocumented = (method: string, why: NonNullable<Operation['undocumented']>) =>
      operations.push({
        method,
        methods: method === 'ALL' ? EVERY_METHOD : [method],
        path: entry.path,
        route: entry.path,
        params: [],
        undocumented: why,
        chain,
      })
    const planned = entry.route ? planRoute(entry.route) : []
    if (planned.length === 0) {
      undocumented(
        entry.method,
        entry.mounted ? 'mounted' : entry.route ? 'wildcard' : 'unregistered',
      )
    }
    const elsewhere = new Set<string>()
    for (const op of planned) {
      const method = op.method.toUpperCase()
      // An `all` route after a route of one method: Hono answers that method with the earlier one.
      if (answers(method, entry.path)) continue
      if (describing.get(`${op.method} ${op.variant.template}`) !== entry.route) {
        if (!elsewhere.has(method)) undocumented(method, 'described-elsewhere')
        elsewhere.add(method)
        continue
      }
      operations.push({
        method,
        methods: [method],
        path: op.variant.template,
        route: entry.path,
        documented: entry.route,
        params: op.variant.params.map((p) => p.name),
        chain,
      })
    }
    answered.add(`${entry.method} ${entry.path}`)
  })
  return operations
}
