export {
  type DescribedHeader,
  type DescribedRequestHeader,
  type DescribedResponse,
  type DescribedScheme,
  describeMiddleware,
  getMiddlewareDescription,
  type MiddlewareDescription,
  OPENAPI_DESCRIPTION,
  type RejectionCodes,
  type Rejects,
  type RendersProblems,
  type SecuritySchemeObject,
} from '@palisade/shared/describe'
export * from './api-key'
export * from './body-limit'
export * from './bot-guard'
export * from './client-ip'
export * from './concurrency-limit'
export * from './content-type-guard'
export * from './cors'
export * from './csrf'
export * from './http-signature'
export * from './idempotency'
export { codeForStatus, Rejection, type RejectionCode } from './internal/outcomes/rejection'
export * from './ip-guard'
export * from './jwt-auth'
export * from './load-shed'
export * from './logger'
export { type ProblemNotFoundOptions, problemNotFound } from './problem-details/not-found'
export {
  PROBLEM_SCHEMA,
  type ProblemBody,
  type ProblemFieldError,
  type ProblemHandlerOptions,
  problemHandler,
} from './problem-details/problem-details'
export * from './quota'
export * from './rate-limit'
export * from './request-id'
export * from './request-timeout'
export * from './security-headers'
export * from './sessions'
export * from './shield'
export * from './ssrf-guard'
export * from './webhook'
export * from './xss-sanitize'
