// @palisade/shared: the one source of what @palisade/middleware and @palisade/openapi share.
// Private: both packages inline it at build time (tsup `noExternal`, declarations included), so
// neither published package imports it, or the other package, at run time.
export { CODE_PATTERN, type RejectionCode, VALIDATION_CODES } from './codes'
export {
  type DescribedHeader,
  type DescribedResponse,
  type DescribedScheme,
  describeMiddleware,
  getMiddlewareDescription,
  type MiddlewareDescription,
  OPENAPI_DESCRIPTION,
  type SecuritySchemeObject,
} from './describe'
export { escapeHtml, jsonForScript } from './html'
export {
  PROBLEM_JSON,
  PROBLEM_SCHEMA,
  type ProblemBody,
  type ProblemDetails,
  type ProblemFieldError,
  problemDetails,
  STATUS_PHRASES,
} from './problem'
export { MEDIA_RANGE, MEDIA_TYPE, TOKEN } from './token'
