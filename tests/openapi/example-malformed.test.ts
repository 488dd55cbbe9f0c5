/**
 * Issue 12, point 6: every documented route of the example app, sent malformed JSON, wrongly
 * typed fields and missing fields, answers 4xx (never 5xx). Routes that document a request body,
 * query, path or header schema must reject such input; routes that take no input may answer 2xx
 * (they read nothing we could spoil), but none may fail with a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'
import { toOpenAPISchema } from '../../packages/openapi/src'

/** A value of another JSON type than the one a property schema asks for. */
function wrongType(schema: { type?: unknown }): unknown {
  return schema.type === 'string' ? 12345 : 'not-the-right-type'
}

function wrongBody(schema: unknown): Record<string, unknown> {
  const s = toOpenAPISchema(schema)
  const out: Record<string, unknown> = {}
  for (const [key, prop] of Object.entries(s.properties ?? {})) out[key] = wrongType(prop)
  return out
}

describe('the example app under malformed input', () => {
  let app: Awaited<ReturnType<typeof createApp>>
  beforeAll(async () => {
    app = await createApp({ RATE_LIMIT_MAX: '1000000' })
  })
  afterAll(async () => {
    await app?.close()
  })

  it('answers 4xx, never 5xx, to every documented route', async () => {
    expect(app.api.routes.length).toBeGreaterThanOrEqual(10)
    let checked = 0
    for (const route of app.api.routes) {
      const request = route.openapi?.request
      const method = route.method === 'all' ? 'POST' : route.method.toUpperCase()
      const path = route.path.replace(/:(\w+)(\{[^}]*\})?\??/g, 'x')
      const takesInput = request !== undefined && Object.keys(request).length > 0
      const cases: [string, RequestInit][] = [
        [
          'malformed JSON',
          { body: '{"unterminated": ', headers: { 'Content-Type': 'application/json' } },
        ],
        ['an empty JSON body', { body: '', headers: { 'Content-Type': 'application/json' } }],
        ['null', { body: 'null', headers: { 'Content-Type': 'application/json' } }],
        ['missing fields', { body: '{}', headers: { 'Content-Type': 'application/json' } }],
        [
          'wrong types',
          {
            body: JSON.stringify(request?.body ? wrongBody(request.body) : { x: 1 }),
            headers: { 'Content-Type': 'application/json' },
          },
        ],
        ['a non-JSON body', { body: 'username=ada', headers: { 'Content-Type': 'text/plain' } }],
      ]
      for (const [what, init] of cases) {
        const sendsBody = method !== 'GET' && method !== 'HEAD'
        const res = await app.api.request(path, {
          method,
          ...(sendsBody ? init : { headers: {} }),
        })
        const label = `${method} ${path} with ${what}: ${res.status}`
        expect(res.status, label).toBeLessThan(500)
        if (takesInput) {
          expect(res.status, label).toBeGreaterThanOrEqual(400)
        }
        checked++
      }
    }
    expect(checked).toBeGreaterThanOrEqual(60)
  })

  it('answers a bad login body with problem details naming the field', async () => {
    const res = await app.api.request('/api/login', {
      method: 'POST',
      body: JSON.stringify({ username: 42 }),
      headers: { 'Content-Type': 'application/json' },
    })
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    const problem = (await res.json()) as { errors: { in: string; path: string }[] }
    expect(problem.errors).toEqual([expect.objectContaining({ in: 'body', path: '/username' })])
  })

  it('still accepts a good comment and stores its HTML-encoded text', async () => {
    const res = await app.api.request('/api/comments', {
      method: 'POST',
      body: JSON.stringify({ author: 'Ada', text: '<b>hi</b>' }),
      headers: { 'Content-Type': 'application/json' },
    })
    expect(res.status).toBe(201)
    expect(((await res.json()) as { text: string }).text).toBe('&lt;b&gt;hi&lt;/b&gt;')
  })
})
