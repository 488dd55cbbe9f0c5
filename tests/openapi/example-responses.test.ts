/**
 * Issue 21, point 4: the example's document and runtime agree on responses. Every route declares
 * its success response with a schema; a field the handler adds without declaring it (the account's
 * `passwordHash`) never reaches the client in the default mode; and every answer the routes give,
 * to valid and invalid requests, has a status the document declares and a body its schema accepts.
 * A client built with `hc<AppType>` sees `rate_limited` on a 429 (checked by tsc and at run time).
 */

import { signWebhook } from '@palisade/middleware/webhook'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { hc } from 'hono/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppType, createApp } from '../../examples/app'

interface Operation {
  responses: Record<
    string,
    { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined
  >
}
interface Doc {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, unknown> }
}

describe('the example app responses', () => {
  let app: Awaited<ReturnType<typeof createApp>>
  let doc: Doc
  let token: string
  beforeAll(async () => {
    app = await createApp({ RATE_LIMIT_MAX: '1000' })
    doc = (await (await app.api.request('/openapi.json')).json()) as Doc
    const login = await app.api.request('/api/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'ada' }),
    })
    token = ((await login.json()) as { token: string }).token
  })
  afterAll(async () => {
    await app?.close()
  })

  it('declares a success response with a JSON schema on every route', () => {
    for (const route of app.api.routes) {
      const label = `${route.method} ${route.path}`
      const success = Object.entries(route.openapi?.responses ?? {}).filter(([s]) => s < '300')
      expect(success.length, label).toBeGreaterThan(0)
      for (const [, response] of success) expect(response.schema, label).toBeDefined()
    }
  })

  it('never sends the password hash the handler adds but Me does not declare', async () => {
    const res = await app.api.request('/api/me', { headers: { Authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ sub: 'ada', role: 'member' })
    expect(text).not.toMatch(/passwordHash|argon2/)
  })

  it('answers valid and invalid requests only with declared statuses and matching bodies', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    const auth = { Authorization: `Bearer ${token}` }
    const json = { 'Content-Type': 'application/json' }
    // Signed with the development secret the app falls back to (BILLING_WEBHOOK_SECRET unset).
    const secret = `whsec_${btoa('palisade-example-development-webhook-secret')}`
    const event = '{"type":"invoice.created","data":{"invoice":"in_1"}}'
    const signed = await signWebhook(event, { preset: 'standardWebhooks', secret })
    const badBody = await signWebhook('{"type":""}', { preset: 'standardWebhooks', secret })
    const requests: [string, string, RequestInit][] = [
      ['/', 'get', {}],
      ['/health', 'get', {}],
      ['/.well-known/jwks.json', 'get', {}],
      ['/api/token', 'post', { headers: json, body: '{"username":"ada"}' }],
      ['/api/token', 'post', { headers: json, body: '{"username":""}' }],
      ['/api/reports', 'get', {}],
      ['/api/reports', 'get', { headers: auth }],
      ['/api/ping', 'get', {}],
      ['/api/session/visit', 'get', {}],
      ['/api/login', 'post', { headers: json, body: '{"username":"ada"}' }],
      ['/api/login', 'post', { headers: json, body: '{"username":""}' }],
      ['/api/login', 'post', { headers: json, body: '{' }],
      ['/api/login', 'post', { headers: { 'Content-Type': 'text/plain' }, body: 'x' }],
      ['/api/me', 'get', { headers: auth }],
      ['/api/me', 'get', {}],
      ['/api/me', 'get', { headers: { Authorization: 'Bearer nope' } }],
      ['/api/keys/whoami', 'get', {}],
      ['/api/keys/whoami', 'get', { headers: { 'X-API-Key': 'wrong' } }],
      ['/api/comments', 'get', {}],
      ['/api/comments', 'post', { headers: json, body: '{"author":"Ada","text":"<b>hi</b>"}' }],
      ['/api/comments', 'post', { headers: json, body: '{"author":""}' }],
      ['/api/comments/1', 'get', {}],
      ['/api/comments/999', 'get', {}],
      ['/api/comments/x', 'get', {}],
      ['/api/previews', 'post', { headers: json, body: '{"url":"https://example.com/"}' }],
      ['/api/previews', 'post', { headers: json, body: '{"url":"http://127.0.0.1/"}' }],
      ['/api/previews', 'post', { headers: json, body: '{"url":"nope"}' }],
      ['/forms/token', 'get', {}],
      ['/forms/feedback', 'post', {}],
      ['/admin/stats', 'get', {}],
      ['/webhooks/billing', 'post', { headers: { ...json, ...signed.headers }, body: event }],
      ['/webhooks/billing', 'post', { headers: { ...json, ...signed.headers }, body: event }],
      ['/webhooks/billing', 'post', { headers: json, body: event }],
      [
        '/webhooks/billing',
        'post',
        { headers: { ...json, ...badBody.headers }, body: '{"type":""}' },
      ],
    ]
    // The one route with a path parameter: a request path to its route and its template.
    const route = (path: string) => path.replace(/^\/api\/comments\/[^/]+$/, '/api/comments/:id')
    const template = (path: string) => route(path).replace(':id', '{id}')
    // Every recorded route is exercised.
    const covered = new Set(requests.map(([path, method]) => `${method} ${route(path)}`))
    for (const r of app.api.routes) expect(covered).toContain(`${r.method} ${r.path}`)
    for (const [path, method, init] of requests) {
      const label = `${method.toUpperCase()} ${path} ${String(init.body ?? '')}`
      const res = await app.api.request(path, { method: method.toUpperCase(), ...init })
      const op = doc.paths[template(path)]?.[method]
      expect(op, label).toBeDefined()
      const declared =
        op?.responses[String(res.status)] ?? op?.responses[`${String(res.status)[0]}XX`]
      expect(declared, `${label}: status ${res.status}`).toBeDefined()
      const media = (res.headers.get('content-type') ?? '').split(';')[0] as string
      const schema = declared?.content?.[media]?.schema
      if (schema === undefined) continue
      const body = media.endsWith('json') ? await res.json() : await res.text()
      // Beside the schema, so its `#/components/schemas/…` references resolve.
      const valid = ajv.validate({ ...schema, components: doc.components }, body)
      expect(valid, `${label}: ${ajv.errorsText()}`).toBe(true)
    }
  })

  it('gives an hc<AppType> client the 429 as problem details whose code is rate_limited', async () => {
    const limited = await createApp({ RATE_LIMIT_MAX: '1' })
    try {
      const client = hc<AppType>('http://localhost', {
        fetch: (input: RequestInfo | URL, init?: RequestInit) =>
          limited.api.request(input instanceof Request ? input : String(input), init),
      })
      const first = await client.api.ping.$get()
      expect(first.status).toBe(200)
      if (first.status === 200) expect((await first.json()).pong).toBe(true)
      const res = await client.api.ping.$get()
      expect(res.status).toBe(429)
      if (res.status === 429) {
        const problem = await res.json()
        // Typed: the only code rateLimit answers 429 with.
        const code: 'rate_limited' = problem.code
        expect(code).toBe('rate_limited')
        expect(problem.status).toBe(429)
      }
    } finally {
      await limited.close()
    }
  })
})
