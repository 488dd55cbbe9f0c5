// RFC 9457 problem details: the one body both packages answer rejections with, the one schema
// that documents it, and the one table of status phrases its `title` comes from.
import { CODE_PATTERN } from './codes'

/** The media type of RFC 9457 problem details. */
export const PROBLEM_JSON = 'application/problem+json'

/**
 * The RFC 9110 (§15) reason phrase of each error status either package names: the `title` of a
 * problem whose type is `about:blank` (RFC 9457 §4.2.1). 413 is "Content Too Large" and 422
 * "Unprocessable Content", as RFC 9110 renamed them.
 */
export const STATUS_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

/** The phrases of the success and redirect statuses a document describes (RFC 9110 §15). */
const OTHER_PHRASES: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
}

/**
 * The RFC 9110 reason phrase of `status`, or `undefined` for one neither package names: the
 * description of a documented response that has none.
 *
 * @example
 * statusPhrase(413) // 'Content Too Large'
 */
export function statusPhrase(status: number): string | undefined {
  return STATUS_PHRASES[status] ?? OTHER_PHRASES[status]
}

/**
 * One field-level failure of request validation (the openapi package's validation failures).
 *
 * @example
 * const e: ProblemFieldError = { in: 'body', path: '/email', message: 'Invalid email' }
 */
export interface ProblemFieldError {
  in: 'body' | 'query' | 'path' | 'header'
  /** RFC 6901 JSON pointer into that part (`/items/0/name`); `''` for the part as a whole. */
  path: string
  message: string
}

/**
 * An RFC 9457 problem details object. `code` is a stable snake_case identity of the rejection
 * (an extension member, as RFC 9457 allows).
 *
 * @example
 * const problem: ProblemDetails = { type: 'about:blank', title: 'Forbidden', status: 403 }
 */
export interface ProblemDetails {
  type: string
  title: string
  status: number
  detail?: string
  instance?: string
  code?: string
  [extension: string]: unknown
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
 * Builds an RFC 9457 problem details object: `type` defaults to `'about:blank'` and `title` to
 * the status's reason phrase (which RFC 9457 asks for when the type is `about:blank`; `HTTP 499`
 * for a status without one).
 *
 * @param status - HTTP status code (4xx or 5xx)
 * @param fields - `detail`, `code` and any extension members; `type` and `title` to override
 * @example
 * problemDetails(403, { code: 'ip_denied', detail: 'Your address is not allowed' })
 * // { type: 'about:blank', title: 'Forbidden', status: 403, code: 'ip_denied', detail: '…' }
 */
export function problemDetails(
  status: number,
  fields: Omit<ProblemDetails, 'type' | 'title' | 'status'> & {
    type?: string
    title?: string
  } = {},
): ProblemDetails {
  const { type, title, ...rest } = fields
  return {
    type: type ?? 'about:blank',
    title: title ?? STATUS_PHRASES[status] ?? `HTTP ${status}`,
    status,
    ...rest,
  }
}

/**
 * Most field errors one problem lists: a body of many bad items would otherwise give a response
 * many times its size. The `detail` says when more were found.
 */
export const MAX_FIELD_ERRORS = 100

/** JSON Schema of one {@link ProblemFieldError}. */
const FIELD_ERROR_SCHEMA = {
  type: 'object',
  properties: {
    in: { type: 'string', enum: ['body', 'query', 'path', 'header'] },
    path: { type: 'string', description: 'RFC 6901 JSON pointer into that part' },
    message: { type: 'string' },
  },
  required: ['in', 'path', 'message'],
}

/**
 * What a problem looks like, as the schemas show it: a request validation failure (otherwise a
 * viewer makes one up from the schema, `"status": 100` and a random `code`).
 */
export const PROBLEM_EXAMPLE: Readonly<ProblemBody> = {
  type: 'about:blank',
  title: 'Bad Request',
  status: 400,
  detail: 'The request does not match the documented schema',
  code: 'validation_failed',
  errors: [{ in: 'body', path: '/email', message: 'Invalid email address' }],
}

/** JSON Schema of {@link ProblemBody}: what the document shows for every rejection. */
export const PROBLEM_SCHEMA: Readonly<Record<string, unknown>> = {
  type: 'object',
  description: 'RFC 9457 problem details',
  examples: [PROBLEM_EXAMPLE],
  properties: {
    type: { type: 'string', description: 'A URI identifying the problem type' },
    title: { type: 'string', description: 'The HTTP status phrase' },
    status: { type: 'integer', format: 'int32', minimum: 100, maximum: 599 },
    detail: { type: 'string', description: 'What went wrong, for a human' },
    code: {
      type: 'string',
      pattern: CODE_PATTERN,
      description: 'Stable machine code, e.g. `rate_limited`',
    },
    errors: {
      type: 'array',
      description: `Field errors of a validation failure (at most ${MAX_FIELD_ERRORS}; the detail says when more were found)`,
      maxItems: MAX_FIELD_ERRORS,
      items: FIELD_ERROR_SCHEMA,
    },
  },
  required: ['type', 'title', 'status', 'code'],
}
