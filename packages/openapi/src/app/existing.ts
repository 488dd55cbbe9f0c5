// What a Hono app already has when `openapi()` wraps it: middleware added by `app.use` and an
// error handler set by `app.onError`. Hono runs both for the wrapper's routes, so the document
// has to say what they do; reading them here is what keeps it from being silently wrong.

import { internalsSwitchedOff } from '@palisade/shared/internals'
import { readDescription } from '../document/described-read'
import { errorHandlerOf, isHonoDefaultErrorHandler, routeRecords } from './hono-internals'
import type { UseRecord } from './route-middleware'

/**
 * The described middleware registered on `app` with `use` (Hono records them under method
 * `ALL`), as use records whose patterns are the paths Hono matches (with any base path).
 * Undescribed entries are left out: they add nothing to the document, and an `app.all()` route
 * handler looks the same as a middleware in Hono's records.
 */
export function existingMiddleware(app: unknown): UseRecord[] {
  return (routeRecords(app) ?? [])
    .filter((r) => r.method === 'ALL' && readDescription(r.handler) !== undefined)
    .map((r) => ({ pattern: r.path, handlers: [r.handler], served: true }))
}

/** Said once per process when the switch hides an error handler set before wrapping. */
let warned = false

/**
 * Checks the error handler `app` already has. One that describes the body it gives rejections
 * (`problemHandler()`) is read by the document, as `api.onError()` would; Hono's default needs
 * nothing. Any other would make the document guess the rejection bodies, so this throws.
 *
 * With the internals switched off, the handler Hono holds cannot be read: the document then
 * follows the handler set through `api.onError()` or `app.onError()` after wrapping (Hono's
 * default until one is), and a warning, once, says that one set before wrapping is not seen.
 */
export function assertKnownErrorHandler(app: unknown): void {
  if (internalsSwitchedOff()) {
    if (!warned) {
      warned = true
      console.warn(
        'palisade: globalThis.__PALISADE_NO_INTERNALS__ is set, so openapi() cannot see an error handler set with app.onError() before it wrapped the app; set it after wrapping (api.onError(handler)) for the document to describe its rejections',
      )
    }
    return
  }
  const handler = errorHandlerOf(app)
  if (handler === undefined || isHonoDefaultErrorHandler(handler)) return
  if (readDescription(handler)?.rejectionBody !== undefined) return
  const name = typeof handler === 'function' && handler.name !== '' ? ` (${handler.name})` : ''
  throw new TypeError(
    `openapi: the Hono app already has an error handler${name} that does not describe the body it gives rejections, so the document cannot say what they look like. Use problemHandler() from @palisade/middleware, describe the handler with describeMiddleware(handler, { rejectionBody }), or set it after wrapping with api.onError(handler) to document rejections as text/plain`,
  )
}
