import { PROBLEM_JSON, type ProblemBody, problemDetails } from '@palisade/shared/problem'
import type { NotFoundHandler } from 'hono'
import { assertKnownKeys, assertNonEmptyString } from '../internal/options'

/**
 * Options of {@link problemNotFound}.
 *
 * @example
 * const options: ProblemNotFoundOptions = { typeBase: 'https://errors.example.com/' }
 * app.notFound(problemNotFound(options))
 */
export interface ProblemNotFoundOptions {
  /**
   * When set, `type` is this prefix followed by `not_found`, as in `problemHandler({ typeBase })`.
   * Default: `about:blank`.
   */
  typeBase?: string
}

/** What a request no route matched is told: no echo of its path or method. */
const DETAIL = 'No route matches this method and path'

/**
 * A `notFound` handler that answers a request no route matches with a 404 RFC 9457
 * `application/problem+json` body (`code: 'not_found'`), the shape `problemHandler()` gives every
 * rejection. Hono's own not-found answer is `404 Not Found` as `text/plain`, which `onError`
 * never sees: an API with `problemHandler()` sets this too, so every error body is a problem.
 * The body does not repeat the request's path or method.
 *
 * @param options.typeBase default unset (`type` is `about:blank`)
 * @example
 * ```ts
 * const app = new Hono()
 * app.onError(problemHandler())
 * app.notFound(problemNotFound())
 * // GET /nope → 404 { "type": "about:blank", "title": "Not Found", "status": 404,
 * //                   "detail": "No route matches this method and path", "code": "not_found" }
 * ```
 */
export function problemNotFound(options: ProblemNotFoundOptions = {}): NotFoundHandler {
  const factory = 'problemNotFound'
  assertKnownKeys(factory, options, ['typeBase'])
  const typeBase =
    options.typeBase === undefined
      ? undefined
      : assertNonEmptyString(factory, 'typeBase', options.typeBase)
  const code = 'not_found'
  // The same body for every request: built once.
  const body: ProblemBody = problemDetails(404, {
    type: typeBase ? typeBase + code : undefined,
    detail: DETAIL,
    code,
  }) as ProblemBody
  const json = JSON.stringify(body)
  return function problemNotFound() {
    return new Response(json, { status: 404, headers: { 'content-type': PROBLEM_JSON } })
  }
}
