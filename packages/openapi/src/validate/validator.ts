// Which validator checks a request schema: the schema's own (Standard Schema, older zod), or one
// made by the app's `jsonSchemaValidator` for raw JSON Schema, or none (documentation only).
import { toOpenAPISchema } from '../schema/convert'
import type { OpenAPISchema } from '../schema/types'
import { type StandardResult, type ValidateFn, validatorOf } from './standard'

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
