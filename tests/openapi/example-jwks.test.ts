// The example app as its own token issuer: ES256 access tokens from /api/token, verified by a
// JWKS-backed jwtAuth with a required scope on /api/reports; and how both packages document a
// JWKS-verified route (bearer with scopes, or OpenID Connect with discovery).
import { jwtAuth, problemHandler, signJwt } from '@palisade/middleware'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'
import type { OpenAPIDocument } from '../../packages/openapi/src'

let app: Awaited<ReturnType<typeof createApp>>
let doc: OpenAPIDocument
beforeAll(async () => {
  app = await createApp({})
  doc = app.api.spec()
})
afterAll(async () => {
  await app?.close()
})

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } })

describe('the example app issues and verifies access tokens through its JWKS', () => {
  it('publishes a JWKS with one public ES256 key', async () => {
    const res = await app.api.request('/.well-known/jwks.json')
    const { keys } = (await res.json()) as { keys: Record<string, string>[] }
    expect(keys).toHaveLength(1)
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', kid: 'example-1', alg: 'ES256' })
    expect(keys[0]).not.toHaveProperty('d')
  })

  it('answers /api/reports for a token from /api/token, and refuses the rest', async () => {
    const issued = await app.api.request('/api/token', json({ username: 'ada' }))
    const { token } = (await issued.json()) as { token: string }
    const ok = await app.api.request('/api/reports', bearer(token))
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ sub: 'ada', reports: ['q1', 'q2'] })

    // The HS256 login token is for /api/me: another key source, never accepted here.
    const login = await app.api.request('/api/login', json({ username: 'ada' }))
    const hs = ((await login.json()) as { token: string }).token
    expect((await app.api.request('/api/reports', bearer(hs))).status).toBe(401)
    expect((await app.api.request('/api/reports')).status).toBe(401)
  })

  it('documents the scope on the route, with 403 and 503 among its answers', () => {
    const op = doc.paths['/api/reports']?.get
    expect(op?.security).toEqual([{ bearerAuth: ['reports:read'] }])
    expect(Object.keys(op?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '401', '403', '503']),
    )
    expect(doc.components.securitySchemes?.bearerAuth).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: expect.stringMatching(/RFC8725/),
    })
  })
})

describe('a JWKS-verified route in the document', () => {
  it('with discovery: an openIdConnect scheme (or a pasted bearer token) with the scopes', async () => {
    const { privateKey, publicKey } = await crypto.subtle.generateKey(
      { name: 'ECDSA', namedCurve: 'P-384' },
      true,
      ['sign', 'verify'],
    )
    const api = openapi(new Hono(), { info: { title: 't', version: '1' } })
    api.onError(problemHandler())
    const issuer = 'https://tenant.auth0.com/'
    api.get('/items', (c) => c.json([]), {
      middlewares: [jwtAuth({ issuer, discovery: true, scopes: ['read:items'] })],
    })
    api.get('/local', (c) => c.json([]), {
      middlewares: [jwtAuth({ publicKey, scopes: ['a', 'b'] })],
    })
    const spec = api.spec()
    expect(spec.components.securitySchemes).toEqual({
      openIdConnect: {
        type: 'openIdConnect',
        openIdConnectUrl: 'https://tenant.auth0.com/.well-known/openid-configuration',
      },
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: expect.stringMatching(/RFC8725/),
      },
    })
    expect(spec.paths['/items']?.get?.security).toEqual([
      { openIdConnect: ['read:items'] },
      { bearerAuth: ['read:items'] },
    ])
    expect(spec.paths['/local']?.get?.security).toEqual([{ bearerAuth: ['a', 'b'] }])
    // The 403 answer of a token without the scope, as problem details.
    const token = await signJwt({ scope: 'a' }, privateKey, { expiresIn: '5m' })
    const res = await api.request('/local', bearer(token))
    expect(res.status).toBe(403)
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="a b"',
    )
    expect(await res.json()).toMatchObject({ status: 403, code: 'insufficient_scope' })
  })
})
