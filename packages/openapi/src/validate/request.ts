import type { Context, MiddlewareHandler } from 'hono'
import { isRecord } from '../schema/common'
import { toOpenAPISchema } from '../schema/convert'
import type { OpenAPISchema } from '../schema/types'
import {
  problemResponse,
  type ValidationCode,
  type ValidationIssue,
  type ValidationLocation,
  type ValidationProblem,
  validationProblem,
} from './problem'
import { type StandardResult, toPointer, type ValidateFn, validatorOf } from './standard'

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

/**
 * Makes a validator for a raw JSON Schema (or a `toJSONSchema()`-only object), which cannot
 * validate by itself: given the schema as documented, returns a Standard-Schema-style `validate`.
 *
 * @example
 * // Usually an Ajv compile; this one only checks `required`.
 * const jsonSchemaValidator: JSONSchemaValidator = (schema) => (value) => {
 *   const missing = (schema.required ?? []).filter((k) => !(k in Object(value)))
 *   return missing.length === 0
 *     ? { value }
 *     : { issues: missing.map((k) => ({ message: 'Required', path: [k] })) }
 * }
 * const api = openapi(new Hono(), { info: { title: 'T', version: '1' }, jsonSchemaValidator })
 */
export type JSONSchemaValidator = (
  schema: OpenAPISchema,
) => (value: unknown) => StandardResult | Promise<StandardResult>

/** The request schemas a route documents (`openapi.request`). */
export interface RequestSchemas {
  body?: unknown
  form?: unknown
  query?: unknown
  params?: unknown
  headers?: unknown
}

/** What the validation middleware of one route needs besides its schemas. */
export interface RequestValidationOptions {
  jsonSchemaValidator?: JSONSchemaValidator | undefined
  /** Route hook, then the app-wide one. */
  onValidationError?: ValidationErrorHandler | undefined
}

type Target = 'json' | 'form' | 'query' | 'param' | 'header'

const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json$/
const FORM_MEDIA = new Set(['multipart/form-data', 'application/x-www-form-urlencoded'])

/** The validate function for `schema`: its own, or one from `jsonSchemaValidator`, or none. */
export function resolveValidator(
  schema: unknown,
  jsonSchemaValidator: JSONSchemaValidator | undefined,
): ValidateFn | undefined {
  if (schema === undefined) return undefined
  const own = validatorOf(schema)
  if (own || !jsonSchemaValidator) return own
  const validate = jsonSchemaValidator(toOpenAPISchema(schema))
  if (typeof validate !== 'function')
    throw new TypeError('openapi: jsonSchemaValidator must return a validate function')
  return validate
}

/** True when a route's request schemas will be enforced (documented with a 400 then). */
export function validatesAnything(
  request: RequestSchemas | undefined,
  jsonSchemaValidator: JSONSchemaValidator | undefined,
): boolean {
  if (!request) return false
  for (const key of ['body', 'form', 'query', 'params', 'headers'] as const) {
    const schema = request[key]
    if (schema === undefined) continue
    if (jsonSchemaValidator || validatorOf(schema)) return true
  }
  return false
}

/** Property names an object schema declares as arrays: their values are always lists. */
function arrayKeys(schema: unknown): Set<string> {
  const keys = new Set<string>()
  const visit = (s: OpenAPISchema) => {
    for (const part of s.allOf ?? []) visit(part)
    if (!isRecord(s.properties)) return
    for (const [key, prop] of Object.entries(s.properties)) {
      const types = [prop.type, ...(prop.anyOf ?? []).map((o) => o.type)].flat()
      if (types.includes('array')) keys.add(key)
    }
  }
  try {
    visit(toOpenAPISchema(schema))
  } catch {
    // not convertible: registration reports it when the document is built
  }
  return keys
}

function listify(values: Record<string, unknown>, arrays: Set<string>): Record<string, unknown> {
  for (const key of arrays) {
    const v = values[key]
    if (v !== undefined && !Array.isArray(v)) values[key] = [v]
  }
  return values
}

interface Part {
  target: Target
  where: ValidationLocation
  validate: ValidateFn
  read: (c: Context) => unknown
}

/** A request that failed before any schema ran (wrong media type, unparsable body). */
class Rejection {
  constructor(
    readonly code: ValidationCode,
    readonly message: string,
  ) {}
}

const mediaType = (c: Context): string => {
  const header = c.req.header('content-type')
  return header === undefined ? '' : (header.split(';')[0] as string).trim().toLowerCase()
}

async function readJSON(c: Context): Promise<unknown> {
  const media = mediaType(c)
  if (media !== '' && !JSON_MEDIA.test(media))
    return new Rejection('unsupported_media_type', `Expected application/json, got ${media}`)
  let text: string
  try {
    text = await c.req.text()
  } catch {
    return new Rejection('malformed_body', 'The request body could not be read')
  }
  if (text.trim() === '') return new Rejection('malformed_body', 'The request body is empty')
  if (media === '')
    return new Rejection('unsupported_media_type', 'Expected application/json, got no Content-Type')
  try {
    return JSON.parse(text)
  } catch {
    return new Rejection('malformed_body', 'The request body is not valid JSON')
  }
}

async function readForm(c: Context, arrays: Set<string>): Promise<unknown> {
  const media = mediaType(c)
  if (media !== '' && !FORM_MEDIA.has(media))
    return new Rejection(
      'unsupported_media_type',
      `Expected multipart/form-data or application/x-www-form-urlencoded, got ${media}`,
    )
  if (media === '') {
    const text = await c.req.text().catch(() => '')
    if (text !== '')
      return new Rejection(
        'unsupported_media_type',
        'Expected multipart/form-data or application/x-www-form-urlencoded, got no Content-Type',
      )
    return {}
  }
  try {
    const form = await c.req.parseBody({ all: true })
    return listify({ ...form }, arrays)
  } catch {
    return new Rejection('malformed_body', 'The request body is not a valid form')
  }
}

function readQuery(c: Context, arrays: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, values] of Object.entries(c.req.queries())) {
    out[key] = arrays.has(key) || values.length > 1 ? values : values[0]
  }
  return out
}

function headerReader(schema: unknown): (c: Context) => Record<string, unknown> {
  // Hono gives lower-case names; a schema may spell them `X-Api-Key`.
  let declared: string[] = []
  try {
    const s = toOpenAPISchema(schema)
    declared = isRecord(s.properties) ? Object.keys(s.properties) : []
  } catch {
    declared = []
  }
  const renamed = declared.filter((name) => name !== name.toLowerCase())
  return (c) => {
    const all: Record<string, unknown> = c.req.header()
    for (const name of renamed) {
      const lower = name.toLowerCase()
      if (lower in all) {
        all[name] = all[lower]
        delete all[lower]
      }
    }
    return all
  }
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

  const reject = async (c: Context, problem: ValidationProblem) => {
    if (hook) {
      const res = await hook(problem, c)
      if (res instanceof Response) return res
    }
    return problemResponse(problem)
  }

  return async function validateRequest(c, next) {
    let bodyValue: unknown
    if (body) {
      bodyValue = await body(c)
      if (bodyValue instanceof Rejection) {
        return reject(
          c,
          validationProblem(bodyValue.code, [{ in: 'body', path: '', message: bodyValue.message }]),
        )
      }
    }
    let errors: ValidationIssue[] | undefined
    const results: unknown[] = []
    for (const part of parts) {
      const input = part === bodyTarget ? bodyValue : part.read(c)
      let r = part.validate(input)
      if (typeof (r as Promise<StandardResult>).then === 'function') r = await r
      const { issues } = r as StandardResult
      if (issues) {
        errors ??= []
        for (const issue of issues)
          errors.push({ in: part.where, path: toPointer(issue.path), message: issue.message })
        if (issues.length === 0) errors.push({ in: part.where, path: '', message: 'Invalid value' })
      } else results.push((r as { value: unknown }).value)
    }
    if (errors) return reject(c, validationProblem('validation_failed', errors))
    for (let i = 0; i < parts.length; i++) {
      c.req.addValidatedData((parts[i] as Part).target, results[i] as object)
    }
    await next()
  }
}
