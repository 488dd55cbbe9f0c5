export type {
  ProblemDetails,
  ValidationCode,
  ValidationIssue,
  ValidationLocation,
  ValidationProblem,
} from './problem'
export {
  PROBLEM_JSON,
  problemDetails,
  problemResponse,
  validationProblem,
  validationProblemSchema,
} from './problem'
export type {
  JSONSchemaValidator,
  RequestSchemas,
  RequestValidationOptions,
  ValidationErrorHandler,
} from './request'
export { requestValidator } from './request'
export type { StandardIssue, StandardResult, StandardSchemaV1 } from './standard'
export type { RequestInput, SchemaInput, SchemaOutput } from './types'
