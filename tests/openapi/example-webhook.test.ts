// The example receives a Standard Webhooks webhook on /webhooks/billing (issue 39's "done
// when") and documents the invoice.paid webhook it sends.
import { signWebhook } from '@palisade/middleware/webhook'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'

const SECRET = `whsec_${btoa('a-billing-secret-of-the-test-environment')}`

describe('the example app and webhooks', () => {
  let app: Awaited<ReturnType<typeof createApp>>
  beforeAll(async () => {
    app = await createApp({ RATE_LIMIT_MAX: '1000', BILLING_WEBHOOK_SECRET: SECRET })
  })
  afterAll(async () => {
    await app?.close()
  })

  const post = (headers: Record<string, string>, body: string) =>
    app.api.request('/webhooks/billing', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    })

  it('takes a webhook signed with BILLING_WEBHOOK_SECRET once, and refuses its replay', async () => {
    const body = '{"type":"invoice.created","data":{"invoice":"in_1"}}'
    const { headers } = await signWebhook(body, {
      preset: 'standardWebhooks',
      secret: SECRET,
      id: 'msg_example_1',
    })
    const res = await post(headers, body)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true, id: 'msg_example_1' })
    const replay = await post(headers, body)
    expect(replay.status).toBe(401)
    expect(await replay.json()).toMatchObject({ code: 'webhook_signature_invalid' })
  })

  it('refuses one signed with another secret, or re-serialised, as problem details', async () => {
    const body = '{"type":"invoice.created","data":{}}'
    const other = await signWebhook(body, {
      preset: 'standardWebhooks',
      secret: `whsec_${btoa('somebody-else-s-secret-of-24-bytes+')}`,
    })
    expect((await post(other.headers, body)).status).toBe(401)
    const mine = await signWebhook(body, { preset: 'standardWebhooks', secret: SECRET })
    const res = await post(mine.headers, JSON.stringify(JSON.parse(body), null, 1))
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toContain('application/problem+json')
  })

  it('validates the verified body against its schema (400 after the signature passed)', async () => {
    const body = '{"type":""}'
    const { headers } = await signWebhook(body, { preset: 'standardWebhooks', secret: SECRET })
    const res = await post(headers, body)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'validation_failed' })
  })

  it('documents the invoice.paid webhook it sends, with its signing headers', () => {
    const sent = app.api.spec().webhooks?.['invoice.paid']?.post
    expect(sent?.operationId).toBe('invoicePaid')
    expect(sent?.parameters?.map((p) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ])
  })

  it('refuses to start in production without BILLING_WEBHOOK_SECRET', async () => {
    await expect(
      createApp({
        NODE_ENV: 'production',
        JWT_SECRET: 'j'.repeat(32),
        SESSION_SECRET: 's'.repeat(32),
        CSRF_SECRET: 'c'.repeat(32),
      }),
    ).rejects.toThrow('BILLING_WEBHOOK_SECRET is not set')
  })
})
