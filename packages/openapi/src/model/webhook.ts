// A webhook the app sends (`api.webhook(name, meta)`): documented under the document's top-level
// `webhooks` (OpenAPI 3.1 §4.8.1), never served.
import type { OpenAPISecurityRequirement } from './document'

/** How a sent webhook is signed, documented as its signature headers. */
export type WebhookSignature = 'standardWebhooks' | 'stripe' | 'github' | 'slack'

/**
 * A webhook the app sends to its subscribers: what the request to their URL carries.
 *
 * @example
 * const invoicePaid: WebhookMeta = {
 *   summary: 'An invoice was paid',
 *   payload: z.object({ type: z.literal('invoice.paid'), data: z.object({ id: z.string() }) }),
 *   signature: 'standardWebhooks',
 * }
 * api.webhook('invoice.paid', invoicePaid)
 */
export interface WebhookMeta {
  /**
   * The body's schema (required): zod 3 or 4, a Standard Schema with JSON Schema, or raw JSON
   * Schema; becomes a `components.schemas` entry referenced by `$ref`.
   */
  payload: unknown
  summary?: string
  description?: string
  /** Unique across the document's operations. */
  operationId?: string
  tags?: string[]
  deprecated?: boolean
  /** The request's method. Default `'post'`. */
  method?: 'post' | 'put' | 'patch'
  /** Media type of the payload. Default `application/json`. */
  contentType?: string
  /** Object schema of further headers the request carries: one `in: header` parameter each. */
  headers?: unknown
  /**
   * How it is signed: documents the preset's signature headers (Standard Webhooks:
   * `webhook-id`, `webhook-timestamp`, `webhook-signature`), as `@palisade/middleware`'s
   * `signWebhook()` writes them.
   */
  signature?: WebhookSignature
  /** What the subscriber answers, by status. Default `{ 200: 'Received' }`. */
  responses?: Record<number, { description: string; schema?: unknown; contentType?: string }>
  /** Security requirements, naming `securitySchemes` of the options. */
  security?: OpenAPISecurityRequirement[]
}

/**
 * A webhook as the wrapper records it: what `generateSpec` reads.
 *
 * @example
 * const webhooks: StoredWebhook[] = [{ name: 'invoice.paid', meta: { payload: { type: 'object' } } }]
 */
export interface StoredWebhook {
  /** The key under `webhooks` (the event's name). */
  name: string
  meta: WebhookMeta
}

/**
 * One request a route's callback sends: the same fields as a webhook the app sends
 * (`api.webhook()`), schemas given and converted the same way.
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
