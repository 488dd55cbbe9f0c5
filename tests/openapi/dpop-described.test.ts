// jwtAuth with `dpop` in the OpenAPI document: the `DPoP` http scheme (RFC 9449), the `DPoP`
// request header, the 401 answers with WWW-Authenticate and DPoP-Nonce; a valid document.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { jwtAuth } from '../../packages/middleware/src/jwt-auth'
import { openapi } from '../../packages/openapi/src'
import { audit } from '../../packages/openapi/src/audit'
import { expectValidOpenAPI } from './validate'

async function documentWith(dpop: 'required' | 'allowed') {
  const { publicKey } = (await crypto.subtle.generateKey(
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign', 'verify'],
  )) as CryptoKeyPair
  const api = openapi(new Hono(), { info: { title: 'MCP', version: '1.0.0' } })
  api.post('/mcp', (c) => c.json({ ok: true }), {
    middlewares: [jwtAuth({ publicKey, dpop: { mode: dpop, nonce: {} } })],
    openapi: { responses: { 200: { description: 'OK' } } },
  })
  return api.spec()
}

describe('jwtAuth dpop in the document', () => {
  it('required: the dpopAuth scheme alone, the DPoP header required, 401 with both headers', async () => {
    const doc = await documentWith('required')
    await expectValidOpenAPI(doc)
    expect(doc.components?.securitySchemes?.dpopAuth).toMatchObject({
      type: 'http',
      scheme: 'DPoP',
      description: expect.stringContaining('RFC 9449'),
    })
    const op = doc.paths?.['/mcp']?.post
    expect(op?.security).toEqual([{ dpopAuth: [] }])
    expect(op?.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'DPoP', required: true }),
    )
    const unauthorized = op?.responses?.['401'] as { headers?: Record<string, unknown> }
    expect(Object.keys(unauthorized.headers ?? {})).toEqual(
      expect.arrayContaining(['WWW-Authenticate', 'DPoP-Nonce']),
    )
  })

  it('allowed: Bearer or DPoP', async () => {
    const doc = await documentWith('allowed')
    await expectValidOpenAPI(doc)
    expect(doc.paths?.['/mcp']?.post?.security).toEqual([{ bearerAuth: [] }, { dpopAuth: [] }])
  })
})

describe('palisade audit: a route that declares DPoP runs jwtAuth with dpop', () => {
  async function appWith(dpop: boolean) {
    const { publicKey } = (await crypto.subtle.generateKey(
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['sign', 'verify'],
    )) as CryptoKeyPair
    // Without dpop, the document knows the scheme only from the user's declaration (an undeclared
    // name is refused when the route is registered).
    const api = openapi(new Hono(), {
      info: { title: 'MCP', version: '1.0.0' },
      securitySchemes: { dpopAuth: { type: 'http', scheme: 'DPoP' } },
    })
    api.post('/mcp', (c) => c.json({ ok: true }), {
      middlewares: [jwtAuth(dpop ? { publicKey, dpop: 'required' } : { publicKey })],
      openapi: { security: [{ dpopAuth: [] }], responses: { 200: { description: 'OK' } } },
    })
    return api
  }

  it('finds the declared dpopAuth unenforced when jwtAuth takes plain bearer tokens', async () => {
    const findings = audit(await appWith(false)).filter((f) => f.path === '/mcp')
    expect(findings).toContainEqual(
      expect.objectContaining({
        rule: 'auth',
        severity: 'error',
        message: expect.stringContaining(
          'declares security dpopAuth but no middleware that enforces it runs',
        ),
      }),
    )
  })

  it('finds nothing to say about auth once jwtAuth verifies DPoP proofs', async () => {
    const findings = audit(await appWith(true)).filter((f) => f.path === '/mcp')
    expect(findings.filter((f) => f.rule === 'auth')).toEqual([])
  })
})
