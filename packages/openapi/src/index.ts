/**
 * @palisade/openapi — OpenAPI 3.1 documentation for Hono apps, generated from the routes and
 * the schemas they already use, and request validation from the same schemas. This file is the
 * one list of the public API.
 */

export type { BasePathOf, EnvOf, HonoApp } from './app/hono-types'
// `@palisade/openapi/spec` exports the same list, with a spec-only `openapi` and without the
// pages' HTML builders; src/spec/spec-entry.test.ts keeps the two lists in step.
export { openapi } from './app/openapi'
export type { RejectionProblem, UseRecord } from './app/rejection-types'
export type {
  OpenAPIApp,
  OpenAPIGroup,
  OpenAPIRouter,
  RouteMethodFn,
  RouterKind,
  RouterOf,
} from './app/router-types'
export type { SpecOnlyOptions } from './app/spec-only'
export { generateSpec } from './document/generate'
export type {
  OpenAPIDocument,
  OpenAPIHeader,
  OpenAPIInfo,
  OpenAPIMediaType,
  OpenAPIParameter,
  OpenAPIPathItem,
  OpenAPIRequestBody,
  OpenAPIResponse,
  OpenAPISecurityRequirement,
  OpenAPISecurityScheme,
  OpenAPIServer,
  OpenAPITag,
} from './model/document'
export { OPENAPI_VERSION } from './model/document'
export type { OpenAPIOptions, RouteOptions, RouteOptionsArg, SpecOptions } from './model/options'
export type {
  OpenAPIRequestMeta,
  OpenAPIResponseMeta,
  RouteMethod,
  RouteOpenAPIMeta,
  StoredRoute,
} from './model/route'
export type { ExplorerUIHTMLOptions, ReferenceHTMLOptions } from './pages'
export { createNonce, EXPLORER_CSP, explorerUIHTML, referenceCSP, referenceHTML } from './pages'
export type { ComponentSink, ConvertOptions, SchemaConverter } from './schema/convert'
export { toOpenAPISchema } from './schema/convert'
export { component } from './schema/names'
export type { OpenAPISchema, OpenAPISchemaType } from './schema/types'
export type {
  ProblemDetails,
  ValidationCode,
  ValidationIssue,
  ValidationLocation,
  ValidationProblem,
} from './validate/problem'
export {
  PROBLEM_JSON,
  problemDetails,
  problemResponse,
  validationProblem,
  validationProblemSchema,
} from './validate/problem'
export type { ValidationErrorHandler } from './validate/request'
export type {
  ResponseValidationErrorHandler,
  ResponseValidationIssue,
  ResponseValidationMode,
} from './validate/response'
export type { StandardIssue, StandardResult, StandardSchemaV1 } from './validate/standard'
export type { RequestInput, SchemaInput, SchemaOutput } from './validate/types'
export type { JSONSchemaValidator } from './validate/validator'
