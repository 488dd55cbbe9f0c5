/**
 * The self-description protocol: what a middleware adds to the OpenAPI operation of every route
 * it runs for. It is plain data under a registered symbol, so `@palisade/openapi` (or any other
 * generator) reads it without importing `@palisade/middleware`, and the middleware never imports a
 * generator. Both packages inline this file at build time; the symbol being registered
 * (`Symbol.for`) is what makes their two copies one key.
 */

import type { Env, Input, MiddlewareHandler } from 'hono'

/**
 * The key under which a middleware (or an error handler) carries its {@link MiddlewareDescription}.
 * A registered symbol: `Symbol.for('palisade.openapi.describe')` is the same value in every
 * package, bundle and realm, so reader and writer need no shared import.
 *
 * @example
 * const description: unknown = Reflect.get(rateLimit(), OPENAPI_DESCRIPTION)
 */
export const OPENAPI_DESCRIPTION: unique symbol = Symbol.for('palisade.openapi.describe')

/**
 * An OpenAPI 3.1 Security Scheme Object (the common kinds spelled out; others pass through).
 *
 * @example
 * const bearer: SecuritySchemeObject = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }
 */
export type SecuritySchemeObject =
  | { type: 'http'; scheme: string; bearerFormat?: string; description?: string }
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string; description?: string }
  | { type: 'oauth2'; flows: Record<string, unknown>; description?: string }
  | { type: 'openIdConnect'; openIdConnectUrl: string; description?: string }
  | { type: 'mutualTLS'; description?: string }

/**
 * One security scheme a middleware requires. `name` is a readable hint: the generator keeps it
 * when every middleware using it describes the same scheme, and numbers it (`apiKeyHeader2`) when
 * two describe different ones.
 *
 * @example
 * const scheme: DescribedScheme = {
 *   name: 'bearerAuth',
 *   scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
 * }
 */
export interface DescribedScheme {
  name: string
  scheme: SecuritySchemeObject
  /** OAuth2 / OpenID Connect scopes the requirement lists. Default `[]`. */
  scopes?: string[]
}

/**
 * A response header, as the generator documents it.
 *
 * @example
 * const header: DescribedHeader = {
 *   name: 'Retry-After',
 *   description: 'Seconds until a retry can succeed',
 *   schema: { type: 'integer' },
 * }
 */
export interface DescribedHeader {
  name: string
  description: string
  /** JSON Schema of the value. Default `{ type: 'string' }`. */
  schema?: { type: 'string' | 'integer' | 'number' | 'boolean'; [keyword: string]: unknown }
  /**
   * `'success'` (default): on the responses the middleware lets through (2xx, 3xx);
   * `'passed'`: those, and every answer of what runs after it (the handler's, the validation's,
   * later middleware's rejections, the 500), because the header is set before the request goes on;
   * `'always'`: on every response of the operation, rejections included.
   */
  on?: 'success' | 'passed' | 'always'
}

/**
 * A request header a middleware reads, documented as a header parameter of the operation.
 *
 * @example
 * const key: DescribedRequestHeader = {
 *   name: 'Idempotency-Key',
 *   description: 'A unique key per operation',
 *   required: false,
 *   schema: { type: 'string', maxLength: 257 },
 * }
 */
export interface DescribedRequestHeader {
  name: string
  description: string
  /** Whether a request without it is refused. Default `false`. */
  required?: boolean
  /** JSON Schema of the value. Default `{ type: 'string' }`. */
  schema?: { type: 'string' | 'integer' | 'number' | 'boolean'; [keyword: string]: unknown }
}

/**
 * A response the middleware itself can answer with.
 *
 * Without `content` it is a rejection: Hono's `HTTPException` whose body is the message as
 * `text/plain`, or whatever the app's described error handler renders (with
 * `problemHandler()`, `application/problem+json` carrying `code`).
 *
 * @example
 * const tooMany: DescribedResponse = {
 *   status: 429,
 *   description: 'Too many requests',
 *   codes: ['rate_limited'],
 *   headers: [{ name: 'Retry-After', description: 'Seconds to wait', schema: { type: 'integer' } }],
 * }
 */
export interface DescribedResponse {
  status: number
  description: string
  /** The stable machine codes (`Rejection.code`) this response can carry. */
  codes?: string[]
  headers?: DescribedHeader[]
  /** A body of the middleware's own, by media type (JSON Schema in `schema`). */
  content?: Record<string, { schema?: Record<string, unknown> }>
}

/**
 * What a middleware adds to every operation it runs for. Every field is optional.
 *
 * @example
 * const description: MiddlewareDescription = {
 *   security: [[{ name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer' } }]],
 *   responses: [{ status: 401, description: 'Missing or invalid token', codes: ['token_invalid'] }],
 * }
 */
export interface MiddlewareDescription {
  /**
   * Which middleware this is, by its factory name (`'rateLimit'`, `'csrf'`, …), for tools that
   * audit an app from its descriptions (`@palisade/openapi/audit`). Adds nothing to a document.
   */
  middleware?: string
  /**
   * `true` when a cookie alone can authenticate the request (sessions, jwtAuth's `cookie`), so
   * unsafe methods behind it need CSRF protection. Adds nothing to a document.
   */
  cookieAuth?: boolean
  /** Applies only to operations with these methods (upper case). Default: every method. */
  methods?: string[]
  /**
   * Security requirement alternatives: a client satisfies any one of them, and every scheme
   * inside one alternative together. `[[a], [b]]` means "a or b"; `[[a, b]]` "a and b".
   */
  security?: DescribedScheme[][]
  /** Responses the middleware answers itself. */
  responses?: DescribedResponse[]
  /** Headers the middleware sets on responses. */
  headers?: DescribedHeader[]
  /** The request body must have one of these media types (`type/*` allowed). */
  requestMediaTypes?: string[]
  /**
   * Request headers the middleware reads (`Idempotency-Key`): header parameters of the
   * operation, unless the route declares a header of that name itself.
   */
  requestHeaders?: DescribedRequestHeader[]
  /**
   * For an error handler: the body it gives every rejection, so the document can show it
   * instead of `text/plain`. `schemaName` names the component.
   */
  rejectionBody?: { mediaType: string; schemaName: string; schema: Record<string, unknown> }
}

/**
 * Rejection codes by status, as a type: `{ 429: 'rate_limited' }`. What {@link Rejects} carries.
 *
 * @example
 * const rateLimited: RejectionCodes = { 429: 'rate_limited' }
 */
export type RejectionCodes = { readonly [status: number]: string }

/**
 * The type-level side of a description: a middleware typed `MiddlewareHandler & Rejects<C>`
 * can answer the statuses of `C` with those codes, so a generator can type a route's client
 * responses (`@palisade/openapi` does, for `hc<AppType>`). A phantom: the property is never set
 * at run time, and its string key (not a symbol) keeps two inlined copies of this type one.
 *
 * @example
 * // rateLimit() is typed MiddlewareHandler & Rejects<{ 429: 'rate_limited' }>
 * const limited: Rejects<{ 429: 'rate_limited' }> = rateLimit({ max: 100 })
 */
export interface Rejects<C extends RejectionCodes> {
  /** Phantom, for the type checker only; never present at run time. */
  readonly '~rejects'?: C
}

/**
 * The type-level mark of an error handler that renders every rejection as problem details
 * (`problemHandler()`): a phantom, like {@link Rejects}.
 *
 * @example
 * const handler: RendersProblems = problemHandler()
 */
export interface RendersProblems {
  /** Phantom, for the type checker only; never present at run time. */
  readonly '~rejectionBody'?: 'problem'
}

/**
 * Attaches `description` to `handler` (a middleware or an error handler) and returns the same
 * function. The description is frozen and stored non-enumerable under
 * {@link OPENAPI_DESCRIPTION}; a second call replaces it.
 *
 * @param handler - the function to describe (returned as-is, same identity)
 * @param description - what it adds to every operation it runs for
 * @example
 * ```ts
 * const requireTenant = describeMiddleware(
 *   async (c, next) => {
 *     if (!c.req.header('x-tenant')) return c.text('Tenant required', 400)
 *     await next()
 *   },
 *   {
 *     security: [[{ name: 'tenant', scheme: { type: 'apiKey', in: 'header', name: 'X-Tenant' } }]],
 *     responses: [{ status: 400, description: 'No tenant header' }],
 *   },
 * )
 * app.use('/api/*', requireTenant)
 * ```
 */
export function describeMiddleware<
  // biome-ignore lint/suspicious/noExplicitAny: Hono's own default: any Env
  E extends Env = any,
  P extends string = string,
  // biome-ignore lint/complexity/noBannedTypes: Hono's own default Input
  I extends Input = {},
>(
  handler: MiddlewareHandler<E, P, I>,
  description: MiddlewareDescription,
): MiddlewareHandler<E, P, I>
export function describeMiddleware<F extends (...args: never[]) => unknown>(
  handler: F,
  description: MiddlewareDescription,
): F
export function describeMiddleware(
  handler: (...args: never[]) => unknown,
  description: MiddlewareDescription,
): unknown {
  if (typeof handler !== 'function') {
    throw new TypeError('describeMiddleware: the first argument must be a function')
  }
  if (description === null || typeof description !== 'object') {
    throw new TypeError('describeMiddleware: the description must be an object')
  }
  let copy: MiddlewareDescription
  try {
    copy = structuredClone(description)
  } catch {
    throw new TypeError('describeMiddleware: the description must be plain data (no functions)')
  }
  Object.defineProperty(handler, OPENAPI_DESCRIPTION, {
    value: deepFreeze(copy),
    configurable: true,
    enumerable: false,
    writable: false,
  })
  return handler
}

/**
 * The description `handler` carries, or `undefined`.
 *
 * @example
 * getMiddlewareDescription(bodyLimit({ max: 1024 }))?.responses?.[0]?.status // 413
 */
export function getMiddlewareDescription(handler: unknown): MiddlewareDescription | undefined {
  if (typeof handler !== 'function') return undefined
  const value = (handler as unknown as Record<symbol, unknown>)[OPENAPI_DESCRIPTION]
  return value !== null && typeof value === 'object' ? (value as MiddlewareDescription) : undefined
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}
