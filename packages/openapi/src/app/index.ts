export { openapi } from './openapi'
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
} from './types'
