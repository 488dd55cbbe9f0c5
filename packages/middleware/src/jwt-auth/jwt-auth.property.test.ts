// JWT segments through jwtAuth's public behaviour: a malformed or forged token is always a 401,
// never a 5xx, and a token signJwt made round-trips.
import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { base64urlText, headerValue } from '../../test/arbitraries'
import { base64url } from '../internal/crypto'
import { jwtAuth, signJwt } from './index'

const SECRET = new TextEncoder().encode('property-test-jwt-secret-0123456789abcdef')
const OTHER = new TextEncoder().encode('another-secret-of-enough-length-0123456789')

function app() {
  const a = new Hono()
  a.use('*', jwtAuth({ secret: SECRET }))
  a.get('/', (c) => c.json(c.get('jwtPayload')))
  return a
}

const b64json = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)))
const send = (a: Hono, authorization: string) => a.request('/', { headers: { authorization } })

describe('jwtAuth token parsing: properties', () => {
  it('answers any Authorization header without a valid token with 401', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(headerValue(), async (authorization) => {
        expect((await send(a, authorization)).status).toBe(401)
        expect((await send(a, `Bearer ${authorization}`)).status).toBe(401)
      }),
    )
  })

  it('answers any three base64url segments with 401', async () => {
    const a = app()
    const token = fc
      .tuple(base64urlText(), base64urlText(), base64urlText(), fc.constantFrom('.', '..'))
      .map(([h, p, s, dot]) => [h, p, s].join(dot))
    await fc.assert(
      fc.asyncProperty(token, async (t) => {
        expect((await send(a, `Bearer ${t}`)).status).toBe(401)
      }),
    )
  })

  it('answers JSON segments with any header and claims, unsigned or signed wrongly, with 401', async () => {
    const a = app()
    const header = fc.oneof(
      fc.record({
        alg: fc.constantFrom('HS256', 'none', 'HS512', 'RS256', 'hs256', ''),
        typ: fc.constant('JWT'),
      }),
      fc.jsonValue({ maxDepth: 2 }),
    )
    const claims = fc.oneof(
      fc.record({
        sub: fc.string(),
        exp: fc.oneof(fc.double(), fc.constantFrom('1e400', null, 'never'), fc.integer()),
        nbf: fc.oneof(fc.double(), fc.string()),
        iat: fc.oneof(fc.double(), fc.string()),
      }),
      fc.jsonValue({ maxDepth: 2 }),
    )
    await fc.assert(
      fc.asyncProperty(header, claims, base64urlText(), async (h, p, sig) => {
        expect((await send(a, `Bearer ${b64json(h)}.${b64json(p)}.${sig}`)).status).toBe(401)
      }),
    )
  })

  it('round-trips: a token signJwt made with the secret passes with its claims; one made with another secret does not', async () => {
    const a = app()
    const sub = fc.stringMatching(/^[A-Za-z0-9]{1,20}$/)
    await fc.assert(
      fc.asyncProperty(sub, async (s) => {
        const good = await signJwt({ sub: s }, SECRET, { expiresIn: '5m' })
        const res = await send(a, `Bearer ${good}`)
        expect(res.status).toBe(200)
        expect(((await res.json()) as { sub: string }).sub).toBe(s)
        const bad = await signJwt({ sub: s }, OTHER, { expiresIn: '5m' })
        expect((await send(a, `Bearer ${bad}`)).status).toBe(401)
      }),
      { numRuns: 30 },
    )
  })
})
