// Every read of a Hono app by @palisade/openapi, in one place, each with what it relies on.
// Public, and always read: the route records (`app.routes`, typed `RouterRoute[]`, also read by
// hono/dev's `inspectRoutes`) and the base path each record carries (`RouterRoute.basePath`).
// Internal, and switched off by `globalThis.__PALISADE_NO_INTERNALS__ = true` (ARCHITECTURE.md
// "Borrowed internals"): the error handler (`errorHandler`, private), the handler Hono wraps a
// sub-app's routes in (`__COMPOSED_HANDLER`) and the shape of the handler `mount()` registers.
// With the switch on, the error handler is the one set through `onError` since wrapping (seen
// by a wrapper around the public method) and the router itself cannot be read: `palisade audit`
// refuses to run rather than audit a router it misreads. What cannot be read is reported as
// such (`undefined`, a probe that says no, a refusal), never guessed.
import { internalsSwitchedOff } from '@palisade/shared/internals'
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
  if (internalsSwitchedOff()) return handler
  let current = handler
  for (let depth = 0; depth < 16 && typeof current === 'function'; depth++) {
    const inner = (current as unknown as Record<string, unknown>)[COMPOSED_HANDLER]
    if (typeof inner !== 'function') break
    current = inner
  }
  return current
}

/** The handler Hono calls for a thrown error (`app.onError`), or undefined (switch on). */
export function errorHandlerOf(app: unknown): unknown {
  if (internalsSwitchedOff()) return undefined
  return isRecordLike(app) ? (app as HonoShape).errorHandler : undefined
}

/**
 * Watches what `app.onError()` is given from now on (Hono keeps `onError` as an own property of
 * each app, and this replaces it with one that notes the handler, then calls Hono's), and returns
 * the error handler Hono will call: read from Hono, or with the switch on, the last one set
 * through `onError` since this was called (`undefined` for none: Hono's default, unless one was
 * set before, which only the internals can see; `existing.ts` says so).
 */
export function watchErrorHandler(app: object): () => unknown {
  let seen: unknown
  const original = (app as { onError?: unknown }).onError
  if (typeof original === 'function') {
    Object.defineProperty(app, 'onError', {
      value: function onError(this: unknown, handler: unknown) {
        seen = handler
        return original.call(this, handler)
      },
      writable: true,
      enumerable: true,
      configurable: true,
    })
  }
  return () => (internalsSwitchedOff() ? seen : errorHandlerOf(app))
}

/**
 * The base path Hono prefixed to `record`'s path (`RouterRoute.basePath`, public: the app's
 * `basePath()` for a route registered on it), `'/'` when the record has none.
 */
export function basePathOf(record: unknown): string {
  const base = isRecordLike(record) ? record.basePath : undefined
  return typeof base === 'string' ? base : '/'
}

/** A fresh Hono app to probe (the base class has no router of its own). */
const probeApp = () => new HonoBase({ router: new TrieRouter() })

/** Hono's built-in error handler, read from a fresh app once. */
let honoDefaultErrorHandler: unknown
export function isHonoDefaultErrorHandler(handler: unknown): boolean {
  honoDefaultErrorHandler ??= (probeApp() as unknown as HonoShape).errorHandler
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
  if (internalsSwitchedOff() || typeof handler !== 'function' || handler.length !== 2) return false
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
 * What this module can read from the Hono it was installed with: the route records (public),
 * the error handler, the composed handler of `route()` and mounted applications (internal: all
 * `false` with the switch on). A capability that is `false` makes the reader that needs it say
 * so (audit refuses) instead of passing blind.
 */
export function probeHonoInternals(): {
  routes: boolean
  errorHandler: boolean
  composed: boolean
  mount: boolean
} {
  const probe = probeApp()
  const own = (_error: Error, c: { text: (s: string) => Response }) => c.text('probe')
  probe.onError(own)
  const sub = probeApp()
  const handler = () => new Response(null)
  sub.get('/probe', handler)
  sub.onError(own)
  probe.route('/sub', sub)
  const records = routeRecords(probe)
  const off = internalsSwitchedOff()
  return {
    routes:
      records?.length === 1 && records[0]?.method === 'GET' && records[0]?.path === '/sub/probe',
    errorHandler: !off && errorHandlerOf(probe) === own,
    composed: !off && records?.[0] !== undefined && targetHandler(records[0].handler) === handler,
    mount: !off && mountHandlerSource() !== null,
  }
}

/**
 * Throws what `feature` needs and cannot have with the internals switched off (the router as
 * Hono runs it), naming the switch; returns when the internals are on.
 */
export function requireInternals(feature: string): void {
  if (!internalsSwitchedOff()) return
  throw new TypeError(
    `${feature}: reads Hono's router as Hono runs it (the handler route() wraps a sub-app's routes in, the handler mount() registers, the app's error handler), which globalThis.__PALISADE_NO_INTERNALS__ switches off; run it without the switch`,
  )
}
