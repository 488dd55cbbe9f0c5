import { getMiddlewareDescription } from '@palisade/shared/describe'
import { Hono } from 'hono'
import { exportJWK, exportSPKI, importJWK, base64url as joseB64, SignJWT } from 'jose'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { jwksServers, signWith, type TestKey, testKey } from '../../test/jwks-server'
import { JWKS_MAX_BYTES, JWKS_MAX_KEYS, type JwksFetch } from '../internal/keys/jwks'
import { Rejection } from '../internal/outcomes/rejection'
import { type JwtAuthOptions, jwtAuth } from './index'
import { ASYMMETRIC_ALGORITHMS } from './keys'
import { MAX_CANDIDATE_KEYS } from './verifier'

const serveJwks = jwksServers()
const server = (keys: TestKey[] = []) => serveJwks(keys.map((k) => k.jwk))
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

function appWith(options: JwtAuthOptions) {
  const app = new Hono()
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
let es256: TestKey
beforeAll(async () => {
  rs256 = await testKey('RS256', 'rsa-1')
  es256 = await testKey('ES256', 'ec-1')
})

describe('jwtAuth with a JWKS: every algorithm', () => {
  // One key per algorithm for both tables (RSA key generation is slow on a loaded machine).
  const keys = new Map<string, Promise<TestKey>>()
  const keyFor = (alg: (typeof ASYMMETRIC_ALGORITHMS)[number]) => {
    if (!keys.has(alg)) keys.set(alg, testKey(alg, `kid-${alg}`))
    return keys.get(alg) as Promise<TestKey>
  }

  it.each(ASYMMETRIC_ALGORITHMS)(
    'verifies %s from a JWKS served on loopback',
    async (alg) => {
      const key = await keyFor(alg)
      const s = await server([rs256, key])
      const app = appWith({ jwks: s.jwksUrl })
      const res = await call(app, await signWith(key, { sub: alg }))
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ sub: alg })
    },
    30_000,
  )

  it.each(ASYMMETRIC_ALGORITHMS)(
    'verifies %s with publicKey as CryptoKey, JWK and PEM',
    async (alg) => {
      const key = await keyFor(alg)
      const token = await signWith(key, { sub: 'u' })
      for (const publicKey of [key.publicKey, key.jwk, await exportSPKI(key.publicKey)]) {
        const app = appWith({ publicKey, algorithms: [alg] })
        expect((await call(app, token)).status).toBe(200)
      }
    },
    30_000,
  )

  it('verifies from a local JWKS object without any fetch', async () => {
    const app = appWith({ jwks: { keys: [rs256.jwk, es256.jwk] } })
    expect((await call(app, await signWith(es256, { sub: 'u' }))).status).toBe(200)
    expect((await call(app, await signWith(rs256, { sub: 'u' }))).status).toBe(200)
  })

  it('fetches nothing at construction, and the JWKS once on first use', async () => {
    const s = await server([rs256])
    const app = appWith({ jwks: s.jwksUrl })
    expect(s.fetches).toBe(0)
    const token = await signWith(rs256, { sub: 'u' })
    for (let i = 0; i < 5; i++) expect((await call(app, token)).status).toBe(200)
    expect((await call(app, await signWith(rs256, { sub: 'other' }))).status).toBe(200)
    expect(s.fetches).toBe(1)
  })

  it('tries each key that fits a token without kid, and verifies with the right one', async () => {
    const other = await testKey('RS256', 'rsa-2')
    const s = await server([other, rs256])
    const app = appWith({ jwks: s.jwksUrl })
    const token = await signWith(rs256, { sub: 'u' }, { kid: undefined })
    expect((await call(app, token)).status).toBe(200)
  })
})

describe('jwtAuth with a JWKS: a token without kid', () => {
  // 60 keys that all fit an ES256 token without kid (EC keys: quick to make).
  let many: TestKey[]
  beforeAll(async () => {
    many = await Promise.all(Array.from({ length: 60 }, (_, i) => testKey('ES256', `ec-${i}`)))
  })
  const sources = async (): Promise<[string, JwtAuthOptions['jwks']][]> => [
    ['a JWKS object', { keys: many.map((k) => k.jwk) }],
    ['a JWKS URL', (await server(many)).jwksUrl],
  ]

  it(`tries at most ${MAX_CANDIDATE_KEYS} keys, however many fit: verifies and imports`, async () => {
    const attacker = await testKey('ES256', 'x')
    const token = await signWith(attacker, { sub: 'admin' }, { kid: undefined })
    for (const [, jwks] of await sources()) {
      const app = appWith({ jwks })
      // The URL's first fetch imports nothing (keys are imported when a token needs them).
      const verify = vi.spyOn(crypto.subtle, 'verify')
      const importKey = vi.spyOn(crypto.subtle, 'importKey')
      const res = await call(app, token)
      expect(res.status).toBe(401)
      expect(verify).toHaveBeenCalledTimes(MAX_CANDIDATE_KEYS)
      expect(importKey.mock.calls.length).toBeLessThanOrEqual(MAX_CANDIDATE_KEYS)
      vi.restoreAllMocks()
    }
  })

  it('verifies with a key within the cap, and not with one beyond it', async () => {
    for (const [label, jwks] of await sources()) {
      const app = appWith({ jwks })
      const within = await signWith(many[MAX_CANDIDATE_KEYS - 1] as TestKey, {}, { kid: undefined })
      const beyond = await signWith(many[MAX_CANDIDATE_KEYS + 5] as TestKey, {}, { kid: undefined })
      expect([label, (await call(app, within)).status]).toEqual([label, 200])
      expect([label, (await call(app, beyond)).status]).toEqual([label, 401])
      // With its kid, the key beyond the cap is found directly.
      const named = await signWith(many[MAX_CANDIDATE_KEYS + 5] as TestKey, {})
      expect([label, (await call(app, named)).status]).toEqual([label, 200])
    }
  })
})

describe('jwtAuth with public keys: algorithm confusion', () => {
  const hs256 = async (key: Uint8Array<ArrayBuffer>, payload: object, header: object = {}) => {
    const h = joseB64.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT', ...header }))
    const p = joseB64.encode(JSON.stringify(payload))
    const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ])
    const sig = await crypto.subtle.sign('HMAC', k, new TextEncoder().encode(`${h}.${p}`))
    return `${h}.${p}.${joseB64.encode(new Uint8Array(sig))}`
  }

  it('rejects an HS256 token MACed with the public key bytes (PEM, JWK JSON, modulus)', async () => {
    const pem = await exportSPKI(rs256.publicKey)
    const s = await server([rs256])
    const apps = [
      appWith({ publicKey: pem }),
      appWith({ publicKey: rs256.jwk }),
      appWith({ publicKey: rs256.publicKey }),
      appWith({ jwks: s.jwksUrl }),
      appWith({ jwks: { keys: [rs256.jwk] } }),
    ]
    const enc = new TextEncoder()
    const forged = [
      await hs256(enc.encode(pem), { sub: 'admin' }, { kid: 'rsa-1' }),
      await hs256(enc.encode(JSON.stringify(rs256.jwk)), { sub: 'admin' }, { kid: 'rsa-1' }),
      await hs256(
        new Uint8Array(joseB64.decode(rs256.jwk.n as string)),
        { sub: 'admin' },
        { kid: 'rsa-1' },
      ),
    ]
    for (const app of apps) {
      for (const token of forged) expect((await call(app, token)).status).toBe(401)
    }
  })

  it('rejects a token whose alg does not fit the key type (RS256 header, EC key kid)', async () => {
    const s = await server([rs256, es256])
    const app = appWith({ jwks: s.jwksUrl })
    // Signed by the RSA key but pointing at the EC key: the EC key never serves RS256.
    const token = await signWith(rs256, { sub: 'u' }, { kid: 'ec-1' })
    expect((await call(app, token)).status).toBe(401)
  })

  it("rejects a token whose alg differs from the JWK's alg (PS256 with an RS256 key)", async () => {
    // The same RSA key material, imported for RSA-PSS.
    const ps = {
      ...rs256,
      alg: 'PS256' as const,
      privateKey: (await importJWK(await exportJWK(rs256.privateKey), 'PS256')) as CryptoKey,
    }
    const s = await server([rs256])
    const app = appWith({ jwks: s.jwksUrl })
    expect((await call(app, await signWith(ps, { sub: 'u' }))).status).toBe(401)
    // The same signature is fine where the JWK names no alg and PS256 is allowed.
    const lax = appWith({
      jwks: { keys: [{ ...rs256.jwk, alg: undefined }] },
      algorithms: ['PS256'],
    })
    expect((await call(lax, await signWith(ps, { sub: 'u' }))).status).toBe(200)
  })

  it('never uses a JWK whose use is not "sig"', async () => {
    const s = await server([])
    s.keys = [{ ...rs256.jwk, use: 'enc' }]
    const app = appWith({ jwks: s.jwksUrl })
    expect((await call(app, await signWith(rs256, { sub: 'u' }))).status).toBe(401)
  })

  it('never verifies with an encryption key of a JWKS object, nor with an oct key a URL serves', async () => {
    const token = await signWith(rs256, { sub: 'u' })
    // A JWKS object may list encryption keys beside signing ones (Keycloak's does): never used.
    const local = appWith({ jwks: { keys: [{ ...rs256.jwk, use: 'enc' }, es256.jwk] } })
    expect((await call(local, token)).status).toBe(401)
    // A URL serving a symmetric key: an HS256 token MACed with it, naming its kid, is refused.
    const secret = crypto.getRandomValues(new Uint8Array(32))
    const s = await server([rs256])
    s.keys = [{ kty: 'oct', kid: 'h', alg: 'HS256', k: joseB64.encode(secret) }, rs256.jwk]
    const hs = await new SignJWT({ sub: 'admin', exp: Math.floor(Date.now() / 1000) + 60 })
      .setProtectedHeader({ alg: 'HS256', kid: 'h', typ: 'JWT' })
      .sign(secret)
    const remote = appWith({ jwks: s.jwksUrl })
    expect((await call(remote, hs)).status).toBe(401)
    expect((await call(remote, token)).status).toBe(200)
  })

  it('rejects alg none and HS256 on a JWKS instance', async () => {
    const s = await server([rs256])
    const app = appWith({ jwks: s.jwksUrl })
    const p = joseB64.encode(JSON.stringify({ sub: 'admin' }))
    const none = `${joseB64.encode(JSON.stringify({ alg: 'none', kid: 'rsa-1' }))}.${p}.`
    expect((await call(app, none)).status).toBe(401)
  })

  it('ignores jku, x5u and jwk headers: they are never fetched nor trusted', async () => {
    const attacker = await testKey('RS256', 'rsa-1')
    const evil = await server([attacker])
    const s = await server([rs256])
    const app = appWith({ jwks: s.jwksUrl })
    const token = await signWith(
      attacker,
      { sub: 'admin' },
      {
        jku: evil.jwksUrl,
        x5u: `${evil.origin}/cert.pem`,
        jwk: attacker.jwk,
      },
    )
    expect((await call(app, token)).status).toBe(401)
    expect(evil.fetches).toBe(0)
    // An embedded jwk alone, without a key source that knows it, is not trusted either.
    const embedded = appWith({ publicKey: rs256.jwk })
    expect((await call(embedded, token)).status).toBe(401)
  })

  it.each([
    [
      'secret and jwks',
      { secret: 'x'.repeat(32), jwks: 'https://a.example/jwks' },
      /exactly one key source/,
    ],
    ['publicKey and jwks', { publicKey: 'x', jwks: { keys: [] } }, /exactly one key source/],
    [
      'HS256 with a JWKS',
      { jwks: 'https://a.example/jwks', algorithms: ['HS256'] },
      /HMAC needs "secret"/,
    ],
    ['RS256 with a secret', { secret: 'x'.repeat(32), algorithms: ['RS256'] }, /HMAC only/],
    ['an RSA alg for an EC key', { publicKey: 'EC', algorithms: ['RS256'] }, /does not fit/],
    [
      'a private JWK as publicKey',
      { publicKey: { kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' } },
      /private JWK/,
    ],
    ['a symmetric JWK as publicKey', { publicKey: { kty: 'oct', k: 'abc' } }, /"secret"/],
    [
      'a private PEM',
      { publicKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' },
      /private key PEM/,
    ],
    ['discovery without issuer', { discovery: true }, /needs "issuer"/],
    [
      'discovery with an issuer list',
      { discovery: true, issuer: ['https://a', 'https://b'] },
      /needs "issuer"/,
    ],
    [
      'jwksCache with a secret',
      { secret: 'x'.repeat(32), jwksCache: { maxAgeMs: 1 } },
      /apply only/,
    ],
    ['a zero maxAgeMs', { jwks: 'https://a.example/jwks', jwksCache: { maxAgeMs: 0 } }, /maxAgeMs/],
    [
      'an unknown jwksCache key',
      { jwks: 'https://a.example/jwks', jwksCache: { maxAge: 1 } },
      /unknown option/,
    ],
    ['a scope with a quote', { jwks: 'https://a.example/jwks', scopes: ['a"b'] }, /scope tokens/],
    [
      'a private key in a JWKS object',
      { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' }] } },
      /public keys only/,
    ],
    [
      'a symmetric key in a JWKS object',
      { jwks: { keys: [{ kty: 'oct', k: 'abc' }] } },
      /public keys only/,
    ],
    [
      'a symmetric key without k in a JWKS object',
      { jwks: { keys: [{ kty: 'oct', kid: 'h', alg: 'HS256' }] } },
      /public keys only/,
    ],
    [
      'a symmetric key among public keys in a JWKS object',
      {
        jwks: {
          keys: [
            { kty: 'EC', crv: 'P-256', x: 'a', y: 'b', kid: 'e' },
            { kty: 'oct', kid: 'h', use: 'sig' },
          ],
        },
      },
      /public keys only/,
    ],
    [
      'an encryption JWK as publicKey (use: enc)',
      { publicKey: { kty: 'EC', crv: 'P-256', x: 'a', y: 'b', use: 'enc' } },
      /use "enc", not "sig"/,
    ],
    [
      'a JWK as publicKey whose key_ops do not allow verify',
      { publicKey: { kty: 'EC', crv: 'P-256', x: 'a', y: 'b', key_ops: ['encrypt'] } },
      /key_ops/,
    ],
    [
      'claims on iss',
      { jwks: 'https://a.example/jwks', claims: { iss: 'x' } },
      /option of that claim/,
    ],
  ])('throws a TypeError at construction for %s', async (_, options, message) => {
    let opts = options as Record<string, unknown>
    if (opts.publicKey === 'EC') opts = { ...opts, publicKey: es256.publicKey }
    expect(() => jwtAuth(opts as JwtAuthOptions)).toThrow(TypeError)
    expect(() => jwtAuth(opts as JwtAuthOptions)).toThrow(message)
  })

  it('refuses a private CryptoKey as publicKey', () => {
    expect(() => jwtAuth({ publicKey: rs256.privateKey })).toThrow(
      /public CryptoKey, got a private/,
    )
  })
})

describe('jwtAuth with a JWKS: https only, except loopback', () => {
  it.each([
    'http://example.com/jwks.json',
    'http://10.0.0.1/jwks.json',
    'http://169.254.169.254/jwks.json',
    'http://[::2]/jwks.json',
    'http://localhost.evil.com/jwks.json',
    'ftp://127.0.0.1/jwks.json',
    'https://user:pw@auth.example.com/jwks.json',
    'not a url',
  ])('refuses %s at construction', (url) => {
    expect(() => jwtAuth({ jwks: url })).toThrow(/https URL/)
    expect(() => jwtAuth({ issuer: url, discovery: true })).toThrow(/https URL/)
  })

  it.each([
    'https://auth.example.com/.well-known/jwks.json',
    'http://localhost:8080/jwks.json',
    'http://127.0.0.1/jwks.json',
    'http://127.9.8.7/jwks.json',
    'http://[::1]:3000/jwks.json',
  ])('accepts %s', (url) => {
    expect(() => jwtAuth({ jwks: url })).not.toThrow()
    expect(() => jwtAuth({ jwks: new URL(url) })).not.toThrow()
  })
})

describe('jwtAuth with a JWKS: the cache', () => {
  const T0 = Date.now()
  const at = (ms: number) => vi.setSystemTime(T0 + ms)
  const fakeDate = () => vi.useFakeTimers({ toFake: ['Date'], now: T0 })

  it('picks up a new kid with one fetch, and at most one refetch per cooldown', async () => {
    fakeDate()
    const s = await server([rs256])
    const app = appWith({ jwks: s.jwksUrl, jwksCache: { cooldownMs: 30_000 } })
    expect((await call(app, await signWith(rs256, { sub: 'u' }))).status).toBe(200)
    const next = await testKey('RS256', 'rsa-next')
    s.keys = [rs256.jwk, next.jwk]
    const fresh = await signWith(next, { sub: 'rotated' }, { exp: undefined })
    // Within the cooldown an unknown kid is just an unknown kid: no fetch.
    at(10_000)
    expect((await call(app, fresh)).status).toBe(401)
    expect(s.fetches).toBe(1)
    at(30_000)
    expect((await call(app, fresh)).status).toBe(200)
    expect(s.fetches).toBe(2)
    // Random kids after that: one fetch per cooldown at most.
    for (let i = 0; i < 20; i++) {
      const junk = await signWith({ ...next, kid: `junk-${i}` }, { sub: 'x' })
      expect((await call(app, junk)).status).toBe(401)
    }
    expect(s.fetches).toBe(2)
    at(61_000)
    expect((await call(app, await signWith({ ...next, kid: 'junk' }, { sub: 'x' }))).status).toBe(
      401,
    )
    expect(s.fetches).toBe(3)
  })

  it('stops verifying a removed key after max age, also a remembered token', async () => {
    fakeDate()
    const s = await server([rs256, es256])
    const app = appWith({ jwks: s.jwksUrl, jwksCache: { maxAgeMs: 60_000 } })
    const token = await signWith(rs256, { sub: 'u', exp: Math.floor(T0 / 1000) + 86_400 })
    expect((await call(app, token)).status).toBe(200)
    s.keys = [es256.jwk]
    at(59_000)
    expect((await call(app, token)).status).toBe(200)
    expect(s.fetches).toBe(1)
    at(60_000)
    expect((await call(app, token)).status).toBe(401)
    expect(s.fetches).toBe(2)
    expect((await call(app, await signWith(es256, { sub: 'u' }))).status).toBe(200)
  })

  it('forgets remembered tokens when an unknown kid refetches the set: a removed key stops verifying', async () => {
    fakeDate()
    const s = await server([rs256, es256])
    // Max age 10 minutes: everything below happens well within it.
    const app = appWith({ jwks: s.jwksUrl })
    const old = await signWith(es256, { sub: 'u', exp: Math.floor(T0 / 1000) + 86_400 })
    expect((await call(app, old)).status).toBe(200)
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect((await call(app, old)).status).toBe(200)
    expect(verify).not.toHaveBeenCalled() // remembered
    // The provider rotates: es256 is withdrawn (compromised, say) and a new key published.
    const next = await testKey('ES256', 'ec-next')
    s.keys = [rs256.jwk, next.jwk]
    at(30_000)
    expect((await call(app, await signWith(next, { sub: 'n' }))).status).toBe(200)
    expect(s.fetches).toBe(2)
    // The remembered token was verified under the old set: it is checked again, and refused.
    expect((await call(app, old)).status).toBe(401)
    expect(s.fetches).toBe(2)
    expect((await call(app, await signWith(rs256, { sub: 'r' }))).status).toBe(200)
  })

  it('serves stale keys through an outage up to maxStaleMs, then 503 jwks_unavailable', async () => {
    fakeDate()
    const s = await server([rs256])
    const app = appWith({
      jwks: s.jwksUrl,
      jwksCache: { maxAgeMs: 60_000, cooldownMs: 10_000, maxStaleMs: 120_000 },
    })
    const token = await signWith(rs256, { sub: 'u', exp: Math.floor(T0 / 1000) + 86_400 })
    expect((await call(app, token)).status).toBe(200)
    s.mode = 'down'
    at(60_000)
    expect((await call(app, token)).status).toBe(200)
    expect(s.fetches).toBe(2)
    // During the cooldown after a failure, requests are served stale without another fetch.
    for (let i = 0; i < 10; i++) expect((await call(app, token)).status).toBe(200)
    expect(s.fetches).toBe(2)
    at(179_999)
    expect((await call(app, token)).status).toBe(200)
    expect(s.fetches).toBe(3)
    at(180_000)
    const res = await call(app, token)
    expect(res.status).toBe(503)
    expect(await codeOf(res)).toBe('jwks_unavailable')
    expect(res.headers.get('retry-after')).toBe('10')
    // The provider is back: the next attempt after the cooldown serves fresh keys again.
    s.mode = 'ok'
    at(200_000)
    expect((await call(app, token)).status).toBe(200)
  })

  it('answers 503 when the first fetch fails, and retries only after the cooldown', async () => {
    fakeDate()
    const s = await server([rs256])
    s.mode = 'down'
    const app = appWith({ jwks: s.jwksUrl, jwksCache: { cooldownMs: 5_000 } })
    const token = await signWith(rs256, { sub: 'u' })
    for (let i = 0; i < 5; i++) expect((await call(app, token)).status).toBe(503)
    expect(s.fetches).toBe(1)
    s.mode = 'ok'
    at(5_000)
    expect((await call(app, token)).status).toBe(200)
    expect(s.fetches).toBe(2)
  })

  it('remembers verified tokens: a returning token runs no WebCrypto verify while keys are fresh', async () => {
    const s = await server([es256])
    const app = appWith({ jwks: s.jwksUrl })
    const token = await signWith(es256, { sub: 'u' })
    const verify = vi.spyOn(crypto.subtle, 'verify')
    for (let i = 0; i < 3; i++) expect((await call(app, token)).status).toBe(200)
    expect(verify).toHaveBeenCalledTimes(1)
  })

  it('checks a refused token again once the key set changes', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
    // The provider signs with a new key under the kid the JWKS still serves the old key for.
    const rotated = await testKey('ES256', es256.jwk.kid as string)
    const s = await server([es256])
    const app = appWith({ jwks: s.jwksUrl, jwksCache: { maxAgeMs: 60_000 } })
    const token = await signWith(rotated, { sub: 'u' })
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await codeOf(await call(app, token))).toBe('token_invalid')
    expect(await codeOf(await call(app, token))).toBe('token_invalid')
    expect(verify).toHaveBeenCalledTimes(1)
    // The JWKS now serves the new key; past max age it is fetched again, and the token passes.
    s.keys = [rotated.jwk]
    vi.setSystemTime(Date.now() + 60_001)
    expect((await call(app, token)).status).toBe(200)
    expect(s.fetches).toBe(2)
  })

  it('shares one cache between two middleware on the same URL and settings', async () => {
    const s = await server([rs256])
    const a = appWith({ jwks: s.jwksUrl, audience: 'a' })
    const b = appWith({ jwks: s.jwksUrl, audience: 'b' })
    expect((await call(a, await signWith(rs256, { aud: 'a' }))).status).toBe(200)
    expect((await call(b, await signWith(rs256, { aud: 'b' }))).status).toBe(200)
    expect(s.fetches).toBe(1)
    // Other cache settings are another cache.
    const c = appWith({ jwks: s.jwksUrl, jwksCache: { maxAgeMs: 1000 } })
    expect((await call(c, await signWith(rs256, {}))).status).toBe(200)
    expect(s.fetches).toBe(2)
  })

  it('100 concurrent first requests make one fetch', async () => {
    const s = await server([rs256])
    const app = appWith({ jwks: s.jwksUrl })
    const token = await signWith(rs256, { sub: 'u' })
    const results = await Promise.all(Array.from({ length: 100 }, () => call(app, token)))
    expect(results.every((r) => r.status === 200)).toBe(true)
    expect(s.fetches).toBe(1)
  })

  it('100 concurrent requests with an unknown kid after the cooldown make one fetch', async () => {
    fakeDate()
    const s = await server([rs256])
    const app = appWith({ jwks: s.jwksUrl })
    expect((await call(app, await signWith(rs256, {}))).status).toBe(200)
    at(31_000)
    const tokens = await Promise.all(
      Array.from({ length: 100 }, (_, i) => signWith({ ...rs256, kid: `unknown-${i}` }, {})),
    )
    const results = await Promise.all(tokens.map((t) => call(app, t)))
    expect(results.every((r) => r.status === 401)).toBe(true)
    expect(s.fetches).toBe(2)
  })
})

describe('jwtAuth with a JWKS: hostile or broken providers stay bounded', () => {
  // Observed, not timed: each bound is shown by what it does (an abort signal fired, a timer
  // that decides the answer, bytes not read, keys not imported), so a loaded machine cannot fail
  // these tests and a broken bound cannot pass them.
  /** The real fetch, watched: the abort signal of each call and the body bytes pulled through. */
  const watchedFetch = () => {
    const seen = { signals: [] as AbortSignal[], bytesRead: 0 }
    const impl: JwksFetch = async (url, init) => {
      if (init.signal) seen.signals.push(init.signal)
      const res = await fetch(url, init)
      if (res.body === null) return res
      const counting = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen.bytesRead += chunk.byteLength
          controller.enqueue(chunk)
        },
      })
      return new Response(res.body.pipeThrough(counting), {
        status: res.status,
        headers: res.headers,
      })
    }
    return { impl, seen }
  }

  it('gives up on a provider that hangs after timeoutMs: 503, the request aborted', async () => {
    const s = await server([rs256])
    s.mode = 'hang'
    const { impl, seen } = watchedFetch()
    const app = appWith({ jwks: s.jwksUrl, fetch: impl, jwksCache: { timeoutMs: 300 } })
    const res = await call(app, await signWith(rs256, {}))
    expect(res.status).toBe(503)
    expect(s.fetches).toBe(1)
    // The connection is given up, not left open with the body half read.
    expect(seen.signals).toHaveLength(1)
    expect(seen.signals[0]?.aborted).toBe(true)
  })

  it('times out also when the injected fetch ignores the abort signal', async () => {
    const token = await signWith(rs256, {})
    // The fetch is asked, then never answers; `asked` is the barrier the fake clock waits for.
    let markAsked = () => {}
    const asked = new Promise<void>((resolve) => {
      markAsked = resolve
    })
    const never: typeof fetch = () => {
      markAsked()
      return new Promise(() => {})
    }
    const app = appWith({
      jwks: 'https://auth.example.com/jwks.json',
      fetch: never,
      jwksCache: { timeoutMs: 200 },
    })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let answered: Response | undefined
    const pending = Promise.resolve(call(app, token)).then((res) => {
      answered = res
      return res
    })
    await asked
    await vi.advanceTimersByTimeAsync(199)
    expect(answered).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect((await pending).status).toBe(503)
  })

  it('stops reading a 10 MB answer at the size cap: 503, the rest never read', async () => {
    const s = await server([rs256])
    s.mode = 'huge'
    const { impl, seen } = watchedFetch()
    const app = appWith({ jwks: s.jwksUrl, fetch: impl })
    const res = await call(app, await signWith(rs256, {}))
    expect(res.status).toBe(503)
    // The cap and at most what the stream had buffered beyond it; the server offers 10 MB.
    expect(seen.bytesRead).toBeGreaterThan(JWKS_MAX_BYTES)
    expect(seen.bytesRead).toBeLessThan(JWKS_MAX_BYTES + 1024 * 1024)
  })

  it('refuses 10,000 keys without importing one, and a set one key over the cap', async () => {
    const s = await server([rs256])
    s.mode = 'many'
    const app = appWith({ jwks: s.jwksUrl })
    const token = await signWith(rs256, {})
    const importKey = vi.spyOn(crypto.subtle, 'importKey')
    const res = await call(app, token)
    expect(res.status).toBe(503)
    // Refused on the count, before any per-key work.
    expect(importKey).not.toHaveBeenCalled()

    const t = await server([])
    t.keys = Array.from({ length: JWKS_MAX_KEYS + 1 }, (_, i) => ({ ...es256.jwk, kid: `k${i}` }))
    const over = appWith({ jwks: t.jwksUrl })
    expect((await call(over, await signWith({ ...es256, kid: 'k3' }, {}))).status).toBe(503)
    t.keys = t.keys.slice(0, JWKS_MAX_KEYS)
    const at = appWith({ jwks: t.jwksUrl, jwksCache: { cooldownMs: 1 } })
    const k3 = await signWith({ ...es256, kid: 'k3' }, {})
    const importsBefore = importKey.mock.calls.length
    expect((await call(at, k3)).status).toBe(200)
    // The spy does see imports: the set at the cap was used, its key imported to verify.
    expect(importKey.mock.calls.length).toBeGreaterThan(importsBefore)
  })

  it('answers 503 for a JWKS that is not JSON, and for a redirect (never followed)', async () => {
    const s = await server([rs256])
    s.mode = 'not-json'
    expect((await call(appWith({ jwks: s.jwksUrl }), await signWith(rs256, {}))).status).toBe(503)
    const redirect: typeof fetch = async () =>
      new Response(null, { status: 302, headers: { location: s.jwksUrl } })
    const app = appWith({ jwks: 'https://auth.example.com/jwks', fetch: redirect })
    expect((await call(app, await signWith(rs256, {}))).status).toBe(503)
  })
})

describe('jwtAuth with OpenID discovery', () => {
  it('reads jwks_uri from the discovery document once, then the JWKS', async () => {
    const s = await server([rs256])
    const issuer = `${s.origin}/realms/demo`
    const app = appWith({ issuer, discovery: true })
    expect(s.discoveryFetches + s.fetches).toBe(0)
    for (let i = 0; i < 3; i++) {
      expect((await call(app, await signWith(rs256, { iss: issuer, sub: `${i}` }))).status).toBe(
        200,
      )
    }
    expect(s.discoveryFetches).toBe(1)
    expect(s.fetches).toBe(1)
    // The issuer is also the iss check.
    expect((await call(app, await signWith(rs256, { iss: `${s.origin}/other` }))).status).toBe(401)
  })

  it('refuses a discovery document that names another issuer: 503', async () => {
    const s = await server([rs256])
    const app = appWith({ issuer: `${s.origin}/a`, discovery: true })
    const lying: typeof fetch = async (url) =>
      String(url).endsWith('openid-configuration')
        ? Response.json({ issuer: 'https://evil.example', jwks_uri: s.jwksUrl })
        : fetch(url)
    const viaLiar = appWith({ issuer: `${s.origin}/b`, discovery: true, fetch: lying })
    expect((await call(app, await signWith(rs256, { iss: `${s.origin}/a` }))).status).toBe(200)
    expect((await call(viaLiar, await signWith(rs256, { iss: `${s.origin}/b` }))).status).toBe(503)
  })

  it('refuses a discovered jwks_uri that is http off loopback', async () => {
    const issuer = 'https://auth.example.com'
    const doc: typeof fetch = async () =>
      Response.json({ issuer, jwks_uri: 'http://auth.example.com/jwks.json' })
    const app = appWith({ issuer, discovery: true, fetch: doc })
    expect((await call(app, await signWith(rs256, { iss: issuer }))).status).toBe(503)
  })
})

describe('jwtAuth: claims of real providers', () => {
  it('checks typ (at+jwt, RFC 9068)', async () => {
    const app = appWith({ publicKey: es256.publicKey, typ: 'at+jwt' })
    expect((await call(app, await signWith(es256, {}, { typ: 'at+jwt' }))).status).toBe(200)
    expect((await call(app, await signWith(es256, {}, { typ: 'application/at+jwt' }))).status).toBe(
      200,
    )
    expect((await call(app, await signWith(es256, {}, { typ: 'JWT' }))).status).toBe(401)
  })

  it('checks azp against one value or a list', async () => {
    const app = appWith({ publicKey: es256.publicKey, azp: ['web', 'cli'] })
    expect((await call(app, await signWith(es256, { azp: 'cli' }))).status).toBe(200)
    expect((await call(app, await signWith(es256, { azp: 'evil' }))).status).toBe(401)
    expect((await call(app, await signWith(es256, {}))).status).toBe(401)
  })

  it('checks audience given as a list against an aud array', async () => {
    const app = appWith({ publicKey: es256.publicKey, audience: ['api-1', 'api-2'] })
    expect((await call(app, await signWith(es256, { aud: ['x', 'api-2'] }))).status).toBe(200)
    expect((await call(app, await signWith(es256, { aud: ['x', 'y'] }))).status).toBe(401)
  })

  it('checks other claims by value (claims)', async () => {
    const app = appWith({ publicKey: es256.publicKey, claims: { token_use: 'access' } })
    expect((await call(app, await signWith(es256, { token_use: 'access' }))).status).toBe(200)
    expect((await call(app, await signWith(es256, { token_use: 'id' }))).status).toBe(401)
    expect((await call(app, await signWith(es256, { token_use: ['access'] }))).status).toBe(401)
  })

  it.each([
    ['scope (space-separated)', { scope: 'openid read:items write:items' }],
    ['scp (array)', { scp: ['read:items', 'write:items'] }],
    ['scp (space-separated string, Entra ID)', { scp: 'write:items read:items' }],
  ])('accepts scopes from %s', async (_, claims) => {
    const app = appWith({ publicKey: es256.publicKey, scopes: ['read:items', 'write:items'] })
    expect((await call(app, await signWith(es256, claims))).status).toBe(200)
  })

  it('answers 403 insufficient_scope with the RFC 6750 challenge when a scope is missing', async () => {
    const app = appWith({ publicKey: es256.publicKey, scopes: ['read:items', 'write:items'] })
    for (const claims of [
      { scope: 'read:items' },
      { scope: 'read:items write' },
      {},
      { scp: 'read:items,write:items' },
    ]) {
      const res = await call(app, await signWith(es256, claims))
      expect(res.status).toBe(403)
      expect(await codeOf(res)).toBe('insufficient_scope')
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="api", error="insufficient_scope", scope="read:items write:items"',
      )
    }
    // A bad token stays a 401, whatever its scopes.
    const forged = await new SignJWT({ scope: 'read:items write:items' })
      .setProtectedHeader({ alg: 'ES256' })
      .sign((await testKey('ES256', 'x')).privateKey)
    expect((await call(app, forged)).status).toBe(401)
  })

  it('keeps the existing time checks for public keys: expired and infinite exp are refused', async () => {
    const app = appWith({ publicKey: es256.publicKey })
    const now = Math.floor(Date.now() / 1000)
    expect((await call(app, await signWith(es256, { exp: now - 1 }))).status).toBe(401)
    expect((await call(app, await signWith(es256, { iat: now + 3600 }))).status).toBe(401)
  })
})

describe('jwtAuth: self-description', () => {
  it('describes discovery as openIdConnect with its URL (or a pasted bearer JWT), scopes and 403 / 503', () => {
    const d = getMiddlewareDescription(
      jwtAuth({ issuer: 'https://tenant.auth0.com/', discovery: true, scopes: ['read:items'] }),
    )
    expect(d?.security).toEqual([
      [
        {
          name: 'openIdConnect',
          scheme: {
            type: 'openIdConnect',
            openIdConnectUrl: 'https://tenant.auth0.com/.well-known/openid-configuration',
          },
          scopes: ['read:items'],
        },
      ],
      [
        {
          name: 'bearerAuth',
          scheme: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
          scopes: ['read:items'],
        },
      ],
    ])
    expect(d?.responses?.map((r) => [r.status, r.codes])).toEqual([
      [401, ['token_missing', 'token_invalid']],
      [403, ['insufficient_scope']],
      [503, ['jwks_unavailable']],
    ])
  })

  it('describes a JWKS URL or a public key as http bearer JWT', () => {
    const jwks = getMiddlewareDescription(jwtAuth({ jwks: 'https://a.example/jwks.json' }))
    expect(jwks?.security?.[0]?.[0]?.scheme).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      // Spectral's OWASP ruleset asks a JWT scheme to name RFC8725; jwtAuth follows it.
      description: expect.stringMatching(/RFC8725/),
    })
    expect(jwks?.responses?.map((r) => r.status)).toEqual([401, 503])
    const key = getMiddlewareDescription(jwtAuth({ publicKey: es256.jwk, scopes: ['a'] }))
    expect(key?.security?.[0]?.[0]).toMatchObject({ name: 'bearerAuth', scopes: ['a'] })
    expect(key?.responses?.map((r) => r.status)).toEqual([401, 403])
  })
})
