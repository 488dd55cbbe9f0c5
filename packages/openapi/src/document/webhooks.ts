// The document's top-level `webhooks`: one path item per webhook the app sends.
import type { OpenAPIParameter, OpenAPIPathItem, OpenAPIResponse } from '../model/document'
import type { ComponentRegistry } from '../model/naming'
import type { StoredWebhook, WebhookMeta, WebhookSignature } from '../model/webhook'
import { objectParts } from '../rules/route-check'
import { type ConvertOptions, toOpenAPISchema } from '../schema/convert'

/** A header value of at most `maxLength` characters matching `pattern`. */
const text = (maxLength: number, pattern: string) => ({ type: 'string', maxLength, pattern })
/** Visible ASCII, as the ids senders write (and webhook() accepts). */
const ID = text(256, '^[!-~]+$')
const SECONDS = text(12, '^[0-9]+$')

/** One header parameter. */
function header(name: string, required: boolean, schema: object, description: string) {
  return { name, in: 'header', required, schema, description } as OpenAPIParameter
}

/** The headers each signature preset writes, as header parameters. */
const SIGNATURE_HEADERS: Record<WebhookSignature, OpenAPIParameter[]> = {
  standardWebhooks: [
    header(
      'webhook-id',
      true,
      ID,
      'The message id (Standard Webhooks); the same on every retry: an idempotency key',
    ),
    header(
      'webhook-timestamp',
      true,
      SECONDS,
      'When it was sent, in Unix seconds; part of what is signed',
    ),
    header(
      'webhook-signature',
      true,
      text(4096, '^v1a?,[A-Za-z0-9+/=]+( v1a?,[A-Za-z0-9+/=]+)*$'),
      'Space-separated `v1,<base64>` HMAC-SHA256 (or `v1a,<base64>` Ed25519) signatures of `{webhook-id}.{webhook-timestamp}.{body}`',
    ),
  ],
  stripe: [
    header(
      'Stripe-Signature',
      true,
      text(1024, '^t=[0-9]+(,v[0-9]+=[0-9a-f]+)+$'),
      '`t=<unix seconds>,v1=<hex>`: the HMAC-SHA256 of `{t}.{body}`, one `v1` per secret',
    ),
  ],
  github: [
    header(
      'X-Hub-Signature-256',
      true,
      text(71, '^sha256=[0-9a-f]{64}$'),
      '`sha256=<hex>`: the HMAC-SHA256 of the body',
    ),
    header('X-GitHub-Delivery', false, ID, 'The delivery id'),
  ],
  slack: [
    header(
      'X-Slack-Signature',
      true,
      text(67, '^v0=[0-9a-f]{64}$'),
      '`v0=<hex>`: the HMAC-SHA256 of `v0:{timestamp}:{body}`',
    ),
    header('X-Slack-Request-Timestamp', true, SECONDS, 'When it was sent, in Unix seconds'),
  ],
}

/** The signature presets `signature` may name. */
export const WEBHOOK_SIGNATURES = Object.keys(SIGNATURE_HEADERS) as WebhookSignature[]

/** The path item of one webhook; its schemas go to `registry`. */
export function buildWebhook(
  webhook: StoredWebhook,
  registry: ComponentRegistry,
  convert: ConvertOptions,
): Record<string, OpenAPIPathItem> {
  const { name, meta } = webhook
  return buildSent(meta, `The ${name} webhook`, `webhook ${name}`, registry, convert)
}

/**
 * The path item of one request the app sends (a webhook, or a callback's): `summary` unless the
 * meta has one, `label` naming it in a schema error; its schemas go to `registry`.
 */
export function buildSent(
  meta: WebhookMeta,
  summary: string,
  label: string,
  registry: ComponentRegistry,
  convert: ConvertOptions,
): Record<string, OpenAPIPathItem> {
  const operation: OpenAPIPathItem = { responses: {} }
  if (meta.operationId !== undefined) operation.operationId = meta.operationId
  operation.summary = meta.summary ?? summary
  if (meta.description !== undefined) operation.description = meta.description
  if (meta.tags && meta.tags.length > 0) operation.tags = [...meta.tags]
  if (meta.deprecated === true) operation.deprecated = true
  const parameters = (meta.signature ? SIGNATURE_HEADERS[meta.signature] : []).map((p) => ({
    ...p,
    schema: { ...p.schema },
  }))
  if (meta.headers !== undefined) {
    const route = { method: 'post' as const, path: label }
    const { properties, required } = objectParts(convert, route, 'headers', meta.headers)
    for (const [header, schema] of Object.entries(properties)) {
      const { description, ...rest } = schema
      const p: OpenAPIParameter = {
        name: header,
        in: 'header',
        required: required.has(header),
        schema: JSON.parse(JSON.stringify(rest)),
      }
      if (typeof description === 'string') p.description = description
      parameters.push(p)
    }
  }
  if (parameters.length > 0) operation.parameters = parameters
  operation.requestBody = {
    required: true,
    content: {
      [meta.contentType ?? 'application/json']: {
        schema: registry.ref(toOpenAPISchema(meta.payload, { ...convert, components: registry })),
      },
    },
  }
  const responses: Record<string, OpenAPIResponse> = {}
  for (const [status, response] of Object.entries(
    meta.responses ?? { 200: { description: 'Received' } },
  )) {
    const out: OpenAPIResponse = { description: response.description }
    if (response.schema !== undefined) {
      out.content = {
        [response.contentType ?? 'application/json']: {
          schema: registry.ref(
            toOpenAPISchema(response.schema, { ...convert, components: registry }),
          ),
        },
      }
    }
    responses[status] = out
  }
  operation.responses = responses
  if (meta.security !== undefined) operation.security = meta.security.map((r) => ({ ...r }))
  return { [meta.method ?? 'post']: operation }
}
