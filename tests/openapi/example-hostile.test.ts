/**
 * The example app is what users copy, so it is swept with hostile input on every recorded route:
 * malformed and lying bodies under every content type, duplicated and junk cookies, forged and
 * oversized tokens, spoofed client-IP headers, a lying Content-Length, cross-site Fetch Metadata,
 * broken percent-encoding and 2,000-parameter query strings. Every answer must be a clear 4xx (or
 * a 2xx where the route reads nothing the input could spoil); none may be a 5xx or a throw.
 */
import { generateApiKey } from '@palisade/middleware/api-key'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, PARTNER_KEY_PREFIX } from '../../examples/app'

const BODIES = [
  '{bad',
  '',
  'null',
  '[]',
  '"x"',
  '{"username":1,"password":[]}',
  '{"url":"http://[::1"}',
  '{"__proto__":{"x":1}}',
  '{"a":'.repeat(2_000),
  '\u0000\uffff',
  JSON.stringify({ text: 'x'.repeat(200_000) }),
]
const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'multipart/form-data; boundary=zz',
  'application/x-www-form-urlencoded',
  'application/json; charset=bogus',
  '',
]
const HEADERS: Record<string, string>[] = [
  { cookie: 'sid=junk; sid=also.junk; XSRF-TOKEN=; XSRF-TOKEN=%ZZ' },
  { cookie: `sid=${'a'.repeat(5_000)}` },
  { authorization: 'Bearer a.b.c' },
  { authorization: `Bearer ${'x'.repeat(20_000)}` },
  { authorization: 'Basic Zm9vOmJhcg==, Bearer x' },
  { 'x-forwarded-for': '1.2.3.4, , junk', 'cf-connecting-ip': '10.0.0.1' },
  { 'x-api-key': 'k\u00ff', 'x-request-id': 'a"b c' },
  { 'content-length': '3' },
  { origin: 'null', 'sec-fetch-site': 'cross-site' },
  { 'x-xsrf-token': 'x'.repeat(10_000) },
]
const QUERIES = ['', '?page=-1&limit=abc&limit=2', '?page=%ZZ', `?${'a=1&'.repeat(2_000)}`]

describe.each([
  ['memory stores', undefined],
  ['Redis stores', process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'],
])('the example app under hostile input (%s)', (_name, redisUrl) => {
  let app: Awaited<ReturnType<typeof createApp>>
  beforeAll(async () => {
    app = await createApp({
      RATE_LIMIT_MAX: '100000000',
      DEMO_API_KEY: generateApiKey(PARTNER_KEY_PREFIX),
      REDIS_URL: redisUrl,
    })
  })
  afterAll(async () => {
    await app?.close()
  })

  it('never answers 5xx nor throws, on any recorded route', async () => {
    const failures: string[] = []
    const statuses = new Map<number, number>()
    for (const route of app.api.routes) {
      const method = route.method === 'all' ? 'POST' : route.method.toUpperCase()
      // Path parameters get broken percent-encoding or a 300-character value.
      const path = route.path.replace(/:(\w+)(\{[^}]*\})?\??/g, (_m, name: string) =>
        name === 'id' ? '%ZZ' : 'x'.repeat(300),
      )
      const hasBody = method !== 'GET' && method !== 'HEAD'
      for (const query of QUERIES) {
        for (const headers of HEADERS) {
          for (const body of hasBody ? BODIES : [undefined]) {
            for (const type of hasBody ? CONTENT_TYPES : ['']) {
              const h = new Headers(headers)
              if (type) h.set('content-type', type)
              const label = `${method} ${path.slice(0, 40)}${query.slice(0, 20)} ${type} ${JSON.stringify(headers).slice(0, 50)} ${String(body).slice(0, 20)}`
              try {
                const res = await app.api.request(path + query, { method, headers: h, body })
                statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
                if (res.status >= 500) failures.push(`${label} → ${res.status}`)
              } catch (error) {
                failures.push(`${label} threw ${String(error)}`)
              }
            }
          }
        }
      }
    }
    expect(failures).toEqual([])
    // The sweep reached the checks it means to: validation, auth, csrf, body size and media type.
    for (const status of [400, 401, 403, 413, 415]) expect(statuses.get(status)).toBeGreaterThan(0)
  }, 120_000)
})
