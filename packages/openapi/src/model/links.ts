// What a route declares about the operations around it: `links` from one of its responses to
// the next call (OpenAPI 3.1 §4.8.20), and `callbacks` the app sends while handling it (§4.8.18).
import type { WebhookMeta } from './webhook'

/**
 * A link from a response to an operation the client can call next with values from this
 * exchange: `palisade fuzz` follows it (stateful fuzzing). Parameter values are runtime
 * expressions (`$response.body#/id`, `$request.path.id`, `$response.header.Location`, `$url`,
 * `$method`, `$statusCode`, or a string with `{…}` around them), or constants.
 *
 * @example
 * const links: Record<string, OpenAPILinkMeta> = {
 *   GetComment: { operationId: 'getComment', parameters: { id: '$response.body#/id' } },
 * }
 * api.post('/comments', create, { openapi: { responses: { 201: { description: 'Created', links } } } })
 */
export interface OpenAPILinkMeta {
  /**
   * The target's operationId; checked when the document is built: an operationId no operation
   * has throws. Exactly one of `operationId` and `operationRef`.
   */
  operationId?: string
  /** A reference to the target operation (`#/paths/~1comments~1{id}/get`); local ones are checked. */
  operationRef?: string
  /** Target parameters by name (`id`, or `path.id` where names collide): expressions or constants. */
  parameters?: Record<string, unknown>
  /** The target's request body: an expression or a constant. */
  requestBody?: unknown
  description?: string
}

/**
 * One request a callback sends: the same fields as a webhook the app sends (`api.webhook()`),
 * schemas given and converted the same way.
 *
 * @example
 * const onApproved: CallbackMeta = {
 *   payload: z.object({ comment: z.string(), approved: z.boolean() }),
 *   signature: 'standardWebhooks',
 * }
 */
export type CallbackMeta = WebhookMeta

/**
 * A route's callbacks: by name, then by the URL they are sent to, a runtime expression
 * (`{$request.body#/callbackUrl}`) read from the request that registered them.
 *
 * @example
 * const callbacks: OpenAPICallbacks = {
 *   commentApproved: { '{$request.body#/callbackUrl}': { payload: z.object({ id: z.string() }) } },
 * }
 * api.post('/comments', create, { openapi: { callbacks } })
 */
export type OpenAPICallbacks = Record<string, Record<string, CallbackMeta>>
