// The public types of the response check: its modes, what its hook receives, what a route
// declares and what the check of one route needs.
import type { Context, Handler, MiddlewareHandler } from 'hono'
import type { ConvertOptions } from '../schema/convert'
import type { JSONSchemaValidator } from './validator'

/**
 * What happens to a JSON body whose status has a declared schema:
 * - `'strip'` (default): properties the schema does not declare are removed, then the body is
 *   validated; a body that still fails is answered 500 `response_invalid`;
 * - `'strict'`: an undeclared property is itself a failure (500);
 * - `'report'`: the body is sent as built; failures and undeclared properties go to the hook;
 * - `'off'`: nothing is checked, not even the status.
 *
 * The body checked is what `JSON.stringify` would send (`toJSON` applied, class instances read by
 * their own enumerable properties). In `'strip'` and `'strict'` a JSON body under a status the
 * route does not declare is answered 500 `response_invalid` too.
 */
export type ResponseValidationMode = 'strip' | 'strict' | 'report' | 'off'

/** The response validation modes, for option checks. */
export const RESPONSE_VALIDATION_MODES: readonly ResponseValidationMode[] = [
  'strip',
  'strict',
  'report',
  'off',
]

/**
 * What the `onResponseValidationError` hook receives: a body that failed its declared schema
 * (`invalid_body`; also a stream or text sent under a status declared as JSON with a schema,
 * which is reported and sent), or a status the route does not declare (`undeclared_status`, reported in every
 * mode but `'off'`; a JSON answer under it is refused in `'strip'` and `'strict'`, anything else
 * is sent as it is).
 *
 * @example
 * const issue: ResponseValidationIssue = {
 *   kind: 'invalid_body', mode: 'strip', method: 'GET', path: '/users/:id', status: 200,
 *   errors: [{ path: '/email', message: 'Invalid email address' }],
 * }
 */
export interface ResponseValidationIssue {
  kind: 'invalid_body' | 'undeclared_status'
  /** The mode the route runs in. */
  mode: Exclude<ResponseValidationMode, 'off'>
  /** The request method (upper case) and the route path as registered. */
  method: string
  path: string
  status: number
  /**
   * What failed, by RFC 6901 JSON pointer into the body. Undeclared properties (failures in
   * `'strict'`, reported in `'report'`) have the message `'Undeclared property'`. Empty for an
   * undeclared status.
   */
  errors: { path: string; message: string }[]
}

/**
 * Called with every response validation issue; its return value is ignored (in `'strip'` and
 * `'strict'` the client gets the 500 `response_invalid` problem regardless). Log here: the
 * client is never told what failed.
 *
 * @example
 * const onResponseValidationError: ResponseValidationErrorHandler = (issue) => {
 *   console.error(`${issue.method} ${issue.path} ${issue.status}`, issue.errors)
 * }
 */
export type ResponseValidationErrorHandler = (
  issue: ResponseValidationIssue,
  // biome-ignore lint/suspicious/noExplicitAny: the hook sees the route's context, whatever its Env
  c: Context<any, any, any>,
) => void | Promise<void>

/** One declared response, as the route's `openapi.responses` holds it. */
export interface DeclaredResponse {
  schema?: unknown
  contentType?: string
}

/** What the response check of one route needs. */
export interface ResponseCheckOptions {
  mode: ResponseValidationMode
  /** The route path as registered (reported in issues). */
  path: string
  /** Statuses declared elsewhere for this operation (middleware answers, the validation 400). */
  alsoDeclared?: Iterable<number>
  jsonSchemaValidator?: JSONSchemaValidator | undefined
  converters?: ConvertOptions['converters']
  onResponseValidationError?: ResponseValidationErrorHandler | undefined
}

/** What checks the answers of one route: its handler's, and its route middleware's. */
export interface ResponseCheck {
  /** The handler, with its answers checked. */
  handler(handler: Handler): Handler
  /** A route middleware, with the answer it gives instead of calling `next()` checked. */
  middleware(middleware: MiddlewareHandler): MiddlewareHandler
}
