// keys.ts at its edges: which algorithms each kind of key verifies (CryptoKey, JWK, PEM), the
// exact refusals at construction, the PEM parser, and the key sources over one public key and
// over a JWKS object. jwks.test.ts covers the same through whole requests; here each rule is
// pinned on its own, with the message a user reads.
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { signWith, type TestKey, testKey } from '../../test/jwks-server'
import { importHmacKey } from '../internal/crypto'
import { jwtAuth } from './index'
import { parseCompact, signatureValid } from './jws'
import {
  ASYMMETRIC_ALGORITHMS,
  type AsymmetricAlgorithm,
  assertAsymmetricAlgorithm,
  cryptoKeyAlgorithms,
  importPem,
  isCryptoKey,
  jwkTypeAlgorithms,
  localJwksSource,
  PRIVATE_MEMBERS,
  parsePem,
  publicKeyAlgorithms,
  publicKeySource,
} from './keys'

const F = 'jwtAuth'

/** The DER of `key` in `format` as a PEM of `label` ("PUBLIC" or "PRIVATE"), 64 columns. */
async function pemOf(key: CryptoKey, label: 'PUBLIC' | 'PRIVATE'): Promise<string> {
  const der = new Uint8Array(
    await crypto.subtle.exportKey(label === 'PUBLIC' ? 'spki' : 'pkcs8', key),
  )
  const b64 = btoa(String.fromCharCode(...der))
  const lines = b64.match(/.{1,64}/g) as string[]
  return `-----BEGIN ${label} KEY-----\n${lines.join('\n')}\n-----END ${label} KEY-----`
}

const pairs = new Map<AsymmetricAlgorithm, CryptoKeyPair>()
let rs256: TestKey
beforeAll(async () => {
  for (const alg of ['RS256', 'PS384', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const) {
    pairs.set(alg, (await generateKeyPair(alg, { extractable: true })) as CryptoKeyPair)
  }
  rs256 = await testKey('RS256', 'rsa-1')
})
const pair = (alg: AsymmetricAlgorithm) => pairs.get(alg) as CryptoKeyPair

describe('cryptoKeyAlgorithms: WebCrypto binds the hash and the curve', () => {
  it.each([
    ['RS256', ['RS256']],
    ['PS384', ['PS384']],
    ['ES256', ['ES256']],
    ['ES384', ['ES384']],
    ['ES512', ['ES512']],
    ['EdDSA', ['EdDSA']],
  ] as const)('a %s public key verifies exactly %j', (alg, expected) => {
    expect(cryptoKeyAlgorithms(pair(alg).publicKey)).toEqual(expected)
  })

  it.each(['SHA-256', 'SHA-384', 'SHA-512'] as const)(
    'an RSA key names its hash: RS and PS with %s',
    async (hash) => {
      const bits = hash.slice(4)
      for (const [name, prefix] of [
        ['RSASSA-PKCS1-v1_5', 'RS'],
        ['RSA-PSS', 'PS'],
      ] as const) {
        const key = await crypto.subtle.importKey(
          'spki',
          await crypto.subtle.exportKey('spki', pair('RS256').publicKey),
          { name, hash },
          false,
          ['verify'],
        )
        expect(cryptoKeyAlgorithms(key)).toEqual([`${prefix}${bits}`])
      }
    },
  )

  it('names no algorithm for an RSA key on SHA-1, nor for keys that do not sign', async () => {
    const sha1 = await crypto.subtle.importKey(
      'spki',
      await crypto.subtle.exportKey('spki', pair('RS256').publicKey),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-1' },
      false,
      ['verify'],
    )
    const pss1 = await crypto.subtle.importKey(
      'spki',
      await crypto.subtle.exportKey('spki', pair('RS256').publicKey),
      { name: 'RSA-PSS', hash: 'SHA-1' },
      false,
      ['verify'],
    )
    const x25519 = (await crypto.subtle.generateKey({ name: 'X25519' }, true, [
      'deriveBits',
    ])) as CryptoKeyPair
    const ecdh = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
      'deriveBits',
    ])) as CryptoKeyPair
    for (const key of [sha1, pss1, x25519.publicKey, ecdh.publicKey]) {
      expect(cryptoKeyAlgorithms(key)).toEqual([])
    }
    // And jwtAuth says so at construction.
    for (const key of [sha1, x25519.publicKey]) {
      expect(() => jwtAuth({ publicKey: key })).toThrow(
        'jwtAuth: "publicKey" is a CryptoKey of an unsupported algorithm',
      )
    }
  })

  it('names no algorithm for a key-like object without a hash or a known curve', () => {
    const like = (algorithm: object) => ({ type: 'public', algorithm, usages: ['verify'] })
    expect(cryptoKeyAlgorithms(like({ name: 'RSASSA-PKCS1-v1_5' }) as CryptoKey)).toEqual([])
    expect(cryptoKeyAlgorithms(like({ name: 'RSA-PSS' }) as CryptoKey)).toEqual([])
    expect(cryptoKeyAlgorithms(like({ name: 'ECDSA' }) as CryptoKey)).toEqual([])
    expect(cryptoKeyAlgorithms(like({ name: 'ECDSA', namedCurve: 'P-192' }) as CryptoKey)).toEqual(
      [],
    )
    expect(
      cryptoKeyAlgorithms(
        like({ name: 'RSASSA-PKCS1-v1_5', hash: { name: 'SHA-224' } }) as CryptoKey,
      ),
    ).toEqual([])
  })

  it('tells a CryptoKey by its algorithm, type and usages, all three', () => {
    expect(isCryptoKey(pair('ES256').publicKey)).toBe(true)
    expect(isCryptoKey({ algorithm: {}, type: 'public', usages: [] })).toBe(true)
    expect(isCryptoKey({ type: 'public', usages: [] })).toBe(false)
    expect(isCryptoKey({ algorithm: {}, usages: [] })).toBe(false)
    expect(isCryptoKey({ algorithm: {}, type: 'public' })).toBe(false)
    expect(isCryptoKey(null)).toBe(false)
    expect(isCryptoKey('algorithm type usages')).toBe(false)
  })
})

describe('jwkTypeAlgorithms: the key type alone', () => {
  it.each([
    [{ kty: 'RSA' }, ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']],
    [{ kty: 'EC', crv: 'P-256' }, ['ES256']],
    [{ kty: 'EC', crv: 'P-384' }, ['ES384']],
    [{ kty: 'EC', crv: 'P-521' }, ['ES512']],
    [{ kty: 'OKP', crv: 'Ed25519' }, ['EdDSA']],
    [{ kty: 'EC', crv: 'secp256k1' }, []],
    [{ kty: 'EC' }, []],
    [{ kty: 'OKP', crv: 'Ed448' }, []],
    [{ kty: 'OKP', crv: 'X25519' }, []],
    [{ kty: 'OKP' }, []],
    [{ kty: 'RSA-PSS' }, []],
    [{ kty: 'oct' }, []],
    [{ crv: 'Ed25519' }, []],
    [{ kty: 'Ed25519', crv: 'Ed25519' }, []],
    [{ kty: 'EC', crv: 'Ed25519' }, []],
    [{ kty: 'OKP', crv: 'P-256' }, []],
  ] as [JWK, string[]][])('%j fits %j', (jwk, expected) => {
    expect(jwkTypeAlgorithms(jwk)).toEqual(expected)
  })
})

describe('publicKeyAlgorithms: what one publicKey verifies, and its default', () => {
  const ec = { kty: 'EC', crv: 'P-256', x: 'a', y: 'b' }

  it('defaults to the first algorithm of the key type, or the one the JWK names', () => {
    expect(publicKeyAlgorithms(F, { kty: 'RSA', n: 'a', e: 'AQAB' })).toEqual({
      fits: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
      defaults: ['RS256'],
    })
    expect(publicKeyAlgorithms(F, { kty: 'RSA', n: 'a', e: 'AQAB', alg: 'PS384' })).toEqual({
      fits: ['PS384'],
      defaults: ['PS384'],
    })
    expect(publicKeyAlgorithms(F, { ...ec, crv: 'P-521' })).toEqual({
      fits: ['ES512'],
      defaults: ['ES512'],
    })
    expect(publicKeyAlgorithms(F, pair('ES384').publicKey)).toEqual({
      fits: ['ES384'],
      defaults: ['ES384'],
    })
  })

  it.each([
    ['a use of "sig"', { ...ec, use: 'sig' }],
    ['key_ops with verify', { ...ec, key_ops: ['verify'] }],
    ['key_ops with verify after another', { ...ec, key_ops: ['sign', 'verify'] }],
    ['an alg that fits', { ...ec, alg: 'ES256' }],
    ['ext and a kid', { ...ec, ext: true, kid: 'k' }],
  ])('accepts a public JWK with %s', (_, jwk) => {
    expect(publicKeyAlgorithms(F, jwk).fits).toEqual(['ES256'])
  })

  it.each(PRIVATE_MEMBERS.map((m) => [m]))(
    'refuses a JWK holding the private member "%s" (even empty)',
    (member) => {
      const jwk = { kty: 'RSA', n: 'a', e: 'AQAB', [member]: '' }
      expect(() => publicKeyAlgorithms(F, jwk)).toThrow(
        'jwtAuth: "publicKey" must be a public key, got a private JWK',
      )
      // A JWKS object refuses it too.
      expect(() => localJwksSource(F, { keys: [ec, jwk] })).toThrow(
        'jwtAuth: "jwks" must hold public keys only (no private or symmetric JWK)',
      )
    },
  )

  it.each([
    [
      'a symmetric JWK',
      { kty: 'oct', k: 'c2VjcmV0' },
      'jwtAuth: "publicKey" is a symmetric JWK: an HMAC key goes in "secret"',
    ],
    [
      'a symmetric JWK without k',
      { kty: 'oct' },
      'jwtAuth: "publicKey" is a symmetric JWK: an HMAC key goes in "secret"',
    ],
    ['use "enc"', { ...ec, use: 'enc' }, 'jwtAuth: "publicKey" has use "enc", not "sig"'],
    ['use ""', { ...ec, use: '' }, 'jwtAuth: "publicKey" has use "", not "sig"'],
    ['use null', { ...ec, use: null }, 'jwtAuth: "publicKey" has use null, not "sig"'],
    [
      'key_ops without verify',
      { ...ec, key_ops: ['sign', 'encrypt'] },
      'jwtAuth: "publicKey" key_ops does not allow "verify"',
    ],
    [
      'empty key_ops',
      { ...ec, key_ops: [] },
      'jwtAuth: "publicKey" key_ops does not allow "verify"',
    ],
    [
      'key_ops as the string "verify"',
      { ...ec, key_ops: 'verify' },
      'jwtAuth: "publicKey" key_ops does not allow "verify"',
    ],
    [
      'key_ops null',
      { ...ec, key_ops: null },
      'jwtAuth: "publicKey" key_ops does not allow "verify"',
    ],
    [
      'an EC key on another curve',
      { ...ec, crv: 'secp256k1' },
      'jwtAuth: "publicKey" is a JWK of an unsupported type "EC"',
    ],
    [
      'an X25519 key',
      { kty: 'OKP', crv: 'X25519', x: 'a' },
      'jwtAuth: "publicKey" is a JWK of an unsupported type "OKP"',
    ],
    [
      'an alg of another key type',
      { ...ec, alg: 'RS256' },
      'jwtAuth: "publicKey" has alg "RS256", which does not fit its key type',
    ],
    [
      'an alg of another curve',
      { ...ec, alg: 'ES384' },
      'jwtAuth: "publicKey" has alg "ES384", which does not fit its key type',
    ],
    [
      'an HMAC alg on an RSA key',
      { kty: 'RSA', n: 'a', e: 'AQAB', alg: 'HS256' },
      'jwtAuth: "publicKey" has alg "HS256", which does not fit its key type',
    ],
    [
      'alg none',
      { ...ec, alg: 'none' },
      'jwtAuth: "publicKey" has alg "none", which does not fit its key type',
    ],
  ])('refuses a JWK with %s, saying so', (_, jwk, message) => {
    expect(() => publicKeyAlgorithms(F, jwk)).toThrow(message)
  })

  it.each([
    [null, 'null'],
    [42, '42'],
    [{ kty: 1 }, 'object'],
    [{ crv: 'P-256', x: 'a', y: 'b' }, 'object'],
    [[], 'an array'],
    [undefined, 'undefined'],
  ])('refuses %j: not a CryptoKey, a JWK or a PEM', (key, shown) => {
    expect(() => publicKeyAlgorithms(F, key)).toThrow(
      `jwtAuth: "publicKey" must be a CryptoKey, a JWK or an SPKI PEM, got ${shown}`,
    )
  })

  it('refuses a private or secret CryptoKey, pointing HMAC keys at "secret"', async () => {
    expect(() => publicKeyAlgorithms(F, pair('ES256').privateKey)).toThrow(
      /^jwtAuth: "publicKey" must be a public CryptoKey, got a private key$/,
    )
    const hmac = await importHmacKey('x'.repeat(32), 'SHA-256')
    expect(() => publicKeyAlgorithms(F, hmac)).toThrow(
      'jwtAuth: "publicKey" must be a public CryptoKey, got a secret key (HMAC keys go in "secret")',
    )
  })
})

describe('assertAsymmetricAlgorithm', () => {
  it.each(ASYMMETRIC_ALGORITHMS)('passes %s', (alg) => {
    expect(assertAsymmetricAlgorithm(F, 'algorithms[0]', alg)).toBe(alg)
  })

  it.each([
    ['HS256', '"HS256"'],
    ['none', '"none"'],
    ['rs256', '"rs256"'],
    ['ES256K', '"ES256K"'],
    ['Ed25519', '"Ed25519"'],
    [256, '256'],
    [null, 'null'],
  ])('refuses %j, naming the option', (value, shown) => {
    expect(() => assertAsymmetricAlgorithm(F, 'algorithms[2]', value)).toThrow(
      `jwtAuth: "algorithms[2]" must be one of RS256/384/512, PS256/384/512, ES256/384/512 or EdDSA with a public key (HMAC needs "secret"), got ${shown}`,
    )
  })
})

describe('parsePem', () => {
  it.each([
    ['RS256', ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']],
    ['PS384', ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']],
    ['ES256', ['ES256']],
    ['ES384', ['ES384']],
    ['ES512', ['ES512']],
    ['EdDSA', ['EdDSA']],
  ] as const)('reads what a %s SPKI and PKCS#8 PEM fit', async (alg, fits) => {
    const { publicKey, privateKey } = pair(alg)
    const pub = parsePem(F, 'publicKey', await pemOf(publicKey, 'PUBLIC'), 'PUBLIC')
    expect(pub.kind).toBe('PUBLIC')
    expect(pub.fits).toEqual(fits)
    expect(pub.der).toEqual(new Uint8Array(await crypto.subtle.exportKey('spki', publicKey)))
    const priv = parsePem('signJwt', 'key', await pemOf(privateKey, 'PRIVATE'), 'PRIVATE')
    expect(priv.kind).toBe('PRIVATE')
    expect(priv.fits).toEqual(fits)
  })

  it('reads a PEM with surrounding whitespace, CRLF line ends and one line of base64', async () => {
    const pem = await pemOf(pair('ES256').publicKey, 'PUBLIC')
    expect(parsePem(F, 'publicKey', `\n  ${pem}\n\n`, 'PUBLIC').fits).toEqual(['ES256'])
    expect(parsePem(F, 'publicKey', pem.replace(/\n/g, '\r\n'), 'PUBLIC').fits).toEqual(['ES256'])
    const body = pem.split('\n').slice(1, -1).join('')
    expect(
      parsePem(
        F,
        'publicKey',
        `-----BEGIN PUBLIC KEY-----${body}-----END PUBLIC KEY-----`,
        'PUBLIC',
      ).fits,
    ).toEqual(['ES256'])
  })

  it('refuses the other kind of PEM, naming it', async () => {
    const pub = await pemOf(pair('ES256').publicKey, 'PUBLIC')
    const priv = await pemOf(pair('ES256').privateKey, 'PRIVATE')
    expect(() => parsePem(F, 'publicKey', priv, 'PUBLIC')).toThrow(
      'jwtAuth: "publicKey" must be a public key, got a private key PEM',
    )
    expect(() => parsePem('signJwt', 'key', pub, 'PRIVATE')).toThrow(
      'signJwt: "key" must be a private key, got a public key PEM',
    )
  })

  it.each([
    ['text that is no PEM', 'not a key'],
    [
      'an RSA PUBLIC KEY (PKCS#1)',
      '-----BEGIN RSA PUBLIC KEY-----\nAAAA\n-----END RSA PUBLIC KEY-----',
    ],
    ['a certificate', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'],
    ['an empty body', '-----BEGIN PUBLIC KEY----------END PUBLIC KEY-----'],
    ['a body outside the alphabet', '-----BEGIN PUBLIC KEY-----\nAA-_\n-----END PUBLIC KEY-----'],
    ['text after the end line', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----x'],
    ['text before the begin line', 'x-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----'],
  ])('refuses %s as no PEM of the kind asked', (_, pem) => {
    expect(() => parsePem(F, 'publicKey', pem, 'PUBLIC')).toThrow(
      'jwtAuth: "publicKey" as a string must be a PEM ("-----BEGIN PUBLIC KEY-----")',
    )
  })

  it('refuses a PEM whose labels differ', () => {
    expect(() =>
      parsePem(
        F,
        'publicKey',
        '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PRIVATE KEY-----',
        'PUBLIC',
      ),
    ).toThrow(/^jwtAuth: "publicKey" must be a public key/)
  })

  it('needs the EC key OID beside a curve OID: a curve alone names no key type', async () => {
    const der = new Uint8Array(await crypto.subtle.exportKey('spki', pair('ES256').publicKey))
    const hex = Array.from(der, (b) => b.toString(16).padStart(2, '0')).join('')
    // id-ecPublicKey (1.2.840.10045.2.1) becomes 1.2.840.10045.2.2, same length, curve kept.
    const at = hex.indexOf('06072a8648ce3d0201') / 2
    expect(at).toBeGreaterThan(0)
    der[at + 8] = 2
    const pem = `-----BEGIN PUBLIC KEY-----\n${btoa(String.fromCharCode(...der))}\n-----END PUBLIC KEY-----`
    expect(() => parsePem(F, 'publicKey', pem, 'PUBLIC')).toThrow(
      'jwtAuth: "publicKey" PEM holds an unsupported key type',
    )
  })

  it('names the publicKey option when its string is no PEM', () => {
    expect(() => publicKeyAlgorithms(F, 'not a key')).toThrow(
      'jwtAuth: "publicKey" as a string must be a PEM ("-----BEGIN PUBLIC KEY-----")',
    )
  })

  it('names the private label when a private key was asked for', () => {
    expect(() => parsePem('signJwt', 'key', 'nothing', 'PRIVATE')).toThrow(
      'signJwt: "key" as a string must be a PEM ("-----BEGIN PRIVATE KEY-----")',
    )
  })

  it('refuses a body that is not base64, and a key type it does not know', async () => {
    expect(() =>
      parsePem(
        F,
        'publicKey',
        '-----BEGIN PUBLIC KEY-----\nAA=A\n-----END PUBLIC KEY-----',
        'PUBLIC',
      ),
    ).toThrow('jwtAuth: "publicKey" PEM is not valid base64')
    const x25519 = (await crypto.subtle.generateKey({ name: 'X25519' }, true, [
      'deriveBits',
    ])) as CryptoKeyPair
    const ecdh384 = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-384' }, true, [
      'deriveBits',
    ])) as CryptoKeyPair
    expect(() =>
      parsePem(
        F,
        'publicKey',
        '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----',
        'PUBLIC',
      ),
    ).toThrow('jwtAuth: "publicKey" PEM holds an unsupported key type')
    expect(() => parsePem(F, 'publicKey', '', 'PUBLIC')).toThrow(/must be a PEM/)
    const x = await pemOf(x25519.publicKey, 'PUBLIC')
    expect(() => parsePem(F, 'publicKey', x, 'PUBLIC')).toThrow(
      'jwtAuth: "publicKey" PEM holds an unsupported key type',
    )
    // An ECDH key on P-384 names the EC key OID and a curve: the EC family, read by its curve.
    expect(
      parsePem(F, 'publicKey', await pemOf(ecdh384.publicKey, 'PUBLIC'), 'PUBLIC').fits,
    ).toEqual(['ES384'])
  })
})

describe('importPem', () => {
  it.each([
    ['RS256', { name: 'RSASSA-PKCS1-v1_5', hash: { name: 'SHA-256' } }],
    ['RS512', { name: 'RSASSA-PKCS1-v1_5', hash: { name: 'SHA-512' } }],
    ['PS256', { name: 'RSA-PSS', hash: { name: 'SHA-256' } }],
    ['PS384', { name: 'RSA-PSS', hash: { name: 'SHA-384' } }],
    ['ES256', { name: 'ECDSA', namedCurve: 'P-256' }],
    ['ES384', { name: 'ECDSA', namedCurve: 'P-384' }],
    ['ES512', { name: 'ECDSA', namedCurve: 'P-521' }],
    ['EdDSA', { name: 'Ed25519' }],
  ] as const)('imports a PEM for %s with its hash or curve', async (alg, algorithm) => {
    const source = alg.startsWith('RS') || alg.startsWith('PS') ? 'RS256' : alg
    const { publicKey, privateKey } = pair(source)
    const pub = await importPem(
      parsePem(F, 'publicKey', await pemOf(publicKey, 'PUBLIC'), 'PUBLIC'),
      alg,
    )
    expect(pub.type).toBe('public')
    expect(pub.usages).toEqual(['verify'])
    expect(pub.extractable).toBe(false)
    expect(pub.algorithm).toMatchObject(algorithm)
    const priv = await importPem(
      parsePem('signJwt', 'key', await pemOf(privateKey, 'PRIVATE'), 'PRIVATE'),
      alg,
    )
    expect(priv.type).toBe('private')
    expect(priv.usages).toEqual(['sign'])
    expect(priv.algorithm).toMatchObject(algorithm)
  })
})

describe('publicKeySource', () => {
  it('answers only for the algorithms it was given, importing each once', async () => {
    const jwk = rs256.jwk
    const source = publicKeySource(jwk, ['RS256', 'PS256'])
    const a = await source.key({ alg: 'RS256' }, undefined)
    expect(a.algorithm).toMatchObject({ name: 'RSASSA-PKCS1-v1_5', hash: { name: 'SHA-256' } })
    expect(await source.key({ alg: 'RS256' }, undefined)).toBe(a)
    const b = await source.key({ alg: 'PS256' }, undefined)
    expect(b.algorithm).toMatchObject({ name: 'RSA-PSS', hash: { name: 'SHA-256' } })
    await expect(source.key({ alg: 'RS384' }, undefined)).rejects.toThrow('algorithm not allowed')
    await expect(source.key({} as { alg: string }, undefined)).rejects.toThrow(
      'algorithm not allowed',
    )
    expect(source.generation()).toBe(0)
  })

  it('hands a CryptoKey back as it is, and imports a PEM for the algorithm asked', async () => {
    const { publicKey } = pair('ES256')
    expect(await publicKeySource(publicKey, ['ES256']).key({ alg: 'ES256' }, undefined)).toBe(
      publicKey,
    )
    const pem = await pemOf(publicKey, 'PUBLIC')
    const key = await publicKeySource(pem, ['ES256']).key({ alg: 'ES256' }, undefined)
    expect(key.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' })
    expect(key.usages).toEqual(['verify'])
  })

  it('keeps its own copy of a JWK: changing the object later changes nothing', async () => {
    const jwk = { ...rs256.jwk }
    const token = await signWith(rs256, { sub: 'u' })
    const jws = parseCompact(token, new Set(['RS256']))
    const source = publicKeySource(jwk, ['RS256'])
    jwk.n = (await exportJWK((await generateKeyPair('RS256')).publicKey)).n as string
    const key = await source.key({ alg: 'RS256' }, undefined)
    expect(jws).not.toBeNull()
    expect(await signatureValid(jws as NonNullable<typeof jws>, key)).toBe(true)
  })
})

describe('localJwksSource', () => {
  it.each([
    ['null', null],
    ['an array of keys', [rs256]],
    ['keys as an object', { keys: {} }],
    ['keys missing', {}],
    ['a string', 'https://example.com/jwks.json'],
  ])('refuses %s as a JWKS object', (_, jwks) => {
    expect(() => localJwksSource(F, jwks)).toThrow(
      'jwtAuth: "jwks" must be a URL or a JWKS object ({ keys: [...] })',
    )
  })

  it.each([
    ['null', null],
    ['a string', 'RSA'],
    ['a number', 1],
  ])('refuses a key that is %s with the option error, not a crash', (_, entry) => {
    expect(() => localJwksSource(F, { keys: [rs256.jwk, entry] })).toThrow(
      /^jwtAuth: "jwks" must be a URL or a JWKS object/,
    )
  })

  it('serves a key of the set by kid and alg, and refuses a kid it does not hold', async () => {
    const source = localJwksSource(F, { keys: [rs256.jwk] })
    const key = await source.key({ alg: 'RS256', kid: 'rsa-1' }, undefined)
    expect(cryptoKeyAlgorithms(key)).toEqual(['RS256'])
    await expect(source.key({ alg: 'RS256', kid: 'rsa-2' }, undefined)).rejects.toThrow()
    expect(source.generation()).toBe(0)
  })

  it('accepts an empty set (every token is then refused)', () => {
    expect(() => localJwksSource(F, { keys: [] })).not.toThrow()
  })
})
