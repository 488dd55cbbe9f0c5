/**
 * The public API both entries export, written once. The root entry (`@palisade/openapi`,
 * src/index.ts) re-exports it and adds its `openapi()` and the pages' HTML builders; the spec
 * entry (`@palisade/openapi/spec`, ./index.ts) re-exports it and adds the spec-only `openapi()`.
 * A new export goes here, unless it belongs to the pages: then it goes to src/index.ts alone.
 * Nothing here may import pages/: the spec entry reaches this module, and the
 * `openapi-spec-entry-without-pages` rule of .dependency-cruiser.cjs checks it.
 */

export type { BasePathOf, EnvOf, HonoApp } from '../app/hono-types'
export type { RejectionProblem, UseRecord } from '../app/rejection-types'
export type {
  OpenAPIApp,
  OpenAPIGroup,
  OpenAPIRouter,
  RouteMethodFn,
  RouterKind,
  RouterOf,
} from '../app/router-types'
export type { SpecOnlyOptions } from '../app/spec-only'
export { generateSpec } from '../document/generate'
export type {
  OpenAPIDocument,
  OpenAPIHeader,
  OpenAPIInfo,
  OpenAPILink,
  OpenAPIMediaType,
  OpenAPIParameter,
  OpenAPIPathItem,
  OpenAPIRequestBody,
  OpenAPIResponse,
  OpenAPISecurityRequirement,
  OpenAPISecurityScheme,
  OpenAPIServer,
  OpenAPITag,
} from '../model/document'
export { OPENAPI_VERSION } from '../model/document'
export type { OpenAPILinkMeta } from '../model/links'
export type { OpenAPIOptions, RouteOptions, RouteOptionsArg, SpecOptions } from '../model/options'
export type {
  OpenAPIDeprecation,
  OpenAPIRequestMeta,
  OpenAPIResponseMeta,
  RouteMethod,
  RouteOpenAPIMeta,
  StoredRoute,
} from '../model/route'
export type {
  CallbackMeta,
  OpenAPICallbacks,
  StoredWebhook,
  WebhookMeta,
  WebhookSignature,
} from '../model/webhook'
export type { ComponentSink, ConvertOptions, SchemaConverter } from '../schema/convert'
export { toOpenAPISchema } from '../schema/convert'
export { component } from '../schema/names'
export type { OpenAPISchema, OpenAPISchemaType } from '../schema/types'
export type {
  ProblemDetails,
  ValidationCode,
  ValidationIssue,
  ValidationLocation,
  ValidationProblem,
} from '../validate/problem'
export {
  PROBLEM_JSON,
  problemDetails,
  problemResponse,
  validationProblem,
  validationProblemSchema,
} from '../validate/problem'
export type { ValidationErrorHandler } from '../validate/request'
export type {
  ResponseValidationErrorHandler,
  ResponseValidationIssue,
  ResponseValidationMode,
} from '../validate/response'
export type { StandardIssue, StandardResult, StandardSchemaV1 } from '../validate/standard'
export type { RequestInput, SchemaInput, SchemaOutput } from '../validate/types'
export type { JSONSchemaValidator } from '../validate/validator'
