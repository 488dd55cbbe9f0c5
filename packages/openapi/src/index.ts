/**
 * @palisade/openapi — OpenAPI 3.1 documentation for Hono apps, generated from the routes and
 * the schemas they already use.
 */

export type {
  OpenAPIApp,
  OpenAPIGroup,
  OpenAPIOptions,
  OpenAPIRouter,
  RouteMethodFn,
  RouteOptions,
  RouteOptionsArg,
  RouterKind,
  RouterOf,
} from './app'
export { openapi } from './app'
export type { ExplorerUIHTMLOptions, ReferenceHTMLOptions } from './pages'
export { createNonce, EXPLORER_CSP, explorerUIHTML, referenceCSP, referenceHTML } from './pages'
export type {
  ComponentSink,
  ConvertOptions,
  OpenAPISchema,
  OpenAPISchemaType,
  SchemaConverter,
} from './schema'
export { component, toOpenAPISchema } from './schema'
export type {
  OpenAPIDocument,
  OpenAPIHeader,
  OpenAPIInfo,
  OpenAPIMediaType,
  OpenAPIParameter,
  OpenAPIPathItem,
  OpenAPIRequestBody,
  OpenAPIRequestMeta,
  OpenAPIResponse,
  OpenAPIResponseMeta,
  OpenAPISecurityRequirement,
  OpenAPISecurityScheme,
  OpenAPIServer,
  OpenAPITag,
  RouteMethod,
  RouteOpenAPIMeta,
  SpecOptions,
  StoredRoute,
} from './spec'
export { generateSpec } from './spec'
export type {
  JSONSchemaValidator,
  ProblemDetails,
  RequestInput,
  SchemaInput,
  SchemaOutput,
  StandardIssue,
  StandardResult,
  StandardSchemaV1,
  ValidationCode,
  ValidationErrorHandler,
  ValidationIssue,
  ValidationLocation,
  ValidationProblem,
} from './validate'
export {
  PROBLEM_JSON,
  problemDetails,
  problemResponse,
  validationProblem,
  validationProblemSchema,
} from './validate'

/**
 * The OpenAPI version every generated document declares.
 *
 * @example
 * const doc = api.spec()
 * doc.openapi === OPENAPI_VERSION // '3.1.0'
 */
export const OPENAPI_VERSION = '3.1.0' as const
