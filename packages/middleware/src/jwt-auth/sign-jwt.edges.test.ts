// signJwt at its edges (issue 37, point 7): the claims and header it writes to the second, every
// duration spelling jose reads (and only those), and each refusal with its exact message.
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  jwtVerify,
} from 'jose'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { signJwt } from './sign-jwt'

const SECRET = 'a-test-secret-that-is-at-least-64-bytes-long-for-hs512-0123456789'
const NOW_S = 1_767_225_600 // 2026-01-01T00:00:00Z

beforeEach(() => {
  vi.useFakeTimers({ now: NOW_S * 1000 + 999, toFake: ['Date'] })
})
afterEach(() => {
  vi.useRealTimers()
})

const claims = async (...args: Parameters<typeof signJwt>) => decodeJwt(await signJwt(...args))
const refusal = async (...args: unknown[]) => {
  try {
    await (signJwt as (...a: unknown[]) => Promise<string>)(...args)
  } catch (err) {
    expect(err).toBeInstanceOf(TypeError)
    return (err as Error).message
  }
  return 'signed'
}

describe('signJwt: the claims', () => {
  it('sets iat to now (floored to the second), whatever the payload says', async () => {
    expect((await claims({ iat: 5 }, SECRET)).iat).toBe(NOW_S)
  })

  it('reads a number of seconds from now, floored', async () => {
    expect((await claims({}, SECRET, { expiresIn: 90.9 })).exp).toBe(NOW_S + 90)
    expect((await claims({}, SECRET, { expiresIn: 0 })).exp).toBe(NOW_S)
    expect((await claims({}, SECRET, { notBefore: 0 })).nbf).toBe(NOW_S)
    expect((await claims({}, SECRET, { notBefore: 1.5 })).nbf).toBe(NOW_S + 1)
    expect((await claims({}, SECRET, { notBefore: '1m' })).nbf).toBe(NOW_S + 60)
  })

  it('keeps the payload exp when expiresIn is unset or false; expiresIn wins otherwise', async () => {
    const exp = NOW_S + 42
    expect((await claims({ exp }, SECRET)).exp).toBe(exp)
    expect((await claims({ exp }, SECRET, { expiresIn: false })).exp).toBe(exp)
    expect((await claims({ exp }, SECRET, { expiresIn: '1m' })).exp).toBe(NOW_S + 60)
    expect((await claims({}, SECRET, { expiresIn: false })).exp).toBeUndefined()
  })

  it('writes nbf, iss and aud only when asked', async () => {
    expect(Object.keys(await claims({ sub: 'u' }, SECRET)).sort()).toEqual(['exp', 'iat', 'sub'])
    expect(await claims({}, SECRET, { issuer: 'https://i.example', audience: 'api' })).toEqual({
      iat: NOW_S,
      exp: NOW_S + 900,
      iss: 'https://i.example',
      aud: 'api',
    })
  })

  it.each([
    ['3s', 3],
    ['3sec', 3],
    ['3secs', 3],
    ['3second', 3],
    ['3seconds', 3],
    ['3m', 180],
    ['3min', 180],
    ['3mins', 180],
    ['3minute', 180],
    ['3minutes', 180],
    ['3h', 10_800],
    ['3hr', 10_800],
    ['3hrs', 10_800],
    ['3hour', 10_800],
    ['3hours', 10_800],
    ['3d', 259_200],
    ['3day', 259_200],
    ['3days', 259_200],
    ['3w', 1_814_400],
    ['3week', 1_814_400],
    ['3weeks', 1_814_400],
    ['1y', 31_557_600],
    ['1yr', 31_557_600],
    ['1yrs', 31_557_600],
    ['1year', 31_557_600],
    ['1years', 31_557_600],
    ['12h', 43_200],
    ['1.5h', 5_400],
    ['1.25h', 4_500],
    ['2 h', 7_200],
    ['2H', 7_200],
    ['2 Hours', 7_200],
    [' 2h ', 7_200],
  ])('reads the duration %j as %i seconds', async (expiresIn, seconds) => {
    expect((await claims({}, SECRET, { expiresIn })).exp).toBe(NOW_S + seconds)
  })

  it.each([
    '2  h',
    '2\th',
    'h',
    '.5h',
    '1.h',
    '-2h',
    '+2h',
    '2h ago',
    '2h from now',
    'x2h',
    '2hx',
    '2 h x',
    '2',
    '',
    '  ',
    '2 fortnights',
  ])('refuses the duration %j with its own message', async (expiresIn) => {
    expect(await refusal({}, SECRET, { expiresIn })).toBe(
      `signJwt: "expiresIn" must be seconds or a duration such as '2h'`,
    )
  })
})

describe('signJwt: the header and the key', () => {
  it('writes { alg, typ } for a secret, a kid only when given', async () => {
    expect(decodeProtectedHeader(await signJwt({}, SECRET))).toEqual({ alg: 'HS256', typ: 'JWT' })
    expect(decodeProtectedHeader(await signJwt({}, SECRET, { kid: 'k', typ: 'at+jwt' }))).toEqual({
      alg: 'HS256',
      typ: 'at+jwt',
      kid: 'k',
    })
  })

  it('signs with a Uint8Array secret, HS256 by default', async () => {
    const bytes = new TextEncoder().encode(SECRET)
    const token = await signJwt({}, bytes)
    expect(decodeProtectedHeader(token).alg).toBe('HS256')
    await expect(jwtVerify(token, bytes)).resolves.toBeTruthy()
    const hs384 = await signJwt({}, bytes.slice(0, 48), { algorithm: 'HS384' })
    expect(decodeProtectedHeader(hs384).alg).toBe('HS384')
  })

  it("takes a JWK's kid unless kid is given, and no kid from a CryptoKey", async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true })
    const jwk = { ...(await exportJWK(privateKey)), kid: 'from-jwk' }
    expect(decodeProtectedHeader(await signJwt({}, jwk, { kid: 'given' })).kid).toBe('given')
    expect(decodeProtectedHeader(await signJwt({}, privateKey))).toEqual({
      alg: 'ES256',
      typ: 'JWT',
    })
    const noKid = await exportJWK(privateKey)
    expect(decodeProtectedHeader(await signJwt({}, noKid))).toEqual({ alg: 'ES256', typ: 'JWT' })
  })

  it('reads a PEM with whitespace before it, and picks the first algorithm an RSA key fits', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
    const pem = `\n  ${await exportPKCS8(privateKey)}`
    const token = await signJwt({}, pem)
    expect(decodeProtectedHeader(token).alg).toBe('RS256')
    await expect(jwtVerify(token, publicKey)).resolves.toBeTruthy()
    const jwk = await exportJWK(privateKey)
    expect(decodeProtectedHeader(await signJwt({}, jwk)).alg).toBe('RS256')
    expect(decodeProtectedHeader(await signJwt({}, jwk, { algorithm: 'PS512' })).alg).toBe('PS512')
  })
})

describe('signJwt: refusals, each with its message', () => {
  it.each([
    ['a null payload', null],
    ['an array payload', []],
    ['a string payload', 'sub=u'],
    ['a number payload', 5],
  ])('refuses %s', async (_, payload) => {
    expect(await refusal(payload, SECRET)).toBe('signJwt: payload must be a claims object')
  })

  it.each([
    ['null options', null, 'signJwt: options must be an object'],
    [
      'an unknown option',
      { expires: '2h' },
      'signJwt: unknown option "expires" (known: expiresIn, algorithm, kid, typ, issuer, audience, notBefore)',
    ],
    [
      'expiresIn null',
      { expiresIn: null },
      'signJwt: "expiresIn" is null: for a token without exp, say expiresIn: false',
    ],
    [
      'a negative expiresIn',
      { expiresIn: -1 },
      'signJwt: "expiresIn" must be a non-negative number of seconds',
    ],
    [
      'a NaN expiresIn',
      { expiresIn: Number.NaN },
      'signJwt: "expiresIn" must be a non-negative number of seconds',
    ],
    [
      'an infinite expiresIn',
      { expiresIn: Number.POSITIVE_INFINITY },
      'signJwt: "expiresIn" must be a non-negative number of seconds',
    ],
    [
      'expiresIn true',
      { expiresIn: true },
      `signJwt: "expiresIn" must be seconds or a duration such as '2h'`,
    ],
    [
      'expiresIn an object',
      { expiresIn: { h: 2 } },
      `signJwt: "expiresIn" must be seconds or a duration such as '2h'`,
    ],
    [
      'notBefore null',
      { notBefore: null },
      `signJwt: "notBefore" must be seconds or a duration such as '2h'`,
    ],
    [
      'a negative notBefore',
      { notBefore: -1 },
      'signJwt: "notBefore" must be a non-negative number of seconds',
    ],
    [
      'a notBefore of text',
      { notBefore: 'later' },
      `signJwt: "notBefore" must be seconds or a duration such as '2h'`,
    ],
    ['an empty kid', { kid: '' }, 'signJwt: "kid" must be a non-empty string, got ""'],
    ['a number kid', { kid: 5 }, 'signJwt: "kid" must be a non-empty string, got 5'],
    ['an empty typ', { typ: '' }, 'signJwt: "typ" must be a non-empty string, got ""'],
    ['an empty issuer', { issuer: '' }, 'signJwt: "issuer" must be a non-empty string, got ""'],
    [
      'an empty audience',
      { audience: '' },
      'signJwt: "audience" must be a non-empty string, got ""',
    ],
    ['an empty audience list', { audience: [] }, 'signJwt: "audience" must not be empty'],
    [
      'an audience list with a number',
      { audience: ['a', 5] },
      'signJwt: "audience" must be an array of non-empty strings',
    ],
    [
      'a number audience',
      { audience: 5 },
      'signJwt: "audience" must be an array of non-empty strings',
    ],
  ])('refuses %s', async (_, options, message) => {
    expect(await refusal({}, SECRET, options)).toBe(message)
  })

  it('refuses a short Uint8Array secret, and an asymmetric algorithm for one', async () => {
    expect(await refusal({}, new Uint8Array(31))).toBe(
      'signJwt: "secret" must be at least 32 bytes for the chosen algorithm (RFC 7518 §3.2), got 31',
    )
    expect(await refusal({}, new Uint8Array(64), { algorithm: 'ES256' })).toBe(
      `signJwt: "algorithm" must be 'HS256', 'HS384' or 'HS512' (HMAC only), got "ES256"`,
    )
    expect(await refusal({}, 'x'.repeat(64), { algorithm: 'ES256' })).toBe(
      `signJwt: "algorithm" must be 'HS256', 'HS384' or 'HS512' (HMAC only), got "ES256"`,
    )
  })

  it('refuses keys that cannot sign, naming what they are', async () => {
    const ec = await generateKeyPair('ES256', { extractable: true })
    const rsa = await generateKeyPair('RS256', { extractable: true })
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['sign'])
    const ecdh = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
      'deriveBits',
    ])) as CryptoKeyPair
    const ecJwk = await exportJWK(ec.privateKey)
    const cases: [unknown, object, string][] = [
      [
        ec.privateKey,
        { algorithm: 'HS256' },
        'signJwt: "algorithm" must be one of RS256/384/512, PS256/384/512, ES256/384/512 or EdDSA with a public key (HMAC needs "secret"), got "HS256"',
      ],
      [
        await exportSPKI(ec.publicKey),
        {},
        'signJwt: "key" must be a private key, got a public key PEM',
      ],
      [ec.publicKey, {}, 'signJwt: the key must be a private CryptoKey, got a public key'],
      [hmac, {}, 'signJwt: the key must be a private CryptoKey, got a secret key'],
      [
        ec.privateKey,
        { algorithm: 'RS256' },
        'signJwt: "algorithm" "RS256" does not fit the private key (it signs ES256)',
      ],
      [
        rsa.privateKey,
        { algorithm: 'PS256' },
        'signJwt: "algorithm" "PS256" does not fit the private key (it signs RS256)',
      ],
      [
        ecdh.privateKey,
        {},
        'signJwt: "algorithm" undefined does not fit the private key (it signs nothing we support)',
      ],
      [
        { ...ecJwk, alg: 'ES384' },
        {},
        'signJwt: "algorithm" undefined does not fit the private key (it signs nothing we support)',
      ],
      [
        await exportJWK(rsa.privateKey),
        { algorithm: 'ES256' },
        'signJwt: "algorithm" "ES256" does not fit the private key (it signs RS256, RS384, RS512, PS256, PS384, PS512)',
      ],
      [
        { kty: 'oct', k: 'AAAA', d: 'x' },
        {},
        'signJwt: the JWK must be a private RSA, EC or OKP key (with "d")',
      ],
      [
        await exportJWK(ec.publicKey),
        {},
        'signJwt: the JWK must be a private RSA, EC or OKP key (with "d")',
      ],
      [{ ...ecJwk, d: 5 }, {}, 'signJwt: the JWK must be a private RSA, EC or OKP key (with "d")'],
      [42, {}, 'signJwt: the key must be a secret, a private CryptoKey, a private JWK or a PEM'],
      [null, {}, 'signJwt: the key must be a secret, a private CryptoKey, a private JWK or a PEM'],
      [
        undefined,
        {},
        'signJwt: the key must be a secret, a private CryptoKey, a private JWK or a PEM',
      ],
      [true, {}, 'signJwt: the key must be a secret, a private CryptoKey, a private JWK or a PEM'],
      [
        { kty: 5, d: 'x' },
        {},
        'signJwt: the key must be a secret, a private CryptoKey, a private JWK or a PEM',
      ],
      [{}, {}, 'signJwt: the key must be a secret, a private CryptoKey, a private JWK or a PEM'],
    ]
    for (const [key, options, message] of cases)
      expect(await refusal({}, key, options)).toBe(message)
  })
})
