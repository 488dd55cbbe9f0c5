import { createHmac } from 'node:crypto'
import { getMiddlewareDescription } from '@palisade/shared/describe'
import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { base64, base64url, timingSafeEqual, toHex } from '../internal/crypto'
import { installDecisions } from '../internal/outcomes/decisions'
import { Rejection } from '../internal/outcomes/rejection'
import { MemoryNonceStore } from '../internal/stores/nonce-store'
import { signWebhook, type WebhookOptions, type WebhookPresetName, webhook } from './index'
import { PRESETS as SCHEMES, type SignatureParts } from './presets'
import { encodedEqual } from './verify'

const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const TEXT_SECRET = 'a-provider-signing-secret-0123456789'
const SECRETS: Record<WebhookPresetName, string> = {
  standardWebhooks: WHSEC,
  stripe: 'whsec_stripe_test_secret_0123456789abcdef',
  github: TEXT_SECRET,
  slack: '8f742231b10e8888abcd99yyyzzz85a5',
}
const PRESETS = Object.keys(SECRETS) as WebhookPresetName[]
const NOW = 1_700_000_000

/** An app whose handler echoes the body it reads after the middleware, and the context value. */
function appWith(options: WebhookOptions, seen: unknown[] = []) {
  const app = new Hono()
  app.onError((err, c) => {
    seen.push(err)
    if (err instanceof Rejection) return c.text(`${err.code}`, err.status)
    return c.text('crash', 500)
  })
  app.post('/hook', webhook({ now: () => NOW * 1000, ...options }), async (c) => {
    const text = await c.req.text()
    const bytes = new Uint8Array(await c.req.arrayBuffer())
    return c.json({ text, length: bytes.length, info: c.get('webhook') })
  })
  return app
}

function post(app: Hono, headers: Record<string, string>, body: string | Uint8Array<ArrayBuffer>) {
  return app.request('http://localhost/hook', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
}

describe('published test vectors', () => {
  it('verifies GitHub\'s documented example (secret "It\'s a Secret to Everybody")', async () => {
    const app = appWith({ preset: 'github', secret: "It's a Secret to Everybody" })
    const res = await post(
      app,
      {
        'x-hub-signature-256':
          'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
      },
      'Hello, World!',
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ text: 'Hello, World!', info: { preset: 'github' } })
  })

  it("verifies Slack's documented slash-command example", async () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c'
    const app = appWith({ preset: 'slack', secret: SECRETS.slack, now: () => 1531420618_000 })
    const res = await post(
      app,
      {
        'x-slack-request-timestamp': '1531420618',
        'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
      },
      body,
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ info: { preset: 'slack', timestamp: 1531420618 } })
  })

  it("verifies the Standard Webhooks libraries' shared example", async () => {
    const app = appWith({ preset: 'standardWebhooks', secret: WHSEC, now: () => 1614265330_000 })
    const res = await post(
      app,
      {
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
      '{"test": 2432232314}',
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      text: '{"test": 2432232314}',
      info: { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330 },
    })
  })

  it("verifies a Stripe header computed as Stripe's docs say (HMAC of `t.body`, node:crypto)", async () => {
    const body = '{"id":"evt_1","type":"invoice.paid"}'
    const v1 = createHmac('sha256', SECRETS.stripe).update(`${NOW}.${body}`).digest('hex')
    const app = appWith({ preset: 'stripe', secret: SECRETS.stripe })
    const res = await post(app, { 'stripe-signature': `t=${NOW},v1=${v1},v0=ignored` }, body)
    expect(res.status).toBe(200)
  })
})

describe('a byte secret wiped after construction (Node code that zeroes its secrets)', () => {
  it.each(PRESETS.filter((p) => p !== 'standardWebhooks'))(
    '%s keeps verifying with the bytes it was given, never with zeros',
    async (preset) => {
      const given = new TextEncoder().encode(SECRETS[preset])
      const secret = Buffer.from(given)
      const app = appWith({ preset, secret })
      secret.fill(0)
      const payload = { type: 'invoice.paid' }
      const real = await signWebhook(payload, { preset, secret: given, timestamp: NOW })
      expect((await post(app, real.headers, real.body)).status).toBe(200)
      const zeros = new Uint8Array(given.length)
      const forged = await signWebhook(payload, { preset, secret: zeros, timestamp: NOW })
      expect((await post(app, forged.headers, forged.body)).status).toBe(401)
    },
  )
})

describe.each(PRESETS)('%s round trip', (preset) => {
  const payload = { type: 'invoice.paid', data: { id: 'in_1', amount: 4200 } }

  it('verifies what signWebhook signs, and the handler reads the same body', async () => {
    const { headers, body } = await signWebhook(payload, {
      preset,
      secret: SECRETS[preset],
      id: 'msg_1',
      timestamp: NOW,
    })
    const res = await post(appWith({ preset, secret: SECRETS[preset] }), headers, body)
    expect(res.status).toBe(200)
    const json = (await res.json()) as { text: string; length: number; info: object }
    expect(JSON.parse(json.text)).toEqual(payload)
    expect(json.length).toBe(new TextEncoder().encode(body as string).length)
    expect(json.info).toMatchObject({ preset })
  })

  it('refuses a body with one byte changed', async () => {
    const { headers, body } = await signWebhook(payload, { preset, secret: SECRETS[preset] })
    const tampered = (body as string).replace('4200', '4201')
    const res = await post(appWith({ preset, secret: SECRETS[preset] }), headers, tampered)
    expect(res.status).toBe(401)
    expect(await res.text()).toBe('webhook_signature_invalid')
  })

  it('refuses the same JSON re-serialised with other whitespace', async () => {
    const { headers, body } = await signWebhook(payload, { preset, secret: SECRETS[preset] })
    const reserialised = JSON.stringify(JSON.parse(body as string), null, 2)
    const res = await post(appWith({ preset, secret: SECRETS[preset] }), headers, reserialised)
    expect(res.status).toBe(401)
  })

  it('refuses a message signed with another secret', async () => {
    const other =
      preset === 'standardWebhooks'
        ? 'whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldCBvZiAyNCs='
        : `${SECRETS[preset]}-other`
    const { headers, body } = await signWebhook(payload, { preset, secret: other, timestamp: NOW })
    const res = await post(appWith({ preset, secret: SECRETS[preset] }), headers, body)
    expect(res.status).toBe(401)
  })

  it('refuses the same message sent twice (replay)', async () => {
    const app = appWith({ preset, secret: SECRETS[preset] })
    const { headers, body } = await signWebhook(payload, {
      preset,
      secret: SECRETS[preset],
      id: 'delivery-1',
      timestamp: NOW,
    })
    expect((await post(app, headers, body)).status).toBe(200)
    const again = await post(app, headers, body)
    expect(again.status).toBe(401)
    expect(await again.text()).toBe('webhook_signature_invalid')
  })

  it('accepts any of several secrets (rotation)', async () => {
    const old =
      preset === 'standardWebhooks'
        ? 'whsec_b2xkIHNlY3JldCBiZWluZyByb3RhdGVkIG91dA=='
        : `${SECRETS[preset]}-old`
    const { headers, body } = await signWebhook(payload, { preset, secret: old, timestamp: NOW })
    const res = await post(appWith({ preset, secret: [SECRETS[preset], old] }), headers, body)
    expect(res.status).toBe(200)
  })

  it('refuses a request without its signature header', async () => {
    const { headers, body } = await signWebhook(payload, { preset, secret: SECRETS[preset] })
    const [signatureHeader] = Object.keys(headers).filter(
      (h) => /signature/i.test(h) && !/timestamp/i.test(h),
    )
    const rest = { ...headers }
    delete rest[signatureHeader as string]
    expect((await post(appWith({ preset, secret: SECRETS[preset] }), rest, body)).status).toBe(401)
  })
})

describe('timestamps', () => {
  const timed = PRESETS.filter((p) => p !== 'github')

  it.each(timed)('%s: refuses a message older or newer than the tolerance', async (preset) => {
    for (const offset of [-301, 301, -86_400 * 365]) {
      const { headers, body } = await signWebhook('{}', {
        preset,
        secret: SECRETS[preset],
        timestamp: NOW + offset,
      })
      const res = await post(appWith({ preset, secret: SECRETS[preset] }), headers, body)
      expect(res.status).toBe(400)
      expect(await res.text()).toBe('webhook_timestamp_invalid')
    }
  })

  it.each(timed)('%s: accepts one within the tolerance, either way', async (preset) => {
    for (const offset of [-300, 300, -10]) {
      const { headers, body } = await signWebhook('{}', {
        preset,
        secret: SECRETS[preset],
        timestamp: NOW + offset,
      })
      expect((await post(appWith({ preset, secret: SECRETS[preset] }), headers, body)).status).toBe(
        200,
      )
    }
  })

  it('honours toleranceSeconds', async () => {
    const { headers, body } = await signWebhook('{}', {
      preset: 'slack',
      secret: SECRETS.slack,
      timestamp: NOW - 60,
    })
    const app = appWith({ preset: 'slack', secret: SECRETS.slack, toleranceSeconds: 30 })
    expect((await post(app, headers, body)).status).toBe(400)
  })

  it('refuses a badly signed stale message as a bad signature, not as stale', async () => {
    const { headers, body } = await signWebhook('{}', {
      preset: 'slack',
      secret: `${SECRETS.slack}-wrong`,
      timestamp: NOW - 3600,
    })
    expect(
      (await post(appWith({ preset: 'slack', secret: SECRETS.slack }), headers, body)).status,
    ).toBe(401)
  })

  it.each([
    ['', 400],
    ['17e8', 400],
    ['-1700000000', 400],
    ['1700000000.5', 400],
    ['1700000000, 1700000001', 400],
  ])('refuses the Slack timestamp %j with %i', async (timestamp, status) => {
    const { headers, body } = await signWebhook('{}', {
      preset: 'slack',
      secret: SECRETS.slack,
      timestamp: NOW,
    })
    const res = await post(
      appWith({ preset: 'slack', secret: SECRETS.slack }),
      { ...headers, 'X-Slack-Request-Timestamp': timestamp },
      body,
    )
    expect(res.status).toBe(status)
  })

  it('GitHub signs no timestamp: a delivery is accepted whenever it comes, once', async () => {
    const { headers, body } = await signWebhook('{}', {
      preset: 'github',
      secret: TEXT_SECRET,
      id: 'guid-1',
    })
    const later = appWith({
      preset: 'github',
      secret: TEXT_SECRET,
      now: () => (NOW + 86_400) * 1000,
    })
    expect((await post(later, headers, body)).status).toBe(200)
    expect((await post(later, headers, body)).status).toBe(401)
  })
})

describe('replay', () => {
  it('lets a sender retry a message id with a new timestamp (a new signature)', async () => {
    const app = appWith({ preset: 'standardWebhooks', secret: WHSEC })
    for (const timestamp of [NOW, NOW + 30]) {
      const { headers, body } = await signWebhook('{}', {
        preset: 'standardWebhooks',
        secret: WHSEC,
        id: 'msg_retry',
        timestamp,
      })
      expect((await post(app, headers, body)).status).toBe(200)
    }
  })

  it('refuses a replay across two instances sharing one nonce store', async () => {
    const nonces = new MemoryNonceStore()
    const a = appWith({ preset: 'stripe', secret: SECRETS.stripe, nonces })
    const b = appWith({ preset: 'stripe', secret: SECRETS.stripe, nonces })
    const { headers, body } = await signWebhook('{}', {
      preset: 'stripe',
      secret: SECRETS.stripe,
      timestamp: NOW,
    })
    expect((await post(a, headers, body)).status).toBe(200)
    expect((await post(b, headers, body)).status).toBe(401)
  })

  it("does not let an invalid request claim a valid message's id", async () => {
    const app = appWith({ preset: 'standardWebhooks', secret: WHSEC })
    const { headers, body } = await signWebhook('{"a":1}', {
      preset: 'standardWebhooks',
      secret: WHSEC,
      id: 'msg_x',
      timestamp: NOW,
    })
    expect((await post(app, headers, '{"a":2}')).status).toBe(401)
    expect((await post(app, headers, body)).status).toBe(200)
  })

  it('with nonces: false, a replay passes (the check is off)', async () => {
    const app = appWith({ preset: 'stripe', secret: SECRETS.stripe, nonces: false })
    const { headers, body } = await signWebhook('{}', {
      preset: 'stripe',
      secret: SECRETS.stripe,
      timestamp: NOW,
    })
    expect((await post(app, headers, body)).status).toBe(200)
    expect((await post(app, headers, body)).status).toBe(200)
  })

  it('answers 503 store_unavailable when the nonce store fails', async () => {
    const nonces = { claim: () => Promise.reject(new Error('down')) }
    const app = appWith({ preset: 'stripe', secret: SECRETS.stripe, nonces })
    const { headers, body } = await signWebhook('{}', {
      preset: 'stripe',
      secret: SECRETS.stripe,
      timestamp: NOW,
    })
    const res = await post(app, headers, body)
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('store_unavailable')
  })
})

describe('malformed and hostile headers', () => {
  const body = '{"a":1}'
  const valid = async (preset: WebhookPresetName) =>
    (await signWebhook(body, { preset, secret: SECRETS[preset], id: 'm1', timestamp: NOW })).headers

  it('accepts one valid signature among several in one header (Standard Webhooks, Stripe)', async () => {
    const sw = await valid('standardWebhooks')
    const swHeaders = {
      ...sw,
      'webhook-signature': `v1,Zm9vYmFyYmF6 v2,unknownscheme ${sw['webhook-signature']} v1,AAAA`,
    }
    expect(
      (await post(appWith({ preset: 'standardWebhooks', secret: WHSEC }), swHeaders, body)).status,
    ).toBe(200)
    const st = await valid('stripe')
    const v1 = (st['Stripe-Signature'] as string).split(',')[1] as string
    const stHeaders = { 'Stripe-Signature': `t=${NOW},v1=${'0'.repeat(64)},${v1}` }
    expect(
      (await post(appWith({ preset: 'stripe', secret: SECRETS.stripe }), stHeaders, body)).status,
    ).toBe(200)
  })

  it.each(PRESETS)(
    '%s: refuses a signature header sent twice (joined by the runtime)',
    async (preset) => {
      const headers = new Headers(await valid(preset))
      const name = [...headers.keys()].find(
        (h) => /signature/.test(h) && !/timestamp/.test(h),
      ) as string
      headers.append(name, headers.get(name) as string)
      const res = await appWith({ preset, secret: SECRETS[preset] }).request(
        'http://localhost/hook',
        {
          method: 'POST',
          headers,
          body,
        },
      )
      expect(res.status).toBe(401)
    },
  )

  it.each([
    ['stripe', { 'stripe-signature': 'v1=abc' }],
    ['stripe', { 'stripe-signature': `t=${NOW}` }],
    ['stripe', { 'stripe-signature': `t=${NOW},t=${NOW},v1=${'a'.repeat(64)}` }],
    ['stripe', { 'stripe-signature': `t=${NOW},v1=${'z'.repeat(64)}` }],
    ['stripe', { 'stripe-signature': 'garbage' }],
    ['github', { 'x-hub-signature-256': 'sha1=abc' }],
    ['github', { 'x-hub-signature-256': `sha256=${'a'.repeat(63)}` }],
    ['github', { 'x-hub-signature-256': `sha256=${'a'.repeat(64)}`, 'x-github-delivery': 'a b' }],
    ['slack', { 'x-slack-signature': 'v1=abc', 'x-slack-request-timestamp': String(NOW) }],
    ['slack', { 'x-slack-signature': 'x'.repeat(5000), 'x-slack-request-timestamp': String(NOW) }],
    [
      'standardWebhooks',
      { 'webhook-id': 'm', 'webhook-timestamp': String(NOW), 'webhook-signature': 'v1' },
    ],
    [
      'standardWebhooks',
      { 'webhook-id': 'm', 'webhook-timestamp': String(NOW), 'webhook-signature': 'v9,abc' },
    ],
    ['standardWebhooks', { 'webhook-timestamp': String(NOW), 'webhook-signature': 'v1,abc' }],
    [
      'standardWebhooks',
      { 'webhook-id': 'm', 'webhook-timestamp': String(NOW), 'webhook-signature': 'v1a,!!!!' },
    ],
  ] as const)(
    '%s: refuses malformed headers (case %#) with 401, never a 500',
    async (preset, headers) => {
      const seen: unknown[] = []
      const res = await post(appWith({ preset, secret: SECRETS[preset] }, seen), headers, body)
      expect(res.status).toBe(401)
      expect(seen[0]).toBeInstanceOf(Rejection)
    },
  )

  it('refuses a Standard Webhooks message without a timestamp with 400', async () => {
    const headers = { ...(await valid('standardWebhooks')) }
    delete headers['webhook-timestamp']
    expect(
      (await post(appWith({ preset: 'standardWebhooks', secret: WHSEC }), headers, body)).status,
    ).toBe(400)
  })
})

describe('bodies', () => {
  it('refuses a body over maxBodyBytes with 413 (declared length), never a 500', async () => {
    const big = 'x'.repeat(2_000)
    const { headers } = await signWebhook(big, { preset: 'github', secret: TEXT_SECRET })
    const res = await post(
      appWith({ preset: 'github', secret: TEXT_SECRET, maxBodyBytes: 1_000 }),
      headers,
      big,
    )
    expect(res.status).toBe(413)
    expect(await res.text()).toBe('body_too_large')
  })

  it('refuses a streamed body over maxBodyBytes with 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(600))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 3) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const app = appWith({ preset: 'github', secret: TEXT_SECRET, maxBodyBytes: 1_000 })
    const res = await app.request('http://localhost/hook', {
      method: 'POST',
      headers: { 'x-hub-signature-256': `sha256=${'a'.repeat(64)}` },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
  })

  it('verifies bytes that are not UTF-8 exactly as sent', async () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x41])
    const { headers } = await signWebhook(bytes, { preset: 'github', secret: TEXT_SECRET })
    const res = await post(appWith({ preset: 'github', secret: TEXT_SECRET }), headers, bytes)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { length: number }).length).toBe(5)
  })

  it('verifies an empty body', async () => {
    const { headers } = await signWebhook('', { preset: 'github', secret: TEXT_SECRET })
    const res = await post(appWith({ preset: 'github', secret: TEXT_SECRET }), headers, '')
    expect(res.status).toBe(200)
  })
})

describe('custom preset', () => {
  const shopify = {
    name: 'shopify',
    signatureHeader: 'X-Shopify-Hmac-Sha256',
    encoding: 'base64',
    idHeader: 'X-Shopify-Webhook-Id',
  } as const

  it('verifies a base64 HMAC of the body (Shopify-style), computed independently', async () => {
    const body = '{"id":1}'
    const sig = createHmac('sha256', TEXT_SECRET).update(body).digest('base64')
    const app = appWith({ preset: shopify, secret: TEXT_SECRET })
    const res = await post(
      app,
      { 'x-shopify-hmac-sha256': sig, 'x-shopify-webhook-id': 'w1' },
      body,
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ info: { preset: 'shopify', id: 'w1' } })
  })

  it('signs a template with the id and timestamp, SHA-512, and verifies it', async () => {
    const preset = {
      signatureHeader: 'X-Signature',
      prefix: 'sha512=',
      hash: 'SHA-512',
      timestampHeader: 'X-Timestamp',
      idHeader: 'X-Id',
      signed: '{id}:{timestamp}:{body}',
    } as const
    const { headers, body } = await signWebhook('{"a":1}', {
      preset,
      secret: TEXT_SECRET,
      id: 'e1',
      timestamp: NOW,
    })
    const expected = createHmac('sha512', TEXT_SECRET).update(`e1:${NOW}:{"a":1}`).digest('hex')
    expect(headers['X-Signature']).toBe(`sha512=${expected}`)
    expect((await post(appWith({ preset, secret: TEXT_SECRET }), headers, body)).status).toBe(200)
    expect(
      (await post(appWith({ preset, secret: TEXT_SECRET }), { ...headers, 'X-Id': 'e2' }, body))
        .status,
    ).toBe(401)
  })

  it.each([
    [{ signatureHeader: 'X-S', signed: 'no body' }, 'exactly once'],
    [{ signatureHeader: 'X-S', signed: '{timestamp}.{body}' }, 'timestampHeader'],
    [{ signatureHeader: 'X-S', signed: '{id}.{body}' }, 'idHeader'],
    [{ signatureHeader: 'bad header' }, 'valid header name'],
    [{ signatureHeader: 'X-S', encoding: 'base32' }, 'encoding'],
    [{ signatureHeader: 'X-S', name: 'has space' }, 'preset.name'],
  ])('refuses the custom preset %j at construction', (preset, message) => {
    expect(() => webhook({ preset: preset as never, secret: TEXT_SECRET })).toThrow(message)
  })
})

describe('options', () => {
  it.each([
    [{ preset: 'paypal', secret: TEXT_SECRET }, 'preset'],
    [{ secret: TEXT_SECRET }, 'preset'],
    [{ preset: 'github' }, 'secret'],
    [{ preset: 'github', secret: 'short' }, 'at least 16 bytes'],
    [{ preset: 'standardWebhooks', secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, 'whsec_'],
    [{ preset: 'standardWebhooks', secret: 'whsec_not base64!' }, 'base64'],
    [{ preset: 'standardWebhooks', secret: 'whsec_c2hvcnQ=' }, 'at least 24 bytes'],
    [{ preset: 'github', secret: [] }, 'at least one'],
    [{ preset: 'github', secret: TEXT_SECRET, toleranceSeconds: 0 }, 'toleranceSeconds'],
    [{ preset: 'github', secret: TEXT_SECRET, nonces: {} }, 'nonces'],
    [{ preset: 'github', secret: TEXT_SECRET, tolerance: 5 }, 'unknown option'],
    [{ preset: 'github', secret: TEXT_SECRET, dryRun: true }, 'dryRun'],
  ])('refuses %j at construction', (options, message) => {
    expect(() => webhook(options as never)).toThrow(TypeError)
    expect(() => webhook(options as never)).toThrow(message)
  })
})

describe('self-description and decisions', () => {
  it('describes a header scheme naming the preset, and its answers', () => {
    const description = getMiddlewareDescription(
      webhook({ preset: 'standardWebhooks', secret: WHSEC }),
    )
    expect(description?.middleware).toBe('webhook')
    const scheme = description?.security?.[0]?.[0]
    expect(scheme?.name).toBe('webhookStandardWebhooks')
    expect(scheme?.scheme).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'webhook-signature',
    })
    expect(scheme?.scheme.description).toContain('webhook-timestamp')
    expect(description?.responses?.map((r) => [r.status, r.codes])).toEqual([
      [401, ['webhook_signature_invalid']],
      [400, ['webhook_timestamp_invalid', 'body_unreadable']],
      [413, ['body_too_large']],
    ])
    const github = getMiddlewareDescription(webhook({ preset: 'github', secret: TEXT_SECRET }))
    expect(github?.responses?.find((r) => r.status === 400)?.codes).toEqual(['body_unreadable'])
    expect(github?.security?.[0]?.[0]?.scheme.description).toContain('no timestamp')
  })

  it('records an allow, and a refusal with its cause for the operator', async () => {
    const records: unknown[] = []
    const app = new Hono()
    app.use('*', async (c, next) => {
      records.push(installDecisions(c).decisions)
      await next()
    })
    app.post('/hook', webhook({ preset: 'github', secret: TEXT_SECRET }), (c) => c.text('ok'))
    const { headers, body } = await signWebhook('{}', { preset: 'github', secret: TEXT_SECRET })
    await app.request('/hook', { method: 'POST', headers, body })
    await app.request('/hook', { method: 'POST', headers, body })
    expect(records[0]).toMatchObject([{ middleware: 'webhook', outcome: 'allow' }])
    expect(records[1]).toMatchObject([{ middleware: 'webhook', cause: 'replayed' }])
  })
})

describe('Stripe-Signature parser', () => {
  /** The parser it replaced: split on ',', each item at its first '='. */
  function reference(value: string): SignatureParts | null {
    const parts: SignatureParts = { hmac: [], ed25519: [] }
    for (const item of value.split(',')) {
      const eq = item.indexOf('=')
      if (eq <= 0) return null
      const key = item.slice(0, eq)
      const v = item.slice(eq + 1)
      if (key === 't') {
        if (parts.timestamp !== undefined) return null
        parts.timestamp = v
      } else if (key === 'v1') {
        if (!/^[0-9a-fA-F]{64}$/.test(v)) return null
        parts.hmac.push(v.toLowerCase())
      }
    }
    return parts.timestamp === undefined ? null : parts
  }
  const parse = (value: string) => SCHEMES.stripe.parse(value)
  const hex = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(toHex)

  it('reads the timestamp and every v1 signature, lower-cased, and skips other schemes', () => {
    const a = 'ab'.repeat(32)
    const b = 'CD'.repeat(32)
    expect(parse(`t=${NOW},v1=${a},v0=old,v1=${b}`)).toEqual({
      timestamp: String(NOW),
      hmac: [a, b.toLowerCase()],
      ed25519: [],
    })
    for (const bad of ['', ',', `t=${NOW},`, `,t=${NOW}`, `t=${NOW},=x`, `t=${NOW},v1`, 'v1=x'])
      expect(parse(bad)).toBeNull()
    expect(parse(`t=${NOW},t=${NOW}`)).toBeNull()
    expect(parse(`t=${NOW},v1=${a}0`)).toBeNull()
    // A key is matched whole: `tt=` and `v10=` are other schemes, skipped.
    expect(parse(`t=1,tt=2,v10=x`)).toEqual({ timestamp: '1', hmac: [], ed25519: [] })
  })

  it('answers as the split-based parser on header-like and arbitrary text (property)', () => {
    const key = fc.constantFrom('t', 'v1', 'v0', 'v', 'v11', 'tt', 'T', 'V1', '', ' t', 'v1 ')
    const val = fc.oneof(
      hex,
      hex.map((h) => h.toUpperCase()),
      fc.constantFrom('', '1765000000', '=', 'a=b', ' '),
      fc.string({ maxLength: 8 }),
    )
    const item = fc.oneof(
      fc.tuple(key, val).map(([k, v]) => `${k}=${v}`),
      key,
      fc.string({ maxLength: 6 }),
    )
    const header = fc
      .tuple(fc.boolean(), fc.array(item, { maxLength: 6 }))
      .map(([timed, items]) => (timed ? ['t=1765000000', ...items] : items).join(','))
    const noise = fc.stringMatching(/^[tv01=,aAf ]{0,24}$/)
    fc.assert(
      fc.property(fc.oneof(header, noise, fc.string({ maxLength: 40 })), (value) => {
        expect(parse(value)).toEqual(reference(value))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('webhook-signature parser (Standard Webhooks)', () => {
  /** The parser it replaced: split on ' ', each non-empty item at its first ','. */
  function reference(value: string): SignatureParts | null {
    const parts: SignatureParts = { hmac: [], ed25519: [] }
    for (const item of value.split(' ')) {
      if (item === '') continue
      const comma = item.indexOf(',')
      if (comma <= 0) return null
      const version = item.slice(0, comma)
      const signature = item.slice(comma + 1)
      if (version === 'v1') parts.hmac.push(signature)
      else if (version === 'v1a') parts.ed25519.push(signature)
    }
    return parts
  }
  const parse = (value: string) => SCHEMES.standardWebhooks.parse(value)
  const b64 = fc.uint8Array({ minLength: 32, maxLength: 64 }).map(base64)

  it('reads every v1 and v1a signature as written and skips other versions and extra spaces', () => {
    const a = base64(new Uint8Array(32).fill(1))
    const b = base64(new Uint8Array(64).fill(2))
    expect(parse(`v1,${a} v2,x  v1a,${b} v1,,  v10,y v1,`)).toEqual({
      hmac: [a, ',', ''],
      ed25519: [b],
    })
    expect(parse('')).toEqual({ hmac: [], ed25519: [] })
    expect(parse('   ')).toEqual({ hmac: [], ed25519: [] })
    for (const bad of ['v1', ',abc', `v1,${a} v1a`, `v1,${a} ,x`, `v1${a}`])
      expect(parse(bad)).toBeNull()
    // A version is matched whole: `v1a` is not `v1`, `V1` and `v1 ` are other versions.
    expect(parse('v1a,x V1,y')).toEqual({ hmac: [], ed25519: ['x'] })
  })

  it('answers as the split-based parser on header-like and arbitrary text (property)', () => {
    const version = fc.constantFrom('v1', 'v1a', 'v2', 'v', 'v10', 'V1', '', 'v1a1', 'v1,')
    const sig = fc.oneof(b64, fc.constantFrom('', ',', 'a,b', '='), fc.string({ maxLength: 8 }))
    const item = fc.oneof(
      fc.tuple(version, sig).map(([v, s]) => `${v},${s}`),
      version,
      fc.string({ maxLength: 6 }),
    )
    const header = fc
      .tuple(fc.array(item, { maxLength: 5 }), fc.constantFrom(' ', '  '))
      .map(([items, gap]) => items.join(gap))
    const noise = fc.stringMatching(/^[v1a, A=]{0,24}$/)
    fc.assert(
      fc.property(fc.oneof(header, noise, fc.string({ maxLength: 40 })), (value) => {
        expect(parse(value)).toEqual(reference(value))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('encodedEqual', () => {
  const ENCODINGS = ['hex', 'base64', 'base64url'] as const
  /** What it replaced: the bytes encoded, then compared as strings. */
  const encode = (b: Uint8Array, encoding: (typeof ENCODINGS)[number]) =>
    encoding === 'hex' ? toHex(b) : encoding === 'base64' ? base64(b) : base64url(b)
  const reference = (text: string, b: Uint8Array, encoding: (typeof ENCODINGS)[number]) =>
    timingSafeEqual(text, encode(b, encoding))

  it('accepts the exact encoding of every byte value, in every alphabet position', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i)
    for (const encoding of ENCODINGS) {
      expect(encodedEqual(encode(all, encoding), all, encoding)).toBe(true)
      for (let n = 0; n <= 6; n++) {
        const b = all.slice(250 - n, 250)
        expect(encodedEqual(encode(b, encoding), b, encoding)).toBe(true)
      }
    }
  })

  it('refuses the near misses a forger sends: one character, case, padding, length', () => {
    const mac = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 3)
    const hex = toHex(mac)
    expect(encodedEqual(hex.toUpperCase(), mac, 'hex')).toBe(false)
    expect(encodedEqual(`${hex.slice(0, -1)}0`, mac, 'hex')).toBe(false)
    expect(encodedEqual(hex.slice(0, -2), mac, 'hex')).toBe(false)
    expect(encodedEqual(`${hex}00`, mac, 'hex')).toBe(false)
    expect(encodedEqual('', mac, 'hex')).toBe(false)
    const b64 = base64(mac)
    expect(b64.endsWith('=')).toBe(true)
    expect(encodedEqual(b64.slice(0, -1), mac, 'base64')).toBe(false)
    expect(encodedEqual(b64, mac, 'base64url')).toBe(false)
    // The same bytes in a non-canonical spelling (the unused low bits set) are refused.
    const last = b64.at(-2) as string
    const sibling = last === 'A' ? 'B' : 'A'
    expect(encodedEqual(`${b64.slice(0, -2)}${sibling}=`, mac, 'base64')).toBe(false)
  })

  it('answers as encoding the bytes and comparing the strings would (property)', () => {
    const text = (b: Uint8Array, encoding: (typeof ENCODINGS)[number]) =>
      fc.oneof(
        fc.constant(encode(b, encoding)),
        // The right text with one position changed to any character.
        fc
          .tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }))
          .map(([i, ch]) => {
            const s = encode(b, encoding)
            if (s.length === 0) return ch
            const at = i % s.length
            return s.slice(0, at) + ch + s.slice(at + 1)
          }),
        fc.constant(encode(b, encoding).toUpperCase()),
        fc.constant(encode(b, encoding).slice(1)),
        fc.constant(`${encode(b, encoding)}=`),
        fc.string({ maxLength: 90 }),
      )
    fc.assert(
      fc.property(
        fc.constantFrom(...ENCODINGS),
        fc.uint8Array({ maxLength: 70 }),
        fc.nat(),
        (encoding, b, seed) => {
          fc.assert(
            fc.property(text(b, encoding), (t) => {
              expect(encodedEqual(t, b, encoding)).toBe(reference(t, b, encoding))
            }),
            { numRuns: 8, seed },
          )
        },
      ),
      { numRuns: 200 },
    )
  })
})
