// The example app fuzzed from its own document, on the memory stores and on Redis, signed in
// (bearer token, API key, CSRF pair) so the handlers behind auth are reached too. Any finding is
// fixed in the example or the library, never filtered out here.
import { type FuzzAuth, type FuzzOperation, fuzz } from '@palisade/openapi/fuzz'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'

const API_KEY = 'demo-key-0123456789'

describe.each([
  ['memory stores', undefined],
  ['Redis stores', process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'],
])('fuzzing the example app (%s)', (_name, redisUrl) => {
  let app: Awaited<ReturnType<typeof createApp>>
  let auth: (op: FuzzOperation) => FuzzAuth
  beforeAll(async () => {
    app = await createApp({
      RATE_LIMIT_MAX: '100000000',
      DEMO_API_KEY: API_KEY,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `palisade-test:fuzz:${process.pid}:${Date.now()}:`,
    })
    const login = await app.api.request('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'fuzzer' }),
    })
    const { token } = (await login.json()) as { token: string }
    const csrf = await app.api.request('/forms/token')
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const cookie = /XSRF-TOKEN=([^;]+)/.exec(csrf.headers.get('set-cookie') ?? '')?.[1] ?? ''
    expect(cookie).not.toBe('')
    // What each scheme of the document asks for: the hook reads the operation's requirements.
    auth = (op) => {
      const schemes = new Set(op.security.flatMap((r) => Object.keys(r)))
      const headers: Record<string, string> = {}
      const cookies: Record<string, string> = {}
      if (schemes.has('bearerAuth')) headers.authorization = `Bearer ${token}`
      if (schemes.has('apiKeyHeader')) headers['x-api-key'] = API_KEY
      if (schemes.has('csrfToken')) {
        headers['x-xsrf-token'] = csrfToken
        cookies['XSRF-TOKEN'] = cookie
      }
      return { headers, cookies }
    }
  })
  afterAll(async () => {
    await app?.close()
  })

  it('answers every generated request as documented (signed in, from loopback)', async () => {
    const report = await fuzz(app.api, {
      seed: 2026,
      runs: 60,
      auth,
      headers: { 'x-forwarded-for': '127.0.0.1' },
    })
    console.log(
      `fuzz (${_name}): ${report.operations} operations, ${report.requests} requests, statuses ${JSON.stringify(report.statuses)}`,
    )
    expect(report.failures).toEqual([])
    const documented = Object.values(app.api.spec().paths).flatMap((item) => Object.keys(item))
    expect(report.operations).toBe(documented.length)
    expect(app.stores.kind).toBe(redisUrl ? 'redis' : 'memory')
    // Signed in, every operation's handler answers at least once, and near misses are refused.
    expect(report.statuses['200']).toBeGreaterThan(300)
    expect(report.statuses['201']).toBeGreaterThan(0)
    expect(report.statuses['400']).toBeGreaterThan(0)
    expect(report.statuses['415']).toBeGreaterThan(0)
  })

  it('answers as documented signed out, from an unknown address, too', async () => {
    const report = await fuzz(app.api, { seed: 7, runs: 25 })
    expect(report.failures).toEqual([])
    expect(report.statuses['401']).toBeGreaterThan(0)
    expect(report.statuses['403']).toBeGreaterThan(0)
  })
})
