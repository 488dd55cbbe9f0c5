import { Hono } from 'hono'
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  jwtVerify,
} from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jwtAuth, signJwt } from './index'
import { ASYMMETRIC_ALGORITHMS } from './keys'
import { SIGN_JWT_DEFAULT_LIFETIME } from './sign-jwt'

const SECRET = 'a-test-secret-that-is-at-least-64-bytes-long-for-hs512-0123456789'
const key = new TextEncoder().encode(SECRET)

afterEach(() => {
  vi.useRealTimers()
})

describe('signJwt', () => {
  it('signs with HS256 by default, sets iat, exp and typ, and keeps the claims', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    const token = await signJwt({ sub: 'u1', role: 'admin' }, SECRET)
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const claims = decodeJwt(token)
    expect(claims).toEqual({ sub: 'u1', role: 'admin', iat: 1767225600, exp: 1767225600 + 900 })
    await expect(jwtVerify(token, key)).resolves.toBeTruthy()
  })

  it.each([
    ['2h', 7200],
    ['15m', 900],
    ['7d', 604800],
    ['30 seconds', 30],
    [7200, 7200],
    [0, 0],
  ])('sets exp from expiresIn %s', async (expiresIn, seconds) => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    const claims = decodeJwt(await signJwt({}, SECRET, { expiresIn }))
    expect(claims.exp).toBe(1767225600 + seconds)
  })

  it(`expires after ${SIGN_JWT_DEFAULT_LIFETIME} seconds when expiresIn is not given`, async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    expect(SIGN_JWT_DEFAULT_LIFETIME).toBe(15 * 60)
    const claims = decodeJwt(await signJwt({ sub: 'u' }, SECRET))
    expect(claims.exp).toBe(1767225600 + SIGN_JWT_DEFAULT_LIFETIME)
  })

  it("makes tokens that a default jwtAuth accepts: the package's two defaults agree", async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
    const app = new Hono()
    app.use(jwtAuth({ secret: SECRET }))
    app.get('/', (c) => c.text(String(c.get('jwtPayload').sub)))
    const token = await signJwt({ sub: 'u1' }, SECRET)
    const bearer = { headers: { Authorization: `Bearer ${token}` } }
    const res = await app.request('/', bearer)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('u1')
    // And it does run out: 15 minutes later the same token is refused.
    vi.setSystemTime(Date.now() + SIGN_JWT_DEFAULT_LIFETIME * 1000)
    expect((await app.request('/', bearer)).status).toBe(401)
  })

  it('leaves exp unset only when asked to with expiresIn: false', async () => {
    const token = await signJwt({ sub: 'u' }, SECRET, { expiresIn: false })
    expect(decodeJwt(token).exp).toBeUndefined()
    // Such a token is refused by a default jwtAuth, accepted with requireExp: false.
    const strict = new Hono().use(jwtAuth({ secret: SECRET })).get('/', (c) => c.text('ok'))
    const lax = new Hono()
      .use(jwtAuth({ secret: SECRET, requireExp: false }))
      .get('/', (c) => c.text('ok'))
    const bearer = { headers: { Authorization: `Bearer ${token}` } }
    expect((await strict.request('/', bearer)).status).toBe(401)
    expect((await lax.request('/', bearer)).status).toBe(200)
  })

  it('keeps an exp the payload sets itself when expiresIn is not given', async () => {
    const exp = Math.floor(Date.now() / 1000) + 7 * 86_400
    expect(decodeJwt(await signJwt({ sub: 'u', exp }, SECRET)).exp).toBe(exp)
    // expiresIn, when given, wins (as jose's setExpirationTime does).
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    expect(decodeJwt(await signJwt({ exp }, SECRET, { expiresIn: 60 })).exp).toBe(1767225660)
  })

  it('sets nbf, iss and aud', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    const claims = decodeJwt(
      await signJwt({}, SECRET, { notBefore: 60, issuer: 'me', audience: ['a', 'b'] }),
    )
    expect(claims).toMatchObject({ nbf: 1767225660, iss: 'me', aud: ['a', 'b'] })
  })

  it.each(['HS384', 'HS512'] as const)('signs with %s', async (algorithm) => {
    const token = await signJwt({}, SECRET, { algorithm })
    expect(decodeProtectedHeader(token).alg).toBe(algorithm)
    await expect(jwtVerify(token, key, { algorithms: [algorithm] })).resolves.toBeTruthy()
  })

  it('does not mutate the payload it was given', async () => {
    const payload = { sub: 'u' }
    await signJwt(payload, SECRET, { expiresIn: '1h' })
    expect(payload).toEqual({ sub: 'u' })
  })

  it.each([
    ['an empty secret', {}, '', {}, /must not be empty/],
    ['a 5-byte secret', {}, 'short', {}, /at least 32 bytes/],
    ['a 44-byte secret for HS512', {}, 'x'.repeat(44), { algorithm: 'HS512' }, /at least 64 bytes/],
    ['alg none', {}, SECRET, { algorithm: 'none' }, /HMAC only/],
    ['an asymmetric algorithm', {}, SECRET, { algorithm: 'RS256' }, /HMAC only/],
    ['a negative expiresIn', {}, SECRET, { expiresIn: -5 }, /expiresIn/],
    ['an "ago" duration', {}, SECRET, { expiresIn: '2h ago' }, /expiresIn/],
    ['a nonsense duration', {}, SECRET, { expiresIn: 'soon' }, /expiresIn/],
    ['an infinite expiresIn', {}, SECRET, { expiresIn: Number.POSITIVE_INFINITY }, /expiresIn/],
    ['expiresIn: true', {}, SECRET, { expiresIn: true }, /expiresIn/],
    ['expiresIn: null', {}, SECRET, { expiresIn: null }, /expiresIn: false/],
    ['an array payload', [], SECRET, {}, /claims object/],
    ['a null payload', null, SECRET, {}, /claims object/],
    ['an unknown option', {}, SECRET, { expires: '2h' }, /unknown option/],
  ])('rejects %s with a TypeError', async (_, payload, secret, options, message) => {
    // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong input
    const call = signJwt(payload as any, secret as string, options as any)
    await expect(call).rejects.toThrow(TypeError)
    await expect(call).rejects.toThrow(message)
  })
})

describe('signJwt with private keys', () => {
  it.each(ASYMMETRIC_ALGORITHMS)(
    'signs %s with a CryptoKey, a private JWK and a PKCS#8 PEM, kid in the header',
    async (alg) => {
      const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
      const jwk = await exportJWK(privateKey)
      for (const signing of [privateKey, { ...jwk, alg }, await exportPKCS8(privateKey)]) {
        const token = await signJwt({ sub: 'u' }, signing, { algorithm: alg, kid: 'k1' })
        expect(decodeProtectedHeader(token)).toEqual({ alg, typ: 'JWT', kid: 'k1' })
        await expect(jwtVerify(token, publicKey, { algorithms: [alg] })).resolves.toBeTruthy()
      }
    },
    30_000,
  )

  it('takes the algorithm from the key and the kid from the JWK when they are not given', async () => {
    const { privateKey } = await generateKeyPair('ES384', { extractable: true })
    expect(decodeProtectedHeader(await signJwt({}, privateKey)).alg).toBe('ES384')
    const jwk = { ...(await exportJWK(privateKey)), kid: 'from-jwk' }
    expect(decodeProtectedHeader(await signJwt({}, jwk))).toEqual({
      alg: 'ES384',
      typ: 'JWT',
      kid: 'from-jwk',
    })
    const at = await signJwt({}, privateKey, { typ: 'at+jwt' })
    expect(decodeProtectedHeader(at).typ).toBe('at+jwt')
  })

  it('signs tokens that jwtAuth verifies from a JWKS object with the public half', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true })
    const jwks = {
      keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' }],
    }
    const app = new Hono()
    app.use(jwtAuth({ jwks }))
    app.get('/', (c) => c.text(String(c.get('jwtPayload').sub)))
    const token = await signJwt({ sub: 'self-issued' }, privateKey, { kid: 'k1', expiresIn: '5m' })
    const res = await app.request('/', { headers: { Authorization: `Bearer ${token}` } })
    expect(await res.text()).toBe('self-issued')
  })

  it('refuses public keys, HMAC algorithms with a private key and keys of another type', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
    const cases: [unknown, object, RegExp][] = [
      [publicKey, {}, /private CryptoKey, got a public/],
      [await exportJWK(publicKey), {}, /private RSA, EC or OKP key/],
      [await exportSPKI(publicKey), {}, /got a public key PEM/],
      [privateKey, { algorithm: 'HS256' }, /HMAC needs "secret"/],
      [privateKey, { algorithm: 'RS256' }, /does not fit the private key/],
      [privateKey, { algorithm: 'ES384' }, /does not fit the private key/],
      [{ ...(await exportJWK(privateKey)), alg: 'ES384' }, {}, /does not fit/],
      [privateKey, { kid: '' }, /kid/],
      [42, {}, /must be a secret, a private CryptoKey/],
    ]
    for (const [signing, options, message] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong input
      await expect(signJwt({}, signing as any, options as any)).rejects.toThrow(message)
    }
  })

  it('refuses a PEM as an HMAC secret in signJwt and jwtAuth (algorithm confusion)', async () => {
    const { publicKey } = await generateKeyPair('RS256', { extractable: true })
    const pem = await exportSPKI(publicKey)
    await expect(signJwt({}, pem, { algorithm: 'HS256' })).rejects.toThrow(/HMAC needs "secret"/)
    await expect(signJwt({}, pem)).rejects.toThrow(/got a public key PEM/)
    expect(() => jwtAuth({ secret: pem })).toThrow(/PEM key: public keys go in "publicKey"/)
  })
})
