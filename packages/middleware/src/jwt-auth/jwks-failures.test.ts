/**
 * What jwtAuth accepts from a JWKS or discovery URL, and how it reports the times it gets nothing
 * usable: against a real HTTP server on loopback and the platform's own fetch (a fake fetch would
 * not show what the request's `redirect` option does).
 */
import { Hono } from 'hono'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  type JwksServer,
  signWith,
  startJwksServer,
  type TestKey,
  testKey,
} from '../../test/jwks-server'
import { Rejection } from '../internal/rejection'
import { logger } from '../logger'
import { type JwtAuthOptions, jwtAuth } from './index'

const servers: JwksServer[] = []
async function server(keys: TestKey[] = []) {
  const s = await startJwksServer(keys.map((k) => k.jwk))
  servers.push(s)
  return s
}
afterEach(async () => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  await Promise.all(servers.splice(0).map((s) => s.close()))
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
