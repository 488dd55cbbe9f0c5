import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

/**
 * Throws the rejection every middleware uses: an `HTTPException` whose response is the message as
 * `text/plain`, plus any extra headers (`Retry-After`, `WWW-Authenticate`, …). Throwing instead of
 * returning lets `app.onError` reshape every rejection in one place.
 */
export function reject(
  status: ContentfulStatusCode,
  message: string,
  headers?: Record<string, string>,
): never {
  const res = new Response(message, {
    status,
    headers: { 'content-type': 'text/plain; charset=UTF-8', ...headers },
  })
  throw new HTTPException(status, { message, res })
}
