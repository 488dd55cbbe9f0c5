import { CODE_PATTERN } from '@palisade/shared/codes'
import type { RendersProblems } from '@palisade/shared/describe'
import { describeMiddleware } from '@palisade/shared/describe'
import {
  MAX_FIELD_ERRORS,
  PROBLEM_JSON,
  PROBLEM_SCHEMA,
  type ProblemBody,
  type ProblemFieldError,
  problemDetails,
} from '@palisade/shared/problem'
import type { Context, ErrorHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { redactValue, secretNames } from '../internal/logging/redact'
import { assertFunction, assertKnownKeys, assertNonEmptyString } from '../internal/options'
import { codeForStatus } from '../internal/outcomes/rejection'

export { PROBLEM_SCHEMA, type ProblemBody, type ProblemFieldError } from '@palisade/shared/problem'

/**
 * Options of {@link problemHandler}.
 *
 * @example
 * const options: ProblemHandlerOptions = { typeBase: 'https://errors.example.com/' }
 * app.onError(problemHandler(options))
 */
export interface ProblemHandlerOptions {
  /**
   * When set, `type` is this prefix followed by the code (`https://errors.example.com/rate_limited`).
   * Default: `about:blank` (RFC 9457 §4.2.1: the title is then the HTTP status phrase).
   */
  typeBase?: string
  /**
   * Called with every error that is not an `HTTPException` (answered 500 without its message).
   * Default: `console.error` of the error's stack, then its own properties and causes with the
   * values of secret headers redacted (an HTTP client's `err.config.headers.Authorization`, as
   * axios attaches it, never reaches the log). Hono's default handler prints the error whole.
   */
  onUnexpected?: (err: Error, c: Context) => void
}

const SNAKE = new RegExp(CODE_PATTERN)
const SECRETS = secretNames()

/**
 * The default report of an unexpected error: its stack as text (readable, as Hono prints it),
 * then what else it carries (own properties such as an HTTP client's `config`, `cause`) as a
 * scrubbed copy: secret header values redacted wherever they sit, bounded, never throwing.
 */
function logUnexpected(err: Error): void {
  const { type, message, stack, ...rest } = redactValue(err, SECRETS) as Record<string, unknown>
  const head = typeof stack === 'string' ? stack : `${String(type)}: ${String(message)}`
  if (Object.keys(rest).length === 0) console.error(head)
  else console.error(head, rest)
}
/** Headers of the rejection's own response that describe its old body, not the problem. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding'])

function fieldErrors(value: unknown): ProblemFieldError[] | undefined {
  if (!Array.isArray(value)) return undefined
  const ok = value.every(
    (e) =>
      e !== null &&
      typeof e === 'object' &&
      typeof e.path === 'string' &&
      typeof e.message === 'string',
  )
  if (!ok) return undefined
  // Only `{ in, path, message }` leave: a foreign exception's items may carry anything (an ORM's
  // `instance.passwordHash`, a stack). At most MAX_FIELD_ERRORS of them, as validation lists.
  return value.slice(0, MAX_FIELD_ERRORS).map((e: Record<string, string>) => {
    const item: Record<string, string> = {}
    if (LOCATIONS.has(e.in as string)) item.in = e.in as string
    item.path = e.path as string
    item.message = e.message as string
    return item as unknown as ProblemFieldError
  })
}

const LOCATIONS = new Set(['body', 'query', 'path', 'header'])

/**
 * An `onError` handler that renders every rejection as RFC 9457 `application/problem+json`:
 * Palisade's (`{ type, title, status, detail, code }`, `code` being the rejection's stable code),
 * any other `HTTPException` (code from its status, e.g. `not_found`), and request validation
 * failures (`code: 'validation_failed'` plus `errors`). A response that is already
 * `application/problem+json` passes through unchanged. Headers the rejection carries
 * (`Retry-After`, `WWW-Authenticate`, `RateLimit-*`, …) are kept. Any other error is a 500 whose
 * message is not sent, and is reported to `onUnexpected`.
 *
 * `@palisade/openapi` reads this handler's description when it is passed to `api.onError()`, and
 * documents every middleware and validation rejection with this body.
 *
 * @param options.typeBase default unset (`type` is `about:blank`)
 * @param options.onUnexpected default `console.error` of the error, secret header values redacted
 * @example
 * ```ts
 * const app = new Hono()
 * app.onError(problemHandler())
 * app.use('/api/*', rateLimit({ max: 100 }))
 * // 429 → { "type": "about:blank", "title": "Too Many Requests", "status": 429,
 * //         "detail": "Too many requests", "code": "rate_limited" }
 * ```
 */
export function problemHandler(
  options: ProblemHandlerOptions = {},
): ErrorHandler & RendersProblems {
  const factory = 'problemHandler'
  assertKnownKeys(factory, options, ['typeBase', 'onUnexpected'])
  const typeBase =
    options.typeBase === undefined
      ? undefined
      : assertNonEmptyString(factory, 'typeBase', options.typeBase)
  const onUnexpected =
    options.onUnexpected === undefined
      ? logUnexpected
      : assertFunction<(err: Error, c: Context) => void>(
          factory,
          'onUnexpected',
          options.onUnexpected,
        )

  const render = (body: ProblemBody, headers: Headers): Response => {
    headers.set('content-type', PROBLEM_JSON)
    return new Response(JSON.stringify(body), { status: body.status, headers })
  }

  const problemBody = (status: number, code: string): ProblemBody =>
    problemDetails(status, { type: typeBase ? typeBase + code : undefined, code }) as ProblemBody

  const handler: ErrorHandler = (err, c) => {
    if (!(err instanceof HTTPException)) {
      try {
        onUnexpected(err, c)
      } catch {
        // A failing reporter must not turn one error into another.
      }
      const code = 'internal_error'
      return render(problemBody(500, code), new Headers())
    }
    const res = err.getResponse()
    if (res.headers.get('content-type')?.toLowerCase().startsWith(PROBLEM_JSON)) return res
    const headers = new Headers()
    res.headers.forEach((value, name) => {
      if (!BODY_HEADERS.has(name)) headers.append(name, value)
    })
    const raw = (err as { code?: unknown }).code
    const code = typeof raw === 'string' && SNAKE.test(raw) ? raw : codeForStatus(err.status)
    const body = problemBody(err.status, code)
    if (err.message) body.detail = err.message
    const errors = fieldErrors((err as { errors?: unknown }).errors)
    if (errors) body.errors = errors
    return render(body, headers)
  }
  return describeMiddleware(handler, {
    rejectionBody: { mediaType: PROBLEM_JSON, schemaName: 'Problem', schema: PROBLEM_SCHEMA },
  })
}
