/**
 * An `app.onError` handler for tests that compare a middleware's whole answer: the rejection's
 * own response (status, text, headers) with its code added as `x-code`. Anything that is not a
 * rejection is thrown on.
 */
import { Rejection } from '../src/internal/outcomes/rejection'

/**
 * @example
 * app.onError(withRejectionCode)
 * (await app.request('/')).headers.get('x-code') // 'token_missing'
 */
export function withRejectionCode(err: Error): Response {
  if (!(err instanceof Rejection)) throw err
  const res = err.getResponse()
  const headers = new Headers(res.headers)
  headers.set('x-code', err.code)
  return new Response(res.body, { status: res.status, headers })
}
