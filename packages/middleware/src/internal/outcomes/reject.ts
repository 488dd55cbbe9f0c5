import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { codeForStatus, Rejection, type RejectionCode } from './rejection'

/**
 * Throws the rejection every middleware uses: a {@link Rejection} (an `HTTPException` with a
 * stable `code`) whose response is the message as `text/plain`, plus any extra headers
 * (`Retry-After`, `WWW-Authenticate`, …). Throwing instead of returning lets `app.onError`
 * reshape every rejection in one place.
 *
 * The legacy form `reject(status, message, headers?)` still works and takes its code from the
 * status (`codeForStatus`); every rejection in this package names its code.
 */
export function reject(
  status: ContentfulStatusCode,
  message: string,
  code?: RejectionCode,
  headers?: Record<string, string>,
): never
export function reject(
  status: ContentfulStatusCode,
  message: string,
  headers?: Record<string, string>,
): never
export function reject(
  status: ContentfulStatusCode,
  message: string,
  codeOrHeaders?: RejectionCode | Record<string, string>,
  headers?: Record<string, string>,
): never {
  if (typeof codeOrHeaders === 'object') {
    throw new Rejection(status, message, codeForStatus(status), codeOrHeaders)
  }
  throw new Rejection(status, message, codeOrHeaders ?? codeForStatus(status), headers)
}
