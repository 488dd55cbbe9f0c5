import type { MiddlewareHandler } from 'hono'
import type { RouteOpenAPIMeta } from '../model/route'
import { isRecord } from '../schema/common'
import type { ValidationErrorHandler } from '../validate/request'
import {
  RESPONSE_VALIDATION_MODES,
  type ResponseValidationErrorHandler,
  type ResponseValidationMode,
} from '../validate/response'

const ROUTE_OPTION_KEYS = [
  'middlewares',
  'openapi',
  'validate',
  'onValidationError',
  'responseValidation',
  'onResponseValidationError',
]

export interface NormalizedOpts {
  middlewares: MiddlewareHandler[]
  openapi: RouteOpenAPIMeta | undefined
  validate: boolean | undefined
  onValidationError: ValidationErrorHandler | undefined
  responseValidation: ResponseValidationMode | undefined
  onResponseValidationError: ResponseValidationErrorHandler | undefined
}

/** Checks a route method's `opts` argument: `RouteOptions` or an array of middleware. */
export function normalizeRouteOptions(opts: unknown, label: string): NormalizedOpts {
  const fail = (message: string): never => {
    throw new TypeError(`openapi: ${label}: ${message}`)
  }
  const out: NormalizedOpts = {
    middlewares: [],
    openapi: undefined,
    validate: undefined,
    onValidationError: undefined,
    responseValidation: undefined,
    onResponseValidationError: undefined,
  }
  if (opts === undefined) return out
  let middlewares: unknown = []
  if (Array.isArray(opts)) middlewares = opts
  else if (isRecord(opts)) {
    for (const key of Object.keys(opts)) {
      if (!ROUTE_OPTION_KEYS.includes(key))
        fail(`unknown route option "${key}" (known: ${ROUTE_OPTION_KEYS.join(', ')})`)
    }
    middlewares = opts.middlewares ?? []
    out.openapi = opts.openapi as RouteOpenAPIMeta | undefined
    if (opts.validate !== undefined && typeof opts.validate !== 'boolean')
      fail('validate must be a boolean')
    out.validate = opts.validate as boolean | undefined
    if (opts.onValidationError !== undefined && typeof opts.onValidationError !== 'function')
      fail('onValidationError must be a function')
    out.onValidationError = opts.onValidationError as ValidationErrorHandler | undefined
    const mode = opts.responseValidation
    if (mode !== undefined && !RESPONSE_VALIDATION_MODES.includes(mode as ResponseValidationMode))
      fail(`responseValidation must be one of ${RESPONSE_VALIDATION_MODES.join(', ')}`)
    out.responseValidation = mode as ResponseValidationMode | undefined
    const hook = opts.onResponseValidationError
    if (hook !== undefined && typeof hook !== 'function')
      fail('onResponseValidationError must be a function')
    out.onResponseValidationError = hook as ResponseValidationErrorHandler | undefined
  } else fail('opts must be RouteOptions or an array of middleware')
  if (!Array.isArray(middlewares) || !middlewares.every((m) => typeof m === 'function')) {
    fail('middlewares must be an array of middleware functions')
  }
  out.middlewares = middlewares as MiddlewareHandler[]
  return out
}
