export { generateSpec, RouteIndex } from './generate'
export type {
  OpenAPIDocument,
  OpenAPIInfo,
  OpenAPIMediaType,
  OpenAPIParameter,
  OpenAPIPathItem,
  OpenAPIRequestBody,
  OpenAPIRequestMeta,
  OpenAPIResponse,
  OpenAPIResponseMeta,
  OpenAPIServer,
  OpenAPITag,
  RouteMethod,
  RouteOpenAPIMeta,
  SpecOptions,
  StoredRoute,
} from './types'
