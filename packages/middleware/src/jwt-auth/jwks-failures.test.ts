/**
 * What jwtAuth accepts from a JWKS or discovery URL, and how it reports the times it gets nothing
 * usable: against a real HTTP server on loopback and the platform's own fetch (a fake fetch would
 * not show what the request's `redirect` option does).
 */
import { Hono } from 'hono'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { jwksServers, signWith, type TestKey, testKey } from '../../test/jwks-server'
import { Rejection } from '../internal/outcomes/rejection'
import { logger } from '../logger'
import { type JwtAuthOptions, jwtAuth } from './index'

const serveJwks = jwksServers()
const server = (keys: TestKey[] = []) => serveJwks(keys.map((k) => k.jwk))
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

function appWith(options: JwtAuthOptions, logLines?: string[]) {
  const app = new Hono()
  if (logLines) app.use(logger({ format: 'json', sink: (line) => logLines.push(line) }))
  app.use('/p/*', jwtAuth(options))
  app.get('/p/me', (c) => c.json(c.get('jwtPayload')))
  app.onError((err, c) =>
    err instanceof Rejection
      ? c.json({ code: err.code }, err.status, Object.fromEntries(err.getResponse().headers))
      : c.text('boom', 500),
  )
  return app
}
const call = (app: Hono, token: string) =>
  app.request('/p/me', { headers: { Authorization: `Bearer ${token}` } })
const codeOf = async (res: Response) => ((await res.json()) as { code?: string }).code

let rs256: TestKey
beforeAll(async () => {
  rs256 = await testKey('RS256', 'rsa-1')
})

describe('jwtAuth fetching keys: a 200 from the URL itself, nothing else', () => {
  it('serves the keys of a 200 (the control for the cases below)', async () => {
    const s = await server([rs256])
    s.mode = 200
    expect((await call(appWith({ jwks: s.jwksUrl }), await signWith(rs256, {}))).status).toBe(200)
  })

  it.each([301, 302, 303, 307, 308])(
    'never follows a %s to a JWKS elsewhere: 503, the target never asked',
    async (status) => {
      const s = await server([rs256])
      s.mode = status
      const res = await call(appWith({ jwks: s.jwksUrl }), await signWith(rs256, {}))
      expect(res.status).toBe(503)
      expect(await codeOf(res)).toBe('jwks_unavailable')
      expect(s.fetches).toBe(1)
      expect(s.movedFetches).toBe(0)
    },
  )

  it.each([201, 202, 203, 206, 226, 300])(
    'refuses a %s, even with a JWKS as its body: 503',
    async (status) => {
      const s = await server([rs256])
      s.mode = status
      const res = await call(appWith({ jwks: s.jwksUrl }), await signWith(rs256, {}))
      expect(res.status).toBe(503)
      expect(s.movedFetches).toBe(0)
    },
  )

  it.each([204, 205, 304])('refuses a %s (no body): 503', async (status) => {
    const s = await server([rs256])
    s.mode = status
    expect((await call(appWith({ jwks: s.jwksUrl }), await signWith(rs256, {}))).status).toBe(503)
  })
})

describe('jwtAuth reports why the key set is unavailable', () => {
  const T0 = Date.now()
  const at = (ms: number) => vi.setSystemTime(T0 + ms)
  const fakeDate = () => vi.useFakeTimers({ toFake: ['Date'], now: T0 })
  const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

  it('hands each 503 to onKeySetError with its cause and the request, instead of warning', async () => {
    const s = await server([rs256])
    s.mode = 'down'
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const seen: [string, string][] = []
    const app = appWith({
      jwks: s.jwksUrl,
      onKeySetError: (error, c) => seen.push([messageOf(error), c.req.path]),
    })
    const token = await signWith(rs256, {})
    for (let i = 0; i < 2; i++) expect((await call(app, token)).status).toBe(503)
    expect(seen).toHaveLength(2)
    for (const [message, path] of seen) {
      expect(message).toContain(s.jwksUrl)
      expect(message).toMatch(/answered 503/)
      expect(path).toBe('/p/me')
    }
    expect(warn).not.toHaveBeenCalled()
  })

  it('warns once per outage by default, naming the cause, and again in the next outage', async () => {
    fakeDate()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const s = await server([rs256])
    s.mode = 'down'
    const app = appWith({
      jwks: s.jwksUrl,
      jwksCache: { maxAgeMs: 10_000, cooldownMs: 5_000, maxStaleMs: 1 },
    })
    const token = await signWith(rs256, { exp: Math.floor(T0 / 1000) + 3600 })
    for (let i = 0; i < 3; i++) expect((await call(app, token)).status).toBe(503)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^jwtAuth: /)
    expect(String(warn.mock.calls[0]?.[0])).toContain(`${s.jwksUrl} answered 503`)
    // The provider is back: the outage is over.
    s.mode = 'ok'
    at(5_000)
    expect((await call(app, token)).status).toBe(200)
    // It fails again once the keys are past their max age: a new outage, a new warning.
    s.mode = 'not-json'
    at(15_001)
    expect((await call(app, token)).status).toBe(503)
    expect(warn).toHaveBeenCalledTimes(2)
    expect(String(warn.mock.calls[1]?.[0])).toMatch(/not JSON/)
  })

  it('names a provider that refuses connections', async () => {
    const s = await server([rs256])
    await s.close()
    const seen: string[] = []
    const app = appWith({ jwks: s.jwksUrl, onKeySetError: (error) => seen.push(messageOf(error)) })
    expect((await call(app, await signWith(rs256, {}))).status).toBe(503)
    expect(seen).toHaveLength(1)
    expect(seen[0]).toContain(s.jwksUrl)
    expect(seen[0]).toMatch(/ECONNREFUSED|fetch failed/)
  })

  it('says when the issuer differs from the discovery document only by a trailing slash', async () => {
    const s = await server([rs256])
    // The server's root discovery document names `${origin}/` (as Auth0's do); configured without.
    const seen: string[] = []
    const app = appWith({
      issuer: s.origin,
      discovery: true,
      onKeySetError: (error) => seen.push(messageOf(error)),
    })
    expect((await call(app, await signWith(rs256, { iss: s.origin }))).status).toBe(503)
    expect(seen[0]).toContain(`"${s.origin}/"`)
    expect(seen[0]).toMatch(/trailing slash/)
    expect(seen[0]).toContain(`issuer: "${s.origin}/"`)
    // Spelled as the provider spells it, the same issuer works.
    const fixed = appWith({ issuer: `${s.origin}/`, discovery: true })
    expect((await call(fixed, await signWith(rs256, { iss: `${s.origin}/` }))).status).toBe(200)
  })

  it('quotes what a discovery document says: a newline in it cannot forge a log line', async () => {
    const issuer = 'https://auth.example.com'
    const seen: string[] = []
    const app = appWith({
      issuer,
      discovery: true,
      fetch: async () => Response.json({ issuer: `${issuer}/\nlevel=error forged`, jwks_uri: 'x' }),
      onKeySetError: (error) => seen.push(messageOf(error)),
    })
    expect((await call(app, await signWith(rs256, { iss: issuer }))).status).toBe(503)
    expect(seen[0]).not.toContain('\n')
    expect(seen[0]).toContain('\\nlevel=error forged')
  })

  it.each([
    [
      'names another issuer',
      { issuer: 'https://evil.example', jwks_uri: 'x' },
      /names issuer "https:\/\/evil.example"/,
    ],
    ['has no jwks_uri', { issuer: 'ISSUER' }, /jwks_uri/],
    [
      'has an http jwks_uri off loopback',
      { issuer: 'ISSUER', jwks_uri: 'http://a.example/k' },
      /jwks_uri "http:\/\/a.example\/k"/,
    ],
  ])('names a discovery document that %s', async (_, doc, message) => {
    const issuer = 'https://auth.example.com'
    const body = JSON.parse(JSON.stringify(doc).replace('ISSUER', issuer))
    const seen: string[] = []
    const app = appWith({
      issuer,
      discovery: true,
      fetch: async () => Response.json(body),
      onKeySetError: (error) => seen.push(messageOf(error)),
    })
    expect((await call(app, await signWith(rs256, { iss: issuer }))).status).toBe(503)
    expect(seen[0]).toMatch(message)
    expect(seen[0]).toContain(`${issuer}/.well-known/openid-configuration`)
  })

  it('reports a request verified with stale keys during an outage (answered 200)', async () => {
    fakeDate()
    const s = await server([rs256])
    const seen: string[] = []
    const app = appWith({
      jwks: s.jwksUrl,
      jwksCache: { maxAgeMs: 10_000, cooldownMs: 5_000 },
      onKeySetError: (error) => seen.push(messageOf(error)),
    })
    const token = await signWith(rs256, { exp: Math.floor(T0 / 1000) + 3600 })
    expect((await call(app, token)).status).toBe(200)
    expect(seen).toEqual([])
    s.mode = 'down'
    at(10_000)
    expect((await call(app, token)).status).toBe(200)
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatch(/answered 503/)
    // Within the cooldown no fetch is tried, but the keys served are still the stale ones.
    expect((await call(app, token)).status).toBe(200)
    expect(seen).toHaveLength(2)
    expect(s.fetches).toBe(2)
  })

  it('reports a refetch for an unknown kid that fails (the token is refused as unknown)', async () => {
    fakeDate()
    const s = await server([rs256])
    const seen: string[] = []
    const app = appWith({ jwks: s.jwksUrl, onKeySetError: (error) => seen.push(messageOf(error)) })
    expect((await call(app, await signWith(rs256, {}))).status).toBe(200)
    s.mode = 'down'
    at(30_000)
    const rotated = await signWith({ ...rs256, kid: 'rsa-2' }, {})
    expect((await call(app, rotated)).status).toBe(401)
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatch(/answered 503/)
  })

  it('puts the cause in the decision record (the JSON log line)', async () => {
    const s = await server([rs256])
    s.mode = 'down'
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const lines: string[] = []
    const app = appWith({ jwks: s.jwksUrl }, lines)
    expect((await call(app, await signWith(rs256, {}))).status).toBe(503)
    const entry = JSON.parse(lines[0] as string) as { decisions: Record<string, unknown>[] }
    expect(entry.decisions).toEqual([
      expect.objectContaining({
        middleware: 'jwtAuth',
        outcome: 'reject',
        code: 'jwks_unavailable',
        status: 503,
        cause: expect.stringContaining(`${s.jwksUrl} answered 503`),
      }),
    ])
  })

  it('tells the client nothing of the cause', async () => {
    const s = await server([rs256])
    s.mode = 'down'
    const app = new Hono()
    app.use(jwtAuth({ jwks: s.jwksUrl, onKeySetError: () => {} }))
    app.get('/', (c) => c.text('ok'))
    const res = await app.request('/', {
      headers: { Authorization: `Bearer ${await signWith(rs256, {})}` },
    })
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('Service Unavailable')
  })

  it('answers 503, not 500, when onKeySetError itself throws', async () => {
    const s = await server([rs256])
    s.mode = 'down'
    const app = appWith({
      jwks: s.jwksUrl,
      onKeySetError: () => {
        throw new Error('broken hook')
      },
    })
    expect((await call(app, await signWith(rs256, {}))).status).toBe(503)
  })

  it('warns nothing while the keys are fetched and fresh', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const s = await server([rs256])
    const app = appWith({ jwks: s.jwksUrl })
    for (let i = 0; i < 3; i++)
      expect((await call(app, await signWith(rs256, {}))).status).toBe(200)
    expect(warn).not.toHaveBeenCalled()
  })

  it.each([
    [
      'a non-function',
      { jwks: 'https://a.example/jwks', onKeySetError: 'log' },
      /must be a function/,
    ],
    ['a secret', { secret: 'x'.repeat(32), onKeySetError: () => {} }, /apply only/],
    ['a JWKS object', { jwks: { keys: [] }, onKeySetError: () => {} }, /apply only/],
  ])('refuses onKeySetError with %s at construction', (_, options, message) => {
    expect(() => jwtAuth(options as JwtAuthOptions)).toThrow(message)
  })
})
