import type { Context, ErrorHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describeMiddleware } from '../describe/describe'
import { assertFunction, assertKnownKeys, assertNonEmptyString } from '../internal/options'
import { codeForStatus } from './rejection'

/** The media type of RFC 9457 problem details (also exported by @palisade/openapi). */
const PROBLEM_JSON = 'application/problem+json'

/**
 * One field-level failure of request validation (the openapi package's validation failures).
 *
 * @example
 * const e: ProblemFieldError = { in: 'body', path: '/email', message: 'Invalid email' }
 */
export interface ProblemFieldError {
  in: 'body' | 'query' | 'path' | 'header'
  /** JSON pointer into the part (`''` for the whole part). */
  path: string
  message: string
}

/**
 * The body `problemHandler()` renders (RFC 9457, with the `code` extension member).
 *
 * @example
 * const body: ProblemBody = {
 *   type: 'about:blank',
 *   title: 'Too Many Requests',
 *   status: 429,
 *   detail: 'Too many requests',
 *   code: 'rate_limited',
 * }
 */
export interface ProblemBody {
  type: string
  title: string
  status: number
  detail?: string
  /** Stable snake_case machine code. */
  code: string
  /** Field errors, on validation failures. */
  errors?: ProblemFieldError[]
}

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
   * Default: `console.error(err)`, as Hono's default error handler does.
   */
  onUnexpected?: (err: Error, c: Context) => void
}

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

/** JSON Schema of {@link ProblemBody}: what the document shows for every rejection. */
export const PROBLEM_SCHEMA: Readonly<Record<string, unknown>> = {
  type: 'object',
  description: 'RFC 9457 problem details',
  properties: {
    type: { type: 'string', description: 'A URI identifying the problem type' },
    title: { type: 'string', description: 'The HTTP status phrase' },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    detail: { type: 'string', description: 'What went wrong, for a human' },
    code: {
      type: 'string',
      pattern: '^[a-z][a-z0-9_]*$',
      description: 'Stable machine code, e.g. `rate_limited`',
    },
    errors: {
      type: 'array',
      description: 'Field errors of a validation failure',
      items: {
        type: 'object',
        properties: {
          in: { type: 'string', enum: ['body', 'query', 'path', 'header'] },
          path: { type: 'string', description: 'JSON pointer into the part' },
          message: { type: 'string' },
        },
        required: ['in', 'path', 'message'],
      },
    },
  },
  required: ['type', 'title', 'status', 'code'],
}

const SNAKE = /^[a-z][a-z0-9_]*$/
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
  return ok ? (value as ProblemFieldError[]) : undefined
}

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
 * @param options.onUnexpected default `console.error`
 * @example
 * ```ts
 * const app = new Hono()
 * app.onError(problemHandler())
 * app.use('/api/*', rateLimit({ max: 100 }))
 * // 429 → { "type": "about:blank", "title": "Too Many Requests", "status": 429,
 * //         "detail": "Too many requests", "code": "rate_limited" }
 * ```
 */
export function problemHandler(options: ProblemHandlerOptions = {}): ErrorHandler {
  const factory = 'problemHandler'
  assertKnownKeys(factory, options, ['typeBase', 'onUnexpected'])
  const typeBase =
    options.typeBase === undefined
      ? undefined
      : assertNonEmptyString(factory, 'typeBase', options.typeBase)
  const onUnexpected =
    options.onUnexpected === undefined
      ? (err: Error) => console.error(err)
      : assertFunction<(err: Error, c: Context) => void>(
          factory,
          'onUnexpected',
          options.onUnexpected,
        )

  const render = (body: ProblemBody, headers: Headers): Response => {
    headers.set('content-type', PROBLEM_JSON)
    return new Response(JSON.stringify(body), { status: body.status, headers })
  }

  const handler: ErrorHandler = (err, c) => {
    if (!(err instanceof HTTPException)) {
      try {
        onUnexpected(err, c)
      } catch {
        // A failing reporter must not turn one error into another.
      }
      const code = 'internal_error'
      return render(
        {
          type: typeBase ? typeBase + code : 'about:blank',
          title: TITLES[500] as string,
          status: 500,
          code,
        },
        new Headers(),
      )
    }
    const res = err.getResponse()
    if (res.headers.get('content-type')?.toLowerCase().startsWith(PROBLEM_JSON)) return res
    const headers = new Headers()
    res.headers.forEach((value, name) => {
      if (!BODY_HEADERS.has(name)) headers.append(name, value)
    })
    const raw = (err as { code?: unknown }).code
    const code = typeof raw === 'string' && SNAKE.test(raw) ? raw : codeForStatus(err.status)
    const body: ProblemBody = {
      type: typeBase ? typeBase + code : 'about:blank',
      title: TITLES[err.status] ?? `HTTP ${err.status}`,
      status: err.status,
      code,
    }
    if (err.message) body.detail = err.message
    const errors = fieldErrors((err as { errors?: unknown }).errors)
    if (errors) body.errors = errors
    return render(body, headers)
  }
  return describeMiddleware(handler, {
    rejectionBody: { mediaType: PROBLEM_JSON, schemaName: 'Problem', schema: PROBLEM_SCHEMA },
  })
}
