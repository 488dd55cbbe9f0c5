import type { RejectionCode } from '@palisade/shared/codes'
import type { ProblemFieldError } from '@palisade/shared/problem'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

// The error type every middleware throws lives on the ground floor (internal/): the `reject`
// helper and every feature folder import it from below. The codes are shared with
// @palisade/openapi.
export type { RejectionCode } from '@palisade/shared/codes'

/** The code a rejection without one gets, from its status (used for plain `HTTPException`s). */
const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_content',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'service_unavailable',
}

/**
 * The code for a status when nothing more specific is known: `403` → `forbidden`, otherwise
 * `http_<status>`.
 *
 * @example
 * codeForStatus(404) // 'not_found'
 */
export function codeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? `http_${status}`
}

/**
 * A Palisade rejection: Hono's `HTTPException` with a stable machine `code`. Its response is the
 * message as `text/plain` plus the rejection's headers (`Retry-After`, `WWW-Authenticate`, …), so
 * an app without an error handler answers exactly as before; `problemHandler()` renders it as
 * `application/problem+json`.
 *
 * @example
 * ```ts
 * app.onError((err, c) => {
 *   if (err instanceof Rejection) console.warn(err.code, c.req.path)
 *   return err instanceof Rejection ? err.getResponse() : c.text('Internal error', 500)
 * })
 * ```
 */
export class Rejection extends HTTPException {
  /** Stable snake_case code, e.g. `rate_limited`. */
  readonly code: RejectionCode
  /**
   * What was wrong with which part of the request (`[{ in, path, message }]`), as request
   * validation lists it: `problemHandler()` renders them as the problem's `errors`.
   */
  readonly errors?: readonly ProblemFieldError[]
  readonly #headers: Record<string, string> | undefined

  constructor(
    status: ContentfulStatusCode,
    message: string,
    code: RejectionCode,
    headers?: Record<string, string>,
    errors?: readonly ProblemFieldError[],
  ) {
    // No stack trace: a rejection is an answer, not a fault, and capturing one made up about a
    // fifth of a refusal's cost under a flood (bench/FINDINGS.md, "Rejections").
    const limit = (Error as { stackTraceLimit?: unknown }).stackTraceLimit
    let trimmed = false
    if (typeof limit === 'number') {
      try {
        ;(Error as { stackTraceLimit?: unknown }).stackTraceLimit = 0
        trimmed = true
      } catch {
        // A frozen Error (hardened JavaScript): the stack is captured as usual.
      }
    }
    try {
      super(status, { message })
    } finally {
      if (trimmed) (Error as { stackTraceLimit?: unknown }).stackTraceLimit = limit
    }
    this.name = 'Rejection'
    this.code = code
    if (errors !== undefined) this.errors = errors
    this.#headers = headers
    // `res` (HTTPException's) is built when read, not for every rejection: most are answered
    // through getResponse() once, or reshaped by an error handler that never reads it.
    Object.defineProperty(this, 'res', LAZY_RES)
  }

  /** The message as `text/plain` with the rejection's status and headers, built on each call. */
  override getResponse(): Response {
    return new Response(this.message, {
      status: this.status,
      headers: { 'content-type': 'text/plain; charset=UTF-8', ...this.#headers },
    })
  }
}

const LAZY_RES: PropertyDescriptor = {
  get(this: Rejection): Response {
    return this.getResponse()
  },
  enumerable: true,
  configurable: true,
}
