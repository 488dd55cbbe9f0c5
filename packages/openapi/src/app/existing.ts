// What a Hono app already has when `openapi()` wraps it: middleware added by `app.use` and an
// error handler set by `app.onError`. Hono runs both for the wrapper's routes, so the document
// has to say what they do; reading them here is what keeps it from being silently wrong.
import { HonoBase } from 'hono/hono-base'
import { readDescription } from '../document/described-read'
import type { UseRecord } from './route-middleware'

/** Hono's own error handler, which answers an `HTTPException` with its text (`text/plain`). */
let honoDefault: unknown

/** The parts of a Hono app read here (`errorHandler` and `_basePath` are public at run time). */
export interface HonoInternals {
  routes: readonly { method: string; path: string; handler: unknown }[]
  errorHandler?: unknown
  _basePath?: unknown
}

/**
 * The described middleware registered on `app` with `use` (Hono records them under method
 * `ALL`), as use records whose patterns are the paths Hono matches (with any base path).
 * Undescribed entries are left out: they add nothing to the document, and an `app.all()` route
 * handler looks the same as a middleware in Hono's records.
 */
export function existingMiddleware(app: HonoInternals): UseRecord[] {
  return app.routes
    .filter((r) => r.method === 'ALL' && readDescription(r.handler) !== undefined)
    .map((r) => ({ pattern: r.path, handlers: [r.handler], served: true }))
}

/** The path Hono serves a route registered at `path` under: Hono prefixes its base path. */
export function basePathOf(app: HonoInternals): string {
  return typeof app._basePath === 'string' ? app._basePath : '/'
}

/** True for Hono's built-in error handler (also across two copies of Hono, by its name). */
function isHonoDefault(handler: unknown): boolean {
  honoDefault ??= (new HonoBase() as unknown as HonoInternals).errorHandler
  return (
    handler === honoDefault ||
    (typeof handler === 'function' && handler.name === 'errorHandler' && handler.length === 2)
  )
}

/**
 * Checks the error handler `app` already has. One that describes the body it gives rejections
 * (`problemHandler()`) is read by the document, as `api.onError()` would; Hono's default needs
 * nothing. Any other would make the document guess the rejection bodies, so this throws.
 */
export function assertKnownErrorHandler(app: HonoInternals): void {
  const handler = app.errorHandler
  if (handler === undefined || isHonoDefault(handler)) return
  if (readDescription(handler)?.rejectionBody !== undefined) return
  const name = typeof handler === 'function' && handler.name !== '' ? ` (${handler.name})` : ''
  throw new TypeError(
    `openapi: the Hono app already has an error handler${name} that does not describe the body it gives rejections, so the document cannot say what they look like. Use problemHandler() from @palisade/middleware, describe the handler with describeMiddleware(handler, { rejectionBody }), or set it after wrapping with api.onError(handler) to document rejections as text/plain`,
  )
}
