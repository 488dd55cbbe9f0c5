/** The media type of RFC 9457 problem details. */
export const PROBLEM_JSON = 'application/problem+json'

/**
 * Where a validation issue was found: the request body, the query string, a path parameter or a
 * header (the `in` names of OpenAPI parameters, with `body` for the request body).
 */
export type ValidationLocation = 'body' | 'query' | 'path' | 'header'

/**
 * One problem with one part of the request.
 *
 * @example
 * const issue: ValidationIssue = { in: 'body', path: '/email', message: 'Invalid email address' }
 */
export interface ValidationIssue {
  in: ValidationLocation
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
 * Why `openapi()` rejected a request before the handler ran.
 * `malformed_body`: the body is not JSON / not a form; `validation_failed`: a schema rejected a
 * part of the request (also an empty body where one is required); `unsupported_media_type`: the
 * body is not in a media type the route accepts (status 415).
 */
export type ValidationCode = 'validation_failed' | 'malformed_body' | 'unsupported_media_type'

/**
 * The problem details of a rejected request: status 400 (415 for a media type the route does not
 * accept) with every issue found, across body, query, path and headers.
 *
 * @example
 * api.onError((err, c) => c.json({ message: err.message }, 500))
 * // a request failing validation never reaches onError; it gets, as application/problem+json:
 * const problem: ValidationProblem = {
 *   type: 'about:blank', title: 'Bad Request', status: 400, code: 'validation_failed',
 *   detail: 'The request did not match the documented schema',
 *   errors: [{ in: 'query', path: '/page', message: 'Expected number, received nan' }],
 * }
 */
export interface ValidationProblem extends ProblemDetails {
  status: 400 | 415
  code: ValidationCode
  errors: ValidationIssue[]
}

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

/**
 * Builds an RFC 9457 problem details object with `type: 'about:blank'` and the status's reason
 * phrase as `title` (which RFC 9457 asks for when the type is `about:blank`).
 *
 * @param status - HTTP status code (4xx or 5xx)
 * @param fields - `detail`, `code` and any extension members
 * @example
 * problemDetails(403, { code: 'ip_denied', detail: 'Your address is not allowed' })
 * // { type: 'about:blank', title: 'Forbidden', status: 403, code: 'ip_denied', detail: '…' }
 */
export function problemDetails(
  status: number,
  fields: Omit<ProblemDetails, 'type' | 'title' | 'status'> & { title?: string } = {},
): ProblemDetails {
  const { title, ...rest } = fields
  return { type: 'about:blank', title: title ?? TITLES[status] ?? 'Error', status, ...rest }
}

/**
 * A `Response` carrying `problem` as `application/problem+json`, with its status.
 *
 * @example
 * const res = problemResponse(problemDetails(404, { detail: 'No such pet' }))
 * res.headers.get('Content-Type') // 'application/problem+json'
 */
export function problemResponse(problem: ProblemDetails, headers?: HeadersInit): Response {
  const h = new Headers(headers)
  h.set('Content-Type', PROBLEM_JSON)
  return new Response(JSON.stringify(problem), { status: problem.status, headers: h })
}

const DETAILS: Readonly<Record<ValidationCode, string>> = {
  validation_failed: 'The request does not match the documented schema',
  malformed_body: 'The request body could not be parsed',
  unsupported_media_type: 'The request body is not in a media type this operation accepts',
}

/**
 * The `ValidationProblem` for `code` and `errors`.
 *
 * @example
 * validationProblem('validation_failed', [{ in: 'body', path: '/name', message: 'Required' }])
 */
export function validationProblem(
  code: ValidationCode,
  errors: ValidationIssue[],
): ValidationProblem {
  const status = code === 'unsupported_media_type' ? 415 : 400
  return {
    ...problemDetails(status, { detail: DETAILS[code], code }),
    status,
    code,
    errors,
  } as ValidationProblem
}

/**
 * The JSON Schema of `ValidationProblem`, documented once as a component and referenced by the
 * 400 response of every validated operation.
 */
export function validationProblemSchema(): Record<string, unknown> {
  return {
    title: 'ValidationProblem',
    description: 'RFC 9457 problem details listing every part of the request that was rejected.',
    type: 'object',
    properties: {
      type: { type: 'string', description: 'A URI reference identifying the problem type.' },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string' },
      instance: { type: 'string' },
      code: {
        type: 'string',
        enum: ['validation_failed', 'malformed_body', 'unsupported_media_type'],
      },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            in: { type: 'string', enum: ['body', 'query', 'path', 'header'] },
            path: { type: 'string', description: 'RFC 6901 JSON pointer into that part.' },
            message: { type: 'string' },
          },
          required: ['in', 'path', 'message'],
        },
      },
    },
    required: ['type', 'title', 'status', 'errors'],
  }
}
