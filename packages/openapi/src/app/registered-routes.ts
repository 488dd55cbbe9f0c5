// What Hono really serves, entry by entry: the wrapper notes which of Hono's route records it made
// (a documented route, the middleware in front of it, a docs endpoint), and `routerEntries` reads
// every record of the app, those and the ones registered past the wrapper (`api.app.get`,
// `route()`, `basePath()`, `on()`, `mount()`, `use()`), and says what each one is.
import { readDescription } from '../document/described-read'
import type { StoredRoute } from '../model/route'
import { isMountHandler, routeRecords, targetHandler } from './hono-internals'

/** The Hono records one wrapper made, by identity. */
export interface Registrations {
  /** The record of each route's last handler (the one that answers), with the route recorded. */
  readonly endpoints: Map<object, StoredRoute>
  /** The records of the route middleware and request validator in front of those. */
  readonly chains: Set<object>
  /** The records of the endpoints `openapi()` serves itself, and of their guards. */
  readonly docs: Set<object>
}

// Registered symbols, not module state: `palisade audit` may run from one copy of this package
// (its CLI bundle) on an app built with another (the root entry, or the sources through tsx).
/** Where a wrapper keeps its {@link Registrations}. */
const REGISTRATIONS = Symbol.for('palisade.openapi.registrations')
/**
 * The mark on a function the wrapper made and registered (a response-checking route handler, a
 * docs responder or guard), so a record copied into another app (`parent.route(prefix, api.app)`)
 * is still known for what it is there.
 */
const MADE_FOR = Symbol.for('palisade.openapi.registeredAs')
type Made = 'route' | 'docs'

function mark(handler: unknown, as: Made): void {
  if (typeof handler !== 'function' || Object.isFrozen(handler)) return
  Object.defineProperty(handler, MADE_FOR, { value: as, configurable: true })
}

function madeFor(handler: unknown): Made | undefined {
  if (typeof handler !== 'function') return undefined
  const as = (handler as unknown as Record<symbol, unknown>)[MADE_FOR]
  return as === 'route' || as === 'docs' ? as : undefined
}

export function newRegistrations(): Registrations {
  return { endpoints: new Map(), chains: new Set(), docs: new Set() }
}

/** Makes `registrations` readable from `wrapper` (see {@link routerEntries}). */
export function bindRegistrations(wrapper: object, registrations: Registrations): void {
  Object.defineProperty(wrapper, REGISTRATIONS, { value: registrations, configurable: true })
}

function registrationsOf(wrapper: object): Registrations | undefined {
  const value = (wrapper as Record<symbol, unknown>)[REGISTRATIONS]
  if (value === null || typeof value !== 'object') return undefined
  const { endpoints, chains, docs } = value as Partial<Registrations>
  return endpoints instanceof Map && chains instanceof Set && docs instanceof Set
    ? (value as Registrations)
    : undefined
}

/** The records Hono added to `app` since it had `before` of them. */
export function recordsSince(app: unknown, before: number): readonly object[] {
  return (routeRecords(app) ?? []).slice(before)
}

/** Hono's record count of `app`, to pass to {@link recordsSince} after registering. */
export function recordCount(app: unknown): number {
  return routeRecords(app)?.length ?? 0
}

/**
 * Notes the records of one route registration: the last one answers, the others run before it.
 * `userHandler` is the handler as given: when the wrapper registered a function of its own in
 * its place (the response check), that function is marked as a route.
 */
export function noteRoute(
  registrations: Registrations,
  records: readonly object[],
  route: StoredRoute,
  userHandler: unknown,
): void {
  const endpoint = records.at(-1)
  if (endpoint === undefined) return
  registrations.endpoints.set(endpoint, route)
  const handler = (endpoint as { handler?: unknown }).handler
  if (handler !== userHandler) mark(handler, 'route')
  for (const record of records.slice(0, -1)) registrations.chains.add(record)
}

/** Notes the records of one docs endpoint (its guard and its responder, both the wrapper's). */
export function noteDocs(registrations: Registrations, records: readonly object[]): void {
  for (const record of records) {
    registrations.docs.add(record)
    mark((record as { handler?: unknown }).handler, 'docs')
  }
}

/** One entry of Hono's router, and what it is. */
export interface RouterEntry {
  /** Upper case; `ALL` for `use()`, `all()` and `mount()`. */
  readonly method: string
  /** The path Hono matches, base path included. */
  readonly path: string
  /** The handler as registered (unwrapped from the error-handling wrapper of `route()`). */
  readonly handler: unknown
  /**
   * `'route'`: it answers (a route's handler, a mounted application); `'middleware'`: it runs
   * before a route and calls `next()`; `'docs'`: an endpoint `openapi()` serves itself.
   */
  readonly kind: 'route' | 'middleware' | 'docs'
  /** For a route the wrapper registered: its record (what the document is built from). */
  readonly route?: StoredRoute
  /** A mounted application (`app.mount()`, or `mount()` from hono/mount). */
  readonly mounted?: boolean
}

function classify(record: object, handler: unknown, registrations: Registrations | undefined) {
  const made = madeFor(handler)
  if (registrations?.docs.has(record) || made === 'docs') return { kind: 'docs' as const }
  const route = registrations?.endpoints.get(record)
  if (route !== undefined) return { kind: 'route' as const, route }
  if (registrations?.chains.has(record)) return { kind: 'middleware' as const }
  if (made === 'route') return { kind: 'route' as const }
  // A described function is a middleware; a mounted application answers, though it takes
  // `next` (for a 404 of its own); otherwise Hono's own rule (hono/dev's `isMiddleware`): a
  // handler that takes `next` is a middleware.
  if (readDescription(handler) !== undefined) return { kind: 'middleware' as const }
  if (isMountHandler(handler)) return { kind: 'route' as const, mounted: true }
  if (typeof handler === 'function' && handler.length >= 2) return { kind: 'middleware' as const }
  return { kind: 'route' as const }
}

/**
 * Every entry of the Hono app behind `wrapper`, in registration order (the order Hono runs the
 * matching ones in), or `undefined` when Hono's records cannot be read.
 */
export function routerEntries(wrapper: object, app: unknown): RouterEntry[] | undefined {
  const records = routeRecords(app)
  if (records === undefined) return undefined
  const registrations = registrationsOf(wrapper)
  return records.map((record) => {
    const handler = targetHandler(record.handler)
    return {
      method: record.method.toUpperCase(),
      path: record.path,
      handler,
      ...classify(record, handler, registrations),
    }
  })
}
