// `links` from one of a route's responses to the next call (OpenAPI 3.1 §4.8.20). A route's
// `callbacks` (§4.8.18) are requests the app sends, typed beside webhooks (webhook.ts).

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
