// The example app's document lists every security scheme and every middleware answer, derived
// from the middleware themselves: the app declares no response of its own with a 4xx or 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'
import type { OpenAPIDocument, OpenAPIPathItem } from '../../packages/openapi/src'

let app: Awaited<ReturnType<typeof createApp>>
let doc: OpenAPIDocument
beforeAll(async () => {
  app = await createApp({})
  doc = app.api.spec()
})
afterAll(async () => {
  await app?.close()
})

const op = (path: string, method: string): OpenAPIPathItem => {
  const found = doc.paths[path]?.[method]
  if (!found) throw new Error(`${method} ${path} is not documented`)
  return found
}
const statuses = (path: string, method: string) => Object.keys(op(path, method).responses)
const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } }

describe('the example document, from what its middleware describe', () => {
  it('declares no error response by hand, but the one a handler answers itself', () => {
    for (const route of app.api.routes) {
      // A comment that is not kept is the handler's own answer (problem details, as the rest).
      const own = route.openapi?.operationId === 'getComment' ? [404] : []
      const declared = Object.keys(route.openapi?.responses ?? {})
        .map(Number)
        .filter((s) => !own.includes(s))
      expect(
        declared.filter((s) => s >= 400),
        `${route.method} ${route.path}`,
      ).toEqual([])
    }
  })

  it('lists every scheme: bearer JWT, the API key header, the CSRF token header and the webhook signature', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: expect.stringMatching(/RFC8725/),
      },
      apiKeyHeader: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: expect.stringMatching(/^A checksummed key: `pal_demo_`, then 30 random/),
      },
      csrfToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-XSRF-Token',
        description: 'The value of the XSRF-TOKEN cookie (double submit)',
      },
      webhookStandardWebhooks: {
        type: 'apiKey',
        in: 'header',
        name: 'webhook-signature',
        description: expect.stringMatching(/^Standard Webhooks signature: .*replay/),
      },
    })
  })

  it('puts each scheme on the operations behind its middleware, and marks the rest public', () => {
    expect(op('/api/me', 'get').security).toEqual([{ bearerAuth: [] }])
    expect(op('/api/keys/whoami', 'get').security).toEqual([{ apiKeyHeader: [] }])
    expect(op('/forms/feedback', 'post').security).toEqual([{ csrfToken: [] }])
    expect(op('/webhooks/billing', 'post').security).toEqual([{ webhookStandardWebhooks: [] }])
    // csrf checks unsafe methods only.
    expect(op('/forms/token', 'get').security).toEqual([])
    expect(op('/health', 'get').security).toEqual([])
    expect(op('/api/comments', 'get').security).toEqual([])
  })

  it('documents each middleware answer as problem details with its headers', () => {
    const me = op('/api/me', 'get')
    expect(me.responses['401']?.content).toEqual(problem)
    expect(Object.keys(me.responses['401']?.headers ?? {})).toContain('WWW-Authenticate')
    expect(Object.keys(me.responses['429']?.headers ?? {})).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Remaining', 'X-Request-ID']),
    )
    expect(me.responses['408']?.description).toContain('request_timeout')
    expect(statuses('/admin/stats', 'get')).toContain('403')
    expect(statuses('/forms/feedback', 'post')).toContain('403')
    expect(statuses('/api/previews', 'post')).toEqual(
      expect.arrayContaining(['400', '403', '408', '413', '415', '429']),
    )
    expect(op('/api/previews', 'post').responses['400']?.description).toContain('url_invalid')
    expect(statuses('/api/comments', 'post')).toEqual(expect.arrayContaining(['400', '413', '415']))
    expect(op('/api/comments', 'post').responses['400']?.description).toContain('malformed_body')
    // bodyLimit and xssSanitize add nothing to a GET.
    expect(statuses('/api/comments', 'get')).not.toContain('413')
  })

  it('documents the headers middleware set on success', () => {
    const ok = op('/api/ping', 'get').responses['200']
    expect(Object.keys(ok?.headers ?? {})).toEqual(
      expect.arrayContaining([
        'X-Request-ID',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
      ]),
    )
    // /health is outside /api/*: request ID only.
    expect(Object.keys(op('/health', 'get').responses['200']?.headers ?? {})).toEqual([
      'X-Request-ID',
    ])
  })

  it('answers as documented: problem details with the code', async () => {
    const res = await app.api.request('/api/me')
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /)
    expect(res.headers.get('x-request-id')).toBeTruthy()
    expect(await res.json()).toMatchObject({ status: 401, code: 'token_missing' })
    const csrf = await app.api.request('/forms/feedback', { method: 'POST' })
    expect(csrf.status).toBe(403)
    expect(await csrf.json()).toMatchObject({ code: 'csrf_token_invalid' })
  })
})
