import { MAX_FIELD_ERRORS } from '@palisade/shared/problem'
import type { Context, MiddlewareHandler } from 'hono'
import {
  problemResponse,
  type ValidationIssue,
  type ValidationLocation,
  type ValidationProblem,
  validationProblem,
} from './problem'
import { arrayKeys, headerReader, readForm, readJSON, readQuery, UnreadableBody } from './read'
import { type StandardResult, toPointer, type ValidateFn } from './standard'
import { type JSONSchemaValidator, type RequestSchemas, resolveValidator } from './validator'

/**
 * Reshapes a rejected request: return a `Response` to send it instead of the default
 * `application/problem+json` one, or nothing to keep the default.
 *
 * @example
 * const onValidationError: ValidationErrorHandler = (problem, c) =>
 *   c.json({ message: problem.errors.map((e) => `${e.in}${e.path}: ${e.message}`).join('; ') }, 422)
 */
export type ValidationErrorHandler = (
  problem: ValidationProblem,
  // biome-ignore lint/suspicious/noExplicitAny: the hook sees the route's context, whatever its Env
  c: Context<any, any, any>,
) => // biome-ignore lint/suspicious/noConfusingVoidType: hooks written as `() => {}` return void
Response | undefined | void | Promise<Response | undefined | void>

/** What the validation middleware of one route needs besides its schemas. */
export interface RequestValidationOptions {
  jsonSchemaValidator?: JSONSchemaValidator | undefined
  /** Route hook, then the app-wide one. */
  onValidationError?: ValidationErrorHandler | undefined
}

type Target = 'json' | 'form' | 'query' | 'param' | 'header'

interface Part {
  target: Target
  where: ValidationLocation
  validate: ValidateFn
  read: (c: Context) => unknown
}

/**
 * The middleware that validates a route's request against its schemas before the handler, or
 * undefined when none of them can validate. Values that pass are stored for `c.req.valid(target)`
 * (Hono's own store); the first failure answers with a `ValidationProblem` listing every issue.
 */
export function requestValidator(
  request: RequestSchemas | undefined,
  options: RequestValidationOptions,
): MiddlewareHandler | undefined {
  if (!request) return undefined
  const parts: Part[] = []
  let body: ((c: Context) => Promise<unknown>) | undefined
  const add = (
    schema: unknown,
    target: Target,
    where: ValidationLocation,
    read: (c: Context) => unknown,
  ) => {
    const validate = resolveValidator(schema, options.jsonSchemaValidator)
    if (validate) parts.push({ target, where, validate, read })
    return validate !== undefined
  }
  if (request.params !== undefined) add(request.params, 'param', 'path', (c) => c.req.param())
  if (request.query !== undefined) {
    const arrays = arrayKeys(request.query)
    add(request.query, 'query', 'query', (c) => readQuery(c, arrays))
  }
  if (request.headers !== undefined)
    add(request.headers, 'header', 'header', headerReader(request.headers))
  // Bodies are read first (a wrong media type ends the request before any schema runs).
  let bodyTarget: Part | undefined
  if (request.body !== undefined && add(request.body, 'json', 'body', () => undefined)) {
    bodyTarget = parts.at(-1)
    body = readJSON
  } else if (request.form !== undefined && add(request.form, 'form', 'body', () => undefined)) {
    bodyTarget = parts.at(-1)
    const arrays = arrayKeys(request.form)
    body = (c) => readForm(c, arrays)
  }
  if (parts.length === 0) return undefined
  const hook = options.onValidationError

  const reject = async (
    c: Context,
    problem: ValidationProblem,
    headers?: Record<string, string>,
  ) => {
    if (hook) {
      const res = await hook(problem, c)
      if (res instanceof Response) return res
    }
    return problemResponse(problem, headers)
  }

  return async function validateRequest(c, next) {
    let bodyValue: unknown
    if (body) {
      bodyValue = await body(c)
      if (bodyValue instanceof UnreadableBody) {
        return reject(
          c,
          validationProblem(bodyValue.code, [{ in: 'body', path: '', message: bodyValue.message }]),
          bodyValue.headers,
        )
      }
    }
    let errors: ValidationIssue[] | undefined
    let found = 0
    const results: unknown[] = []
    for (const part of parts) {
      const input = part === bodyTarget ? bodyValue : part.read(c)
      let r = part.validate(input)
      if (typeof (r as Promise<StandardResult>).then === 'function') r = await r
      const { issues } = r as StandardResult
      if (issues) {
        errors ??= []
        // Listed up to MAX_FIELD_ERRORS: 0.8 MB of bad items would give a 20 MB answer.
        const listed = issues.length > 0 ? issues : [{ path: undefined, message: 'Invalid value' }]
        for (const issue of listed) {
          found++
          if (errors.length < MAX_FIELD_ERRORS) {
            errors.push({ in: part.where, path: toPointer(issue.path), message: issue.message })
          }
        }
      } else results.push((r as { value: unknown }).value)
    }
    if (errors) {
      const problem = validationProblem('validation_failed', errors)
      if (found > errors.length) {
        problem.detail = `${problem.detail} (the first ${errors.length} of ${found} issues are listed)`
      }
      return reject(c, problem)
    }
    for (let i = 0; i < parts.length; i++) {
      c.req.addValidatedData((parts[i] as Part).target, results[i] as object)
    }
    await next()
  }
}
