// RFC 9457 problem details: the shapes, the builder and the status phrases are the ones
// @palisade/middleware's problemHandler() renders (one source, inlined into both packages).
import { VALIDATION_CODES } from '@palisade/shared/codes'
import {
  PROBLEM_JSON,
  PROBLEM_SCHEMA,
  type ProblemDetails,
  type ProblemFieldError,
  problemDetails,
} from '@palisade/shared/problem'

export { PROBLEM_JSON, type ProblemDetails, problemDetails }

/**
 * Where a validation issue was found: the request body, the query string, a path parameter or a
 * header (the `in` names of OpenAPI parameters, with `body` for the request body).
 */
export type ValidationLocation = ProblemFieldError['in']

/**
 * One problem with one part of the request.
 *
 * @example
 * const issue: ValidationIssue = { in: 'body', path: '/email', message: 'Invalid email address' }
 */
export type ValidationIssue = ProblemFieldError

/**
 * Why `openapi()` rejected a request before the handler ran.
 * `malformed_body`: the body is not JSON / not a form; `validation_failed`: a schema rejected a
 * part of the request (also an empty body where one is required); `unsupported_media_type`: the
 * body is not in a media type the route accepts (status 415).
 */
export type ValidationCode = (typeof VALIDATION_CODES)[number]

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
  body_too_deep: 'The request body nests deeper than this API accepts',
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
  const base = structuredClone(PROBLEM_SCHEMA) as { properties: Record<string, unknown> }
  return {
    title: 'ValidationProblem',
    description: 'RFC 9457 problem details listing every part of the request that was rejected.',
    type: 'object',
    examples: structuredClone(PROBLEM_SCHEMA.examples),
    properties: {
      ...base.properties,
      status: { type: 'integer', format: 'int32', minimum: 400, maximum: 599 },
      code: { type: 'string', enum: [...VALIDATION_CODES] },
    },
    required: ['type', 'title', 'status', 'code', 'errors'],
  }
}
