// Every read of a Hono app's internals by @palisade/openapi, in one place, each with what it
// relies on: the route records (`app.routes`, also read by hono/dev's `inspectRoutes`), the
// error handler and base path (`errorHandler`, `_basePath`), the handler Hono wraps a sub-app's
// routes in (`__COMPOSED_HANDLER`), and the shape of the handler `mount()` registers. What cannot
// be read is reported as such (`undefined`, or a probe that says no), never guessed.
import { HonoBase } from 'hono/hono-base'
import { TrieRouter } from 'hono/router/trie-router'

/** One entry of Hono's route records: a handler registered for a method at a path. */
export interface HonoRouteRecord {
  /** Upper case; `ALL` for `use()`, `all()` and `mount()`. */
  readonly method: string
  /** The path Hono matches, base path included. */
  readonly path: string
  readonly handler: unknown
}

/** The parts of a Hono app read here (public at run time, though not all typed as such). */
interface HonoShape {
  routes?: unknown
  errorHandler?: unknown
  _basePath?: unknown
}

/** Hono's key for the handler a sub-app's route is wrapped in (`app.route()` with `onError`). */
const COMPOSED_HANDLER = '__COMPOSED_HANDLER'

function isRecordLike(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    !Array.isArray(value)
  )
}

/**
 * Hono's route records of `app` in registration order (the order Hono runs matching handlers
 * in), or `undefined` when `app` does not have them in the shape read here. Each record is the
 * object Hono keeps, so it can be recognised again by identity.
 */
export function routeRecords(app: unknown): readonly HonoRouteRecord[] | undefined {
  if (!isRecordLike(app)) return undefined
  const routes = (app as HonoShape).routes
  if (!Array.isArray(routes)) return undefined
  const wellFormed = routes.every(
    (r) =>
      isRecordLike(r) &&
      typeof r.method === 'string' &&
      typeof r.path === 'string' &&
      typeof r.handler === 'function',
  )
  return wellFormed ? (routes as HonoRouteRecord[]) : undefined
}

/** The record Hono added last (what a registration just made), or undefined. */
export function lastRouteRecord(app: unknown): HonoRouteRecord | undefined {
  return routeRecords(app)?.at(-1)
}

/**
 * The handler the user registered: Hono wraps each route of a sub-app that has its own error
 * handler (`parent.route(prefix, sub)`) in a function that keeps the original under
 * `__COMPOSED_HANDLER`, as hono/dev's `findTargetHandler` reads it.
 */
export function targetHandler(handler: unknown): unknown {
  let current = handler
  for (let depth = 0; depth < 16 && typeof current === 'function'; depth++) {
    const inner = (current as unknown as Record<string, unknown>)[COMPOSED_HANDLER]
    if (typeof inner !== 'function') break
    current = inner
  }
  return current
}

/** The handler Hono calls for a thrown error (`app.onError`), or undefined. */
export function errorHandlerOf(app: unknown): unknown {
  return isRecordLike(app) ? (app as HonoShape).errorHandler : undefined
}

/** The base path Hono prefixes to the routes of `app` (`'/'` unless `basePath()` set one). */
export function basePathOf(app: unknown): string {
  const base = isRecordLike(app) ? (app as HonoShape)._basePath : undefined
  return typeof base === 'string' ? base : '/'
}

/** A fresh Hono app to probe (the base class has no router of its own). */
const probeApp = () => new HonoBase({ router: new TrieRouter() })

/** Hono's built-in error handler, read from a fresh app once. */
let honoDefaultErrorHandler: unknown
export function isHonoDefaultErrorHandler(handler: unknown): boolean {
  honoDefaultErrorHandler ??= errorHandlerOf(probeApp())
  return (
    handler === honoDefaultErrorHandler ||
    // Across two copies of Hono: the same function, by its name and arity.
    (typeof handler === 'function' && handler.name === 'errorHandler' && handler.length === 2)
  )
}

const normalized = (source: string) => source.replace(/\s+/g, ' ').trim()

/**
 * The source text of the handler `app.mount()` registers, read once from a probe app: every
 * mount handler is a closure of that one function, and `mount()` from `hono/mount` returns the
 * same code, so a handler with this text is a mounted application. `null` when the probe fails
 * (a Hono without `mount()`), and then no handler is recognised as a mount.
 */
let mountSource: string | null | undefined
function mountHandlerSource(): string | null {
  if (mountSource === undefined) {
    mountSource = null
    try {
      const probe = probeApp() as unknown as {
        mount?: (path: string, handler: () => Response) => unknown
      }
      probe.mount?.('/probe', () => new Response(null))
      const handler = routeRecords(probe)?.at(-1)?.handler
      if (typeof handler === 'function')
        mountSource = normalized(Function.prototype.toString.call(handler))
    } catch {
      mountSource = null
    }
  }
  return mountSource
}

/** True for the handler of a mounted application (`app.mount()`, or `mount()` from hono/mount). */
export function isMountHandler(handler: unknown): boolean {
  if (typeof handler !== 'function' || handler.length !== 2) return false
  const source = mountHandlerSource()
  if (source === null) return false
  let text: string
  try {
    text = Function.prototype.toString.call(handler)
  } catch {
    return false
  }
  return normalized(text) === source
}

/**
 * What this module can read from the Hono it was installed with: the route records, and mounted
 * applications. A capability that is `false` makes the reader that needs it say so (audit
 * refuses an app whose routes it cannot read) instead of passing blind.
 */
export function probeHonoInternals(): { routes: boolean; mount: boolean } {
  const probe = probeApp()
  probe.get('/probe', () => new Response(null))
  const records = routeRecords(probe)
  return {
    routes: records?.length === 1 && records[0]?.method === 'GET' && records[0]?.path === '/probe',
    mount: mountHandlerSource() !== null,
  }
}
