// `api.webhook()`: the webhooks an app sends, under the document's top-level `webhooks`
// (OpenAPI 3.1), from every schema kind the wrapper accepts, valid under the real validators.
import { type } from 'arktype'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { generateSpec, openapi } from '../../packages/openapi/src'
import { expectValidOpenAPI } from './validate'

const info = { title: 'Billing', version: '1.0.0' }

function billing() {
  const api = openapi(new Hono(), {
    info,
    securitySchemes: { subscriberKey: { type: 'apiKey', in: 'header', name: 'X-Subscriber-Key' } },
  })
  api.get('/invoices', (c) => c.json([]), {
    openapi: {
      operationId: 'listInvoices',
      responses: {
        200: { description: 'Invoices', schema: z.array(z.object({ id: z.string() })) },
      },
    },
  })
  api.webhook('invoice.paid', {
    operationId: 'invoicePaid',
    summary: 'An invoice was paid',
    description: 'Sent once per paid invoice; retried with the same webhook-id.',
    tags: ['billing'],
    payload: z.object({
      type: z.literal('invoice.paid'),
      data: z.object({ invoice: z.string(), amount: z.int().min(0) }),
    }),
    signature: 'standardWebhooks',
  })
  api.webhook('invoice.voided', {
    payload: z3.object({ type: z3.literal('invoice.voided'), invoice: z3.string() }),
    signature: 'stripe',
    responses: { 204: { description: 'Taken' }, 410: { description: 'Unsubscribe me' } },
  })
  api.webhook('customer.created', {
    payload: type({ type: "'customer.created'", customer: 'string' }),
    method: 'put',
    headers: z.object({ 'x-delivery-attempt': z.string().describe('1 on the first attempt') }),
    security: [{ subscriberKey: [] }],
  })
  api.webhook('ping', {
    payload: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
    contentType: 'application/cloudevents+json',
    signature: 'github',
  })
  return api
}

describe('api.webhook()', () => {
  it('documents each webhook under `webhooks`, after `paths`, and the document is valid OpenAPI 3.1', async () => {
    const doc = billing().spec()
    expect(Object.keys(doc)).toEqual([
      'openapi',
      'info',
      'servers',
      'security',
      'tags',
      'paths',
      'webhooks',
      'components',
    ])
    expect(Object.keys(doc.webhooks ?? {})).toEqual([
      'invoice.paid',
      'invoice.voided',
      'customer.created',
      'ping',
    ])
    await expectValidOpenAPI(doc)
  })

  it('documents the payload as a component, the signing headers and the default answer', () => {
    const doc = billing().spec()
    const paid = doc.webhooks?.['invoice.paid']?.post
    expect(paid).toMatchObject({
      operationId: 'invoicePaid',
      summary: 'An invoice was paid',
      tags: ['billing'],
      responses: { 200: { description: 'Received' } },
    })
    expect(paid?.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([
      ['webhook-id', 'header', true],
      ['webhook-timestamp', 'header', true],
      ['webhook-signature', 'header', true],
    ])
    const ref = paid?.requestBody?.content['application/json']?.schema as { $ref: string }
    const name = ref.$ref.split('/').at(-1) as string
    expect(doc.components.schemas[name]).toMatchObject({
      type: 'object',
      properties: { type: { enum: ['invoice.paid'] } },
    })
    expect(doc.tags?.map((t) => t.name)).toContain('billing')
  })

  it('takes zod 3, a Standard Schema (arktype), raw JSON Schema, methods, headers and security', () => {
    const doc = billing().spec()
    const voided = doc.webhooks?.['invoice.voided']?.post
    expect(voided?.parameters?.map((p) => p.name)).toEqual(['Stripe-Signature'])
    expect(Object.keys(voided?.responses ?? {})).toEqual(['204', '410'])
    const created = doc.webhooks?.['customer.created']?.put
    expect(created?.parameters).toEqual([
      {
        name: 'x-delivery-attempt',
        in: 'header',
        required: true,
        schema: { type: 'string' },
        description: '1 on the first attempt',
      },
    ])
    expect(created?.security).toEqual([{ subscriberKey: [] }])
    const ping = doc.webhooks?.ping?.post
    expect(Object.keys(ping?.requestBody?.content ?? {})).toEqual(['application/cloudevents+json'])
  })

  it('leaves `webhooks` out of a document without any, and generateSpec takes them directly', () => {
    expect(openapi(new Hono(), { info }).spec()).not.toHaveProperty('webhooks')
    const doc = generateSpec([], { info }, [
      { name: 'ping', meta: { payload: { type: 'object' } } },
    ])
    expect(doc.webhooks?.ping?.post?.requestBody?.required).toBe(true)
  })

  it('rebuilds the cached document when a webhook is added', () => {
    const api = openapi(new Hono(), { info })
    expect(api.spec().webhooks).toBeUndefined()
    api.webhook('ping', { payload: { type: 'object' } })
    expect(Object.keys(api.spec().webhooks ?? {})).toEqual(['ping'])
  })

  it.each([
    ['', { payload: {} }, 'non-empty'],
    ['a', undefined, 'payload'],
    ['a', { description: 'no payload' }, 'payload'],
    ['a', { payload: {}, paylod: {} }, 'unknown key "paylod"'],
    ['a', { payload: {}, method: 'get' }, 'method'],
    ['a', { payload: {}, signature: 'paypal' }, 'signature'],
    ['a', { payload: {}, contentType: 'json' }, 'contentType'],
    ['a', { payload: {}, responses: { 200: {} } }, 'responses.200'],
    ['a', { payload: {}, headers: z.string() }, 'object schema'],
    ['a', { payload: {}, operationId: 'listInvoices' }, 'already used'],
    ['invoice.paid', { payload: {} }, 'already documented'],
  ])('refuses webhook(%j, %j) at registration', (name, meta, message) => {
    const api = billing()
    expect(() => api.webhook(name, meta as never)).toThrow(message)
  })

  it('refuses a security requirement naming an unknown scheme when the document is built', () => {
    const api = openapi(new Hono(), { info })
    api.webhook('ping', { payload: {}, security: [{ nowhere: [] }] })
    expect(() => api.spec()).toThrow('nowhere')
  })
})
