// Hostile or broken JWKS contents, each as a JWKS object and served over loopback (one code path,
// two sources): a member that does not import beside a good one under the same kid, members
// whose key_ops or alg rule them out, and sets of the wrong shape (503 from a URL, a TypeError at
// construction for an object). Never a 500, never a key the set does not vouch for.
import type { Hono } from 'hono'
import type { JWK } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { jwksServers, signWith, type TestKey, testKey } from '../../test/jwks-server'
import { jwtApp as appWith, callBearer as call } from '../../test/jwt-app'
import { jwtAuth } from './index'

const serveJwks = jwksServers()

/** The set as an object and as served by a loopback server. */
async function apps(keys: unknown[]): Promise<Hono[]> {
  const s = await serveJwks(keys as JWK[])
  return [appWith({ jwks: { keys: keys as JWK[] } }), appWith({ jwks: s.jwksUrl })]
}
const statuses = async (list: Hono[], token: string) =>
  Promise.all(list.map(async (app) => (await call(app, token)).status))

/** `jwk` with its point moved off the curve: WebCrypto refuses to import it. */
const offCurve = (jwk: JWK): JWK => {
  const y = jwk.y as string
  return { ...jwk, y: `${y.slice(0, 10)}${y[10] === 'A' ? 'B' : 'A'}${y.slice(11)}` }
}

let good: TestKey
let stranger: TestKey
let other: TestKey
beforeAll(async () => {
  good = await testKey('ES256', 'a')
  stranger = await testKey('ES256', 'a')
  other = await testKey('ES256', 'b')
})

describe('jwtAuth over a JWKS with broken members', () => {
  it('verifies with the good member of a kid a broken member shares, in either order', async () => {
    const broken = offCurve(other.jwk)
    for (const keys of [
      [{ ...broken, kid: 'a' }, good.jwk],
      [good.jwk, { ...broken, kid: 'a' }],
    ]) {
      const list = await apps(keys)
      expect(await statuses(list, await signWith(good, { sub: 'u' }))).toEqual([200, 200])
      expect(await statuses(list, await signWith(stranger, { sub: 'u' }))).toEqual([401, 401])
    }
  })

  it('refuses, with 401, a token whose only key does not import', async () => {
    const list = await apps([offCurve(good.jwk), { ...good.jwk, kid: 'c', x: 'AAAA' }])
    expect(await statuses(list, await signWith(good, { sub: 'u' }))).toEqual([401, 401])
    expect(await statuses(list, await signWith(good, { sub: 'u' }, { kid: 'c' }))).toEqual([
      401, 401,
    ])
    expect(await statuses(list, await signWith(good, { sub: 'u' }, { kid: undefined }))).toEqual([
      401, 401,
    ])
  })

  it('skips broken members for a token without kid, and still finds the good one', async () => {
    const list = await apps([offCurve(other.jwk), offCurve(stranger.jwk), good.jwk])
    expect(await statuses(list, await signWith(good, { sub: 'u' }, { kid: undefined }))).toEqual([
      200, 200,
    ])
  })
})

describe('jwtAuth over a JWKS: members the set rules out', () => {
  it.each([
    ['key_ops without verify', { key_ops: ['sign'] }],
    ['key_ops naming verify twice', { key_ops: ['verify', 'verify'] }],
    ['key_ops as a string', { key_ops: 'verify' }],
    ['use "enc"', { use: 'enc' }],
    ['alg of another curve', { alg: 'ES384' }],
    ['alg of another family', { alg: 'RS256' }],
    ['an HMAC alg', { alg: 'HS256' }],
    ['alg none', { alg: 'none' }],
    ['ext that is not a boolean', { ext: 'true' }],
    ['crv of another curve', { crv: 'P-384' }],
    ['kty of another family', { kty: 'RSA' }],
  ])('never verifies with a member whose %s', async (_, change) => {
    const list = await apps([{ ...good.jwk, ...change }])
    expect(await statuses(list, await signWith(good, { sub: 'u' }))).toEqual([401, 401])
    expect(await statuses(list, await signWith(good, { sub: 'u' }, { kid: undefined }))).toEqual([
      401, 401,
    ])
  })

  it('verifies with a member whose key_ops allow verify, or that has neither use nor alg', async () => {
    const { use: _use, alg: _alg, ...bare } = good.jwk
    for (const jwk of [{ ...good.jwk, key_ops: ['verify'] }, bare]) {
      const list = await apps([jwk])
      expect(await statuses(list, await signWith(good, { sub: 'u' }))).toEqual([200, 200])
    }
  })
})

describe('jwtAuth over a JWKS of the wrong shape', () => {
  it.each([
    ['keys that is an object', {}],
    ['a null member', [null]],
    ['a number member', [1]],
    ['a string member', ['a']],
    ['an array member', [[]]],
  ])('answers 503 for a URL serving %s, and refuses it as an object', async (_, keys) => {
    const s = await serveJwks()
    s.keys = keys as JWK[]
    const app = appWith({ jwks: s.jwksUrl })
    const res = await call(app, await signWith(good, { sub: 'u' }))
    expect(res.status).toBe(503)
    expect(() => jwtAuth({ jwks: { keys: keys as JWK[] } })).toThrow(
      'jwtAuth: "jwks" must be a URL or a JWKS object ({ keys: [...] })',
    )
  })
})
