// key-source.ts and hmac.ts at their edges: which option names the key source (and the exact
// refusals), the algorithms each source accepts by default and as listed (the index of a wrong
// entry named), the remote-only options refused one by one with a local source, the HMAC key
// per algorithm, and the secret's checks (a PEM behind whitespace, the bytes copied).

import { Hono } from 'hono'
import { generateKeyPair } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { jwksServers, signWith, testKey } from '../../test/jwks-server'
import { base64url, importHmacKey } from '../internal/crypto'
import { assertHmacAlgorithm, HMAC_HASHES, MIN_SECRET_BYTES, secretBytes } from './hmac'
import { jwtAuth, signJwt } from './index'
import { jwtKeys, type KeySourceOptions, keySourceKind } from './key-source'
import { ASYMMETRIC_ALGORITHMS } from './keys'

const F = 'jwtAuth'
const SECRET = 'k'.repeat(32)
const NO_SOURCE =
  'jwtAuth: "secret" must be a Uint8Array or a string, or give "publicKey", "jwks" or "issuer" with "discovery: true"'

let rsaKey: CryptoKey
beforeAll(async () => {
  rsaKey = (await generateKeyPair('RS256')).publicKey as CryptoKey
})
const serveJwks = jwksServers()

describe('keySourceKind: exactly one source', () => {
  it.each([
    ['secret', { secret: SECRET }],
    ['publicKey', { publicKey: {} }],
    ['jwks', { jwks: 'https://a.example/jwks' }],
    ['discovery', { discovery: true, issuer: 'https://a.example' }],
    ['jwks', { jwks: 'https://a.example/jwks', discovery: false }],
    ['publicKey', { secret: undefined, publicKey: {} }],
    ['secret', { secret: null }],
    ['secret', { secret: '' }],
  ] as [string, KeySourceOptions][])('names %s for %j', (kind, options) => {
    expect(keySourceKind(F, options)).toBe(kind)
  })

  it('says when none is given, and when secret is there but undefined', () => {
    expect(() => keySourceKind(F, {})).toThrow(NO_SOURCE)
    expect(() => keySourceKind(F, { discovery: false })).toThrow(NO_SOURCE)
    expect(() => keySourceKind(F, { issuer: 'https://a.example' })).toThrow(NO_SOURCE)
    expect(() => keySourceKind(F, { secret: undefined })).toThrow(
      'jwtAuth: "secret" is undefined (an unset environment variable?): give a Uint8Array or a string, or "publicKey", "jwks" or "issuer" with "discovery: true"',
    )
  })

  it('names every source given when there are several', () => {
    expect(() => keySourceKind(F, { secret: SECRET, jwks: 'https://a' })).toThrow(
      'jwtAuth: give exactly one key source, got "secret" and "jwks": an HMAC secret and public keys never mix',
    )
    expect(() =>
      keySourceKind(F, { secret: SECRET, publicKey: {}, jwks: {}, discovery: true }),
    ).toThrow(
      'jwtAuth: give exactly one key source, got "secret" and "publicKey" and "jwks" and "discovery": an HMAC secret and public keys never mix',
    )
    expect(() => keySourceKind(F, { publicKey: {}, discovery: true })).toThrow(
      /got "publicKey" and "discovery"/,
    )
  })

  it('checks discovery is a boolean before anything else', () => {
    expect(() => keySourceKind(F, { discovery: 'true', secret: SECRET })).toThrow(
      'jwtAuth: "discovery" must be a boolean, got "true"',
    )
  })
})

describe('jwtKeys: the algorithms of each source', () => {
  it('defaults to HS256 with a secret, and takes the listed HMAC algorithms', () => {
    expect(jwtKeys(F, 'secret', { secret: SECRET }, undefined).algorithms).toEqual(['HS256'])
    const keys = jwtKeys(F, 'secret', { secret: 'k'.repeat(64) }, ['HS512', 'HS384'])
    expect(keys.algorithms).toEqual(['HS512', 'HS384'])
    expect(keys.remote).toBe(false)
    expect(keys.openIdConnectUrl).toBeUndefined()
  })

  it('names the wrong entry of algorithms by its index', () => {
    expect(() => jwtKeys(F, 'secret', { secret: SECRET }, ['HS256', 'RS256'])).toThrow(
      `jwtAuth: "algorithms[1]" must be 'HS256', 'HS384' or 'HS512' (HMAC only), got "RS256"`,
    )
    expect(() => jwtKeys(F, 'jwks', { jwks: { keys: [] } }, ['ES256', 'RS256', 'HS256'])).toThrow(
      /^jwtAuth: "algorithms\[2\]" must be one of RS256/,
    )
  })

  it('asks the secret to be long enough for the longest hash listed', () => {
    expect(() => jwtKeys(F, 'secret', { secret: 'k'.repeat(47) }, ['HS256', 'HS384'])).toThrow(
      /at least 48 bytes .*got 47$/,
    )
    expect(() => jwtKeys(F, 'secret', { secret: 'k'.repeat(48) }, ['HS384', 'HS256'])).not.toThrow()
  })

  it('imports one HMAC key per listed algorithm, once, and answers for no other', async () => {
    const { source } = jwtKeys(F, 'secret', { secret: 'k'.repeat(64) }, ['HS256', 'HS512'])
    const a = await source.key({ alg: 'HS256' }, undefined)
    const b = await source.key({ alg: 'HS512' }, undefined)
    expect(a.algorithm).toMatchObject({ name: 'HMAC', hash: { name: 'SHA-256' } })
    expect(b.algorithm).toMatchObject({ name: 'HMAC', hash: { name: 'SHA-512' } })
    expect(await source.key({ alg: 'HS256' }, undefined)).toBe(a)
    await expect(source.key({ alg: 'HS384' }, undefined)).rejects.toThrow('algorithm not allowed')
    await expect(source.key({ alg: 'RS256' }, undefined)).rejects.toThrow('algorithm not allowed')
    await expect(source.key({} as { alg: string }, undefined)).rejects.toThrow(
      'algorithm not allowed',
    )
    expect(source.generation()).toBe(0)
  })

  it("defaults to the public key's own algorithm, and refuses a listed one it cannot verify", () => {
    expect(jwtKeys(F, 'publicKey', { publicKey: rsaKey }, undefined).algorithms).toEqual(['RS256'])
    const jwk = { kty: 'RSA', n: 'AQAB', e: 'AQAB' }
    expect(jwtKeys(F, 'publicKey', { publicKey: jwk }, undefined).algorithms).toEqual(['RS256'])
    expect(jwtKeys(F, 'publicKey', { publicKey: jwk }, ['PS512', 'RS384']).algorithms).toEqual([
      'PS512',
      'RS384',
    ])
    expect(() => jwtKeys(F, 'publicKey', { publicKey: rsaKey }, ['RS256', 'RS384'])).toThrow(
      'jwtAuth: "algorithms" lists RS384, which does not fit the public key (it verifies RS256)',
    )
    expect(() => jwtKeys(F, 'publicKey', { publicKey: jwk }, ['ES256'])).toThrow(
      'jwtAuth: "algorithms" lists ES256, which does not fit the public key (it verifies RS256, RS384, RS512, PS256, PS384, PS512)',
    )
  })

  it('defaults to every public-key algorithm with a JWKS, and takes a listed subset', () => {
    const local = jwtKeys(F, 'jwks', { jwks: { keys: [] } }, undefined)
    expect(local.algorithms).toEqual(ASYMMETRIC_ALGORITHMS)
    expect(local.algorithms).not.toBe(ASYMMETRIC_ALGORITHMS)
    expect(local.remote).toBe(false)
    expect(local.openIdConnectUrl).toBeUndefined()
    expect(jwtKeys(F, 'jwks', { jwks: { keys: [] } }, ['ES256']).algorithms).toEqual(['ES256'])
  })
})

describe('jwtKeys: local and remote sources', () => {
  const remoteOnly = [
    ['jwksCache', { jwksCache: { maxAgeMs: 1000 } }],
    ['fetch', { fetch: globalThis.fetch }],
    ['onKeySetError', { onKeySetError: () => {} }],
  ] as const

  it.each(remoteOnly)('refuses %s with a secret, a public key and a JWKS object', (_, extra) => {
    const message =
      'jwtAuth: "jwksCache", "fetch" and "onKeySetError" apply only to a JWKS URL or discovery'
    expect(() => jwtKeys(F, 'secret', { secret: SECRET, ...extra }, undefined)).toThrow(message)
    expect(() => jwtKeys(F, 'publicKey', { publicKey: rsaKey, ...extra }, undefined)).toThrow(
      message,
    )
    expect(() => jwtKeys(F, 'jwks', { jwks: { keys: [] }, ...extra }, undefined)).toThrow(message)
  })

  it.each(remoteOnly)('takes %s with a JWKS URL and with discovery', (_, extra) => {
    const url = jwtKeys(F, 'jwks', { jwks: 'https://a.example/jwks.json', ...extra }, undefined)
    expect(url.remote).toBe(true)
    expect(url.openIdConnectUrl).toBeUndefined()
    const found = jwtKeys(
      F,
      'discovery',
      { discovery: true, issuer: 'https://a.example/', ...extra },
      undefined,
    )
    expect(found.remote).toBe(true)
    expect(found.openIdConnectUrl).toBe('https://a.example/.well-known/openid-configuration')
  })

  it('refuses a fetch that is not a function', () => {
    expect(() =>
      jwtKeys(F, 'jwks', { jwks: 'https://a.example/jwks.json', fetch: 'fetch' }, undefined),
    ).toThrow('jwtAuth: "fetch" must be a function, got "fetch"')
  })

  it('refuses discovery without one issuer URL', () => {
    const needs = 'jwtAuth: "discovery: true" needs "issuer" as one URL string'
    expect(() => jwtKeys(F, 'discovery', { discovery: true }, undefined)).toThrow(needs)
    expect(() =>
      jwtKeys(F, 'discovery', { discovery: true, issuer: ['https://a.example'] }, undefined),
    ).toThrow(needs)
    expect(() =>
      jwtKeys(F, 'discovery', { discovery: true, issuer: 'http://a.example' }, undefined),
    ).toThrow(/^jwtAuth: "issuer" must be an https URL/)
  })

  it('fetches a JWKS given as a URL object, and verifies with it', async () => {
    const key = await testKey('ES256', 'e')
    const s = await serveJwks([key.jwk])
    const keys = jwtKeys(F, 'jwks', { jwks: new URL(s.jwksUrl) }, undefined)
    expect(keys.remote).toBe(true)
    expect(s.fetches).toBe(0)
    const found = await keys.source.key({ alg: 'ES256', kid: 'e' }, undefined)
    expect(found.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' })
    expect(s.fetches).toBe(1)
    expect(await signWith(key, {})).toMatch(/^ey/)
  })

  it('refuses a JWKS URL string that is not https off loopback', () => {
    expect(() => jwtKeys(F, 'jwks', { jwks: 'http://a.example/jwks.json' }, undefined)).toThrow(
      /^jwtAuth: "jwks" must be an https URL/,
    )
    expect(() => jwtKeys(F, 'jwks', { jwks: 42 }, undefined)).toThrow(
      /^jwtAuth: "jwks" must be an https URL .*got 42$/,
    )
  })
})

describe('hmac: the secret and the algorithms', () => {
  it('pairs each algorithm with its hash and the hash length in bytes', () => {
    expect(HMAC_HASHES).toEqual({ HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' })
    expect(MIN_SECRET_BYTES).toEqual({ HS256: 32, HS384: 48, HS512: 64 })
  })

  it.each([
    ['a public key PEM', '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----'],
    [
      'a PEM after a newline and spaces',
      `\n   -----BEGIN PUBLIC KEY-----\n${'A'.repeat(64)}\n-----END PUBLIC KEY-----`,
    ],
    ['a PEM after a tab', `\t-----BEGIN CERTIFICATE-----${'A'.repeat(64)}`],
    ['a private key PEM', `-----BEGIN PRIVATE KEY-----${'A'.repeat(64)}-----END PRIVATE KEY-----`],
  ])('refuses %s as a secret (algorithm confusion)', (_, pem) => {
    expect(() => secretBytes(F, pem, 32)).toThrow(
      'jwtAuth: "secret" is a PEM key: public keys go in "publicKey"',
    )
  })

  it('refuses a JWK or a JWKS pasted as JSON text (its public members are no secret)', async () => {
    const { exportJWK } = await import('jose')
    const jwk = await exportJWK(rsaKey)
    const message = 'jwtAuth: "secret" is a JWK as JSON: public keys go in "publicKey" or "jwks"'
    for (const text of [
      JSON.stringify(jwk),
      `\n  ${JSON.stringify(jwk, null, 2)}`,
      JSON.stringify({ keys: [jwk] }),
      JSON.stringify({ keys: [] }),
      JSON.stringify({ kty: 'oct', k: 'k'.repeat(43) }),
    ]) {
      expect(() => secretBytes(F, text, 32)).toThrow(message)
    }
    expect(() => jwtAuth({ secret: JSON.stringify(jwk) })).toThrow(message)
    await expect(signJwt({}, JSON.stringify(jwk))).rejects.toThrow(
      /^signJwt: "secret" is a JWK as JSON/,
    )
  })

  it('takes a secret that merely looks like JSON', () => {
    for (const text of [
      `{${'k'.repeat(40)}`,
      JSON.stringify({ secret: 'k'.repeat(40) }),
      JSON.stringify({ kty: 1, pad: 'k'.repeat(40) }),
      JSON.stringify({ keys: 'k'.repeat(40) }),
      `x${JSON.stringify({ kty: 'RSA', n: 'k'.repeat(40) })}`,
    ]) {
      expect(secretBytes(F, text, 32)).toEqual(new TextEncoder().encode(text))
    }
  })

  it('takes a long string that merely contains a PEM marker later on', () => {
    const text = `x-----BEGIN PUBLIC KEY-----${'A'.repeat(40)}`
    expect(secretBytes(F, text, 32)).toEqual(new TextEncoder().encode(text))
  })

  it('copies the bytes of a Uint8Array (and of a Buffer), and refuses other binary forms', () => {
    const given = new Uint8Array(32).fill(7)
    const bytes = secretBytes(F, given, 32)
    given.fill(0)
    expect(bytes).toEqual(new Uint8Array(32).fill(7))
    expect(secretBytes(F, Buffer.alloc(32, 1), 32)).toEqual(new Uint8Array(32).fill(1))
    for (const value of [new ArrayBuffer(32), new Uint16Array(16), [1, 2, 3], 42, null]) {
      expect(() => secretBytes(F, value, 32)).toThrow(
        'jwtAuth: "secret" must be a Uint8Array or a string',
      )
    }
  })

  it('refuses an empty secret before its length, and names the length of a short one', () => {
    expect(() => secretBytes(F, '', 32)).toThrow('jwtAuth: "secret" must not be empty')
    expect(() => secretBytes(F, new Uint8Array(), 0)).toThrow('jwtAuth: "secret" must not be empty')
    expect(() => secretBytes(F, 'k'.repeat(47), 48)).toThrow(
      'jwtAuth: "secret" must be at least 48 bytes for the chosen algorithm (RFC 7518 §3.2), got 47',
    )
    expect(secretBytes(F, 'k'.repeat(48), 48).length).toBe(48)
  })

  it.each([
    ['RS256', '"RS256"'],
    ['none', '"none"'],
    ['hs256', '"hs256"'],
    [null, '"null"'],
    [256, '"256"'],
    ['x'.repeat(100), `"${'x'.repeat(39)}`],
  ])('refuses the algorithm %j, quoting at most 40 characters', (value, shown) => {
    expect(() => assertHmacAlgorithm(F, 'algorithms[0]', value)).toThrow(
      `jwtAuth: "algorithms[0]" must be 'HS256', 'HS384' or 'HS512' (HMAC only), got ${shown}`,
    )
    try {
      assertHmacAlgorithm(F, 'algorithms[0]', value)
    } catch (err) {
      expect((err as Error).message.endsWith(`got ${shown}`)).toBe(true)
    }
  })

  it.each(['HS256', 'HS384', 'HS512'])('passes %s', (alg) => {
    expect(assertHmacAlgorithm(F, 'algorithms[0]', alg)).toBe(alg)
  })

  it('takes only a string: not an array or an object that spells HS256', async () => {
    for (const value of [['HS256'], { toString: () => 'HS256' }]) {
      expect(() => assertHmacAlgorithm(F, 'algorithm', value)).toThrow(
        `jwtAuth: "algorithm" must be 'HS256', 'HS384' or 'HS512' (HMAC only), got "HS256"`,
      )
      await expect(signJwt({}, SECRET, { algorithm: value as unknown as 'HS256' })).rejects.toThrow(
        /^signJwt: "algorithm" must be 'HS256'/,
      )
    }
  })

  it('does not take a name inherited from Object.prototype for an algorithm', () => {
    for (const value of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(() => assertHmacAlgorithm(F, 'algorithms[0]', value)).toThrow(/HMAC only/)
    }
  })
})

describe('a Buffer secret zeroed after construction (Node code that wipes its secrets)', () => {
  /** An HS256 token for `payload`, MACed with `secret` by WebCrypto directly. */
  async function mac(secret: Uint8Array, payload: object): Promise<string> {
    const key = await importHmacKey(secret, 'SHA-256')
    const text = (v: object) => base64url(new TextEncoder().encode(JSON.stringify(v)))
    const input = `${text({ alg: 'HS256', typ: 'JWT' })}.${text(payload)}`
    const sig = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(input))
    return `${input}.${base64url(new Uint8Array(sig))}`
  }
  const claims = () => ({ sub: 'admin', exp: Math.floor(Date.now() / 1000) + 60 })

  it('keeps verifying with the secret it was given, never with zeros', async () => {
    const secret = Buffer.from('k'.repeat(32))
    const app = new Hono()
    app.use(jwtAuth({ secret }))
    app.get('/', (c) => c.text('ok'))
    secret.fill(0)
    const forged = await mac(new Uint8Array(32), claims())
    const real = await mac(new TextEncoder().encode('k'.repeat(32)), claims())
    const call = (token: string) =>
      app.request('/', { headers: { Authorization: `Bearer ${token}` } })
    expect((await call(forged)).status).toBe(401)
    expect((await call(real)).status).toBe(200)
  })

  it('signs with the secret it was given in signJwt too', async () => {
    const secret = Buffer.from('k'.repeat(32))
    const signing = signJwt({ sub: 'u' }, secret)
    secret.fill(0)
    const token = await signing
    const app = new Hono()
    app.use(jwtAuth({ secret: 'k'.repeat(32) }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(
      200,
    )
  })
})
