// The document's top-level `webhooks`: one path item per webhook the app sends.
import type { OpenAPIParameter, OpenAPIPathItem, OpenAPIResponse } from '../model/document'
import type { ComponentRegistry } from '../model/naming'
import type { StoredWebhook, WebhookSignature } from '../model/webhook'
import { objectParts } from '../rules/route-check'
import { type ConvertOptions, toOpenAPISchema } from '../schema/convert'

const STRING = { type: 'string' } as const
const SECONDS = { type: 'string', pattern: '^[0-9]+$' } as const

/** The headers each signature preset writes, as header parameters. */
const SIGNATURE_HEADERS: Record<WebhookSignature, OpenAPIParameter[]> = {
  standardWebhooks: [
    {
      name: 'webhook-id',
      in: 'header',
      required: true,
      schema: { ...STRING },
      description:
        'The message id (Standard Webhooks); the same on every retry: an idempotency key',
    },
    {
      name: 'webhook-timestamp',
      in: 'header',
      required: true,
      schema: { ...SECONDS },
      description: 'When it was sent, in Unix seconds; part of what is signed',
    },
    {
      name: 'webhook-signature',
      in: 'header',
      required: true,
      schema: { ...STRING },
      description:
        'Space-separated `v1,<base64>` HMAC-SHA256 (or `v1a,<base64>` Ed25519) signatures of `{webhook-id}.{webhook-timestamp}.{body}`',
    },
  ],
  stripe: [
    {
      name: 'Stripe-Signature',
      in: 'header',
      required: true,
      schema: { ...STRING },
      description:
        '`t=<unix seconds>,v1=<hex>`: the HMAC-SHA256 of `{t}.{body}`, one `v1` per secret',
    },
  ],
  github: [
    {
      name: 'X-Hub-Signature-256',
      in: 'header',
      required: true,
      schema: { ...STRING },
      description: '`sha256=<hex>`: the HMAC-SHA256 of the body',
    },
    {
      name: 'X-GitHub-Delivery',
      in: 'header',
      required: false,
      schema: { ...STRING },
      description: 'The delivery id',
    },
  ],
  slack: [
    {
      name: 'X-Slack-Signature',
      in: 'header',
      required: true,
      schema: { ...STRING },
      description: '`v0=<hex>`: the HMAC-SHA256 of `v0:{timestamp}:{body}`',
    },
    {
      name: 'X-Slack-Request-Timestamp',
      in: 'header',
      required: true,
      schema: { ...SECONDS },
      description: 'When it was sent, in Unix seconds',
    },
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
  const operation: OpenAPIPathItem = { responses: {} }
  if (meta.operationId !== undefined) operation.operationId = meta.operationId
  operation.summary = meta.summary ?? `The ${name} webhook`
  if (meta.description !== undefined) operation.description = meta.description
  if (meta.tags && meta.tags.length > 0) operation.tags = [...meta.tags]
  if (meta.deprecated === true) operation.deprecated = true
  const parameters = (meta.signature ? SIGNATURE_HEADERS[meta.signature] : []).map((p) => ({
    ...p,
    schema: { ...p.schema },
  }))
  if (meta.headers !== undefined) {
    const route = { method: 'post' as const, path: `webhook ${name}` }
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
