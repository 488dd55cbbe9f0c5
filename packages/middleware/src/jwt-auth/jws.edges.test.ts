// jws.ts at its edges: the compact form segment by segment (each of the three refused on its own
// for a character outside base64url), empty segments, the header members read and ignored, the
// media type compare of typ, strict UTF-8, and which key verifies which algorithm (RSA size for
// PS* as for RS*, the PSS salt length, HMAC hashes, keys of the wrong type). jws.test.ts runs
// the same rules through whole requests; the jose oracle compares random tokens.
import { base64url as b64 } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { signWith, type TestKey, testKey } from '../../test/jwks-server'
import { importHmacKey } from '../internal/crypto'
import {
  type CompactJws,
  jsonObject,
  keyFits,
  MIN_RSA_BITS,
  normalizeTyp,
  parseCompact,
  signatureValid,
  utf8,
} from './jws'

const enc = new TextEncoder()
const RS = new Set(['RS256'])
const header = b64.encode('{"alg":"RS256"}')
const payload = b64.encode('{"sub":"u"}')
const sig = b64.encode('signature')

async function rsaPair(name: 'RSASSA-PKCS1-v1_5' | 'RSA-PSS', bits: number, hash = 'SHA-256') {
  return (await crypto.subtle.generateKey(
    { name, modulusLength: bits, publicExponent: new Uint8Array([1, 0, 1]), hash },
    false,
    ['sign', 'verify'],
  )) as CryptoKeyPair
}

describe('parseCompact: the three segments', () => {
  it('parses the plain form, each part where it belongs', () => {
    const jws = parseCompact(`${header}.${payload}.${sig}`, RS) as CompactJws
    expect(jws.alg).toBe('RS256')
    expect(jws.header).toEqual({ alg: 'RS256' })
    expect(new TextDecoder().decode(jws.payload)).toBe('{"sub":"u"}')
    expect(new TextDecoder().decode(jws.signature)).toBe('signature')
    expect(new TextDecoder().decode(jws.signingInput)).toBe(`${header}.${payload}`)
  })

  it('takes an empty payload or signature as zero bytes (refused later, by JSON and the verify)', () => {
    const empty = parseCompact(`${header}..`, RS) as CompactJws
    expect(empty.payload).toEqual(new Uint8Array())
    expect(empty.signature).toEqual(new Uint8Array())
    expect(new TextDecoder().decode(empty.signingInput)).toBe(`${header}.`)
    expect((parseCompact(`${header}.${payload}.`, RS) as CompactJws).signature.length).toBe(0)
  })

  it.each([
    ['no dot', `${header}${payload}${sig}`],
    ['one dot', `${header}.${payload}`],
    ['three dots', `${header}.${payload}.${sig}.`],
    ['four segments', `${header}.${payload}.${sig}.${sig}`],
    ['two dots in a row after the header', `${header}..${payload}.${sig}`],
    ['the empty string', ''],
    ['only dots', '..'],
    ['a leading dot', `.${header}.${payload}.${sig}`],
    ['an empty header', `.${payload}.${sig}`],
  ])('refuses %s', (_, token) => {
    expect(parseCompact(token, RS)).toBeNull()
  })

  it('refuses a token without a dot whose text would decode as each of the three segments', () => {
    // 22 bytes of header: 30 characters, and one more makes a valid 31-character segment.
    const h = b64.encode('{"alg":"RS256","a":12}')
    expect(h.length).toBe(30)
    expect(parseCompact(`${h}.${h}.${h}A`, RS)).not.toBeNull()
    expect(parseCompact(`${h}A`, RS)).toBeNull()
    expect(parseCompact(h, RS)).toBeNull()
  })

  it.each(['+', '/', '=', ' ', '%', '\n', 'é'])(
    'refuses %j in any one segment, the others valid',
    (char) => {
      for (const token of [
        `${header}${char}.${payload}.${sig}`,
        `${header}.${payload}${char}.${sig}`,
        `${header}.${payload}.${sig}${char}`,
      ]) {
        expect(parseCompact(token, RS), token).toBeNull()
      }
    },
  )

  it('refuses padding on a segment (the same bytes, spelled with =)', () => {
    const padded = b64.encode('{"alg":"RS256","x":12}')
    expect(padded.length % 4).not.toBe(0)
    const pad = '='.repeat(4 - (padded.length % 4))
    expect(parseCompact(`${padded}.${payload}.${sig}`, RS)).not.toBeNull()
    expect(parseCompact(`${padded}${pad}.${payload}.${sig}`, RS)).toBeNull()
  })
})

describe('parseCompact: the header', () => {
  const parse = (h: string, allowed: ReadonlySet<string> = RS) =>
    parseCompact(`${b64.encode(h)}.${payload}.${sig}`, allowed)

  it.each([
    ['an alg not in the list', '{"alg":"RS384"}'],
    ['alg none, though a caller lists it', '{"alg":"none"}'],
    ['no alg', '{"kid":"k"}'],
    ['alg null', '{"alg":null}'],
    ['alg an object', '{"alg":{"toString":"RS256"}}'],
    ['an empty object', '{}'],
    ['text around the object', ' x{"alg":"RS256"}'],
    ['two objects', '{"alg":"RS256"}{}'],
    ['crit null', '{"alg":"RS256","crit":null}'],
    ['an empty crit beside b64 true', '{"alg":"RS256","crit":[],"b64":true}'],
    ['crit an object', '{"alg":"RS256","crit":{"0":"b64"},"b64":true}'],
    ['crit [null]', '{"alg":"RS256","crit":[null],"b64":true}'],
    ['crit [""]', '{"alg":"RS256","crit":[""],"b64":true}'],
    ['crit ["B64"]', '{"alg":"RS256","crit":["B64"],"b64":true}'],
    ['crit b64 with b64 1', '{"alg":"RS256","crit":["b64"],"b64":1}'],
    ['crit b64 with b64 null', '{"alg":"RS256","crit":["b64"],"b64":null}'],
  ])('refuses %s', (_, h) => {
    expect(parse(h)).toBeNull()
  })

  it('leaves alg none to the allow-list (the config never lists it), and no key ever fits none', async () => {
    expect(parse('{"alg":"none"}', new Set(['none']))).not.toBeNull()
    expect(parse('{"alg":"none"}')).toBeNull()
    const hmac = await importHmacKey('x'.repeat(32), 'SHA-256')
    expect(keyFits(hmac, 'none')).toBe(false)
    const jws = parse('{"alg":"none"}', new Set(['none'])) as CompactJws
    expect(await signatureValid({ ...jws, signature: new Uint8Array() }, hmac)).toBe(false)
  })

  it('reads alg case-sensitively and without trimming', () => {
    for (const alg of ['rs256', 'RS256 ', ' RS256', 'RS256\u0000']) {
      expect(parse(JSON.stringify({ alg })), alg).toBeNull()
    }
  })

  it.each([
    [
      'b64 false without crit (b64 counts only when crit names it, as jose reads it)',
      '{"alg":"RS256","b64":false}',
    ],
    ['crit b64 twice with b64 true', '{"alg":"RS256","crit":["b64","b64"],"b64":true}'],
    [
      'typ, kid, cty and unknown members',
      '{"alg":"RS256","typ":"JWT","kid":"k","cty":"x","zip":"DEF"}',
    ],
    [
      'jku, x5u and jwk (never read)',
      '{"alg":"RS256","jku":"https://evil","x5u":"https://evil","jwk":{}}',
    ],
    ['a BOM before the object', '\ufeff{"alg":"RS256"}'],
  ])('accepts %s', (_, h) => {
    expect(parse(h)?.alg).toBe('RS256')
  })

  it('keeps the last of duplicated members, as JSON.parse does', () => {
    expect(parse('{"alg":"HS256","alg":"RS256"}')?.header).toEqual({ alg: 'RS256' })
    expect(parse('{"alg":"RS256","alg":"HS256"}')).toBeNull()
  })

  it('refuses a header that is not strict UTF-8 (a lone continuation byte, an overlong slash)', () => {
    for (const bytes of [
      [...enc.encode('{"alg":"RS256","x":"'), 0x80, ...enc.encode('"}')],
      [...enc.encode('{"alg":"RS256","x":"'), 0xc0, 0xaf, ...enc.encode('"}')],
      [...enc.encode('{"alg":"RS256","x":"'), 0xed, 0xa0, 0x80, ...enc.encode('"}')],
    ]) {
      const token = `${b64.encode(new Uint8Array(bytes))}.${payload}.${sig}`
      expect(parseCompact(token, RS)).toBeNull()
    }
  })
})

describe('utf8, jsonObject and normalizeTyp', () => {
  it('decodes strict UTF-8 and answers null for anything else', () => {
    expect(utf8(enc.encode('héllo €'))).toBe('héllo €')
    expect(utf8(new Uint8Array())).toBe('')
    expect(utf8(new Uint8Array([0xff]))).toBeNull()
    expect(utf8(new Uint8Array([0xe2, 0x82]))).toBeNull()
  })

  it('reads JSON objects only', () => {
    expect(jsonObject(null)).toBeNull()
    expect(jsonObject('')).toBeNull()
    expect(jsonObject('{}')).toEqual({})
    expect(jsonObject(' {"a":[1]} ')).toEqual({ a: [1] })
    expect(jsonObject('true')).toBeNull()
  })

  it.each([
    ['JWT', 'application/jwt'],
    ['at+jwt', 'application/at+jwt'],
    ['AT+JWT', 'application/at+jwt'],
    ['application/AT+JWT', 'application/at+jwt'],
    ['text/plain', 'text/plain'],
    ['/', '/'],
    ['', 'application/'],
  ])('normalizes typ %j to %j', (typ, expected) => {
    expect(normalizeTyp(typ)).toBe(expected)
  })
})

describe('keyFits and signatureValid: a key verifies its own algorithm only', () => {
  let rs: TestKey
  let ps: TestKey
  let es384: TestKey
  let ed: TestKey
  beforeAll(async () => {
    rs = await testKey('RS256', 'rs')
    ps = await testKey('PS256', 'ps')
    es384 = await testKey('ES384', 'es')
    ed = await testKey('EdDSA', 'ed')
  })

  it(`refuses RSA keys under ${MIN_RSA_BITS} bits for PS* as for RS*, and takes ${MIN_RSA_BITS}`, async () => {
    const weakPss = await rsaPair('RSA-PSS', 1024)
    const weakPkcs = await rsaPair('RSASSA-PKCS1-v1_5', 1024, 'SHA-512')
    expect(keyFits(weakPss.publicKey, 'PS256')).toBe(false)
    expect(keyFits(weakPkcs.publicKey, 'RS512')).toBe(false)
    expect((ps.publicKey.algorithm as RsaHashedKeyAlgorithm).modulusLength).toBe(MIN_RSA_BITS)
    expect(keyFits(ps.publicKey, 'PS256')).toBe(true)
    expect(keyFits(rs.publicKey, 'RS256')).toBe(true)
    // The weak key's own signature is refused too, not merely the key.
    const data = enc.encode('a.b')
    const s = new Uint8Array(
      await crypto.subtle.sign({ name: 'RSA-PSS', saltLength: 32 }, weakPss.privateKey, data),
    )
    const jws = { alg: 'PS256', signature: s, signingInput: data } as CompactJws
    expect(await signatureValid(jws, weakPss.publicKey)).toBe(false)
  })

  it('verifies PS256 with a salt as long as the hash, and no other (RFC 7518 §3.5)', async () => {
    const token = await signWith(ps, { sub: 'u' })
    const jws = parseCompact(token, new Set(['PS256'])) as CompactJws
    expect(await signatureValid(jws, ps.publicKey)).toBe(true)
    for (const saltLength of [0, 20, 64]) {
      const s = new Uint8Array(
        await crypto.subtle.sign({ name: 'RSA-PSS', saltLength }, ps.privateKey, jws.signingInput),
      )
      expect(
        await signatureValid({ ...jws, signature: s }, ps.publicKey),
        `salt ${saltLength}`,
      ).toBe(false)
    }
  })

  it('refuses a private key, a key without verify, and keys of another family', async () => {
    expect(keyFits(rs.privateKey, 'RS256')).toBe(false)
    expect(keyFits(ed.publicKey, 'EdDSA')).toBe(true)
    expect(keyFits(ed.publicKey, 'ES256')).toBe(false)
    expect(keyFits(es384.publicKey, 'ES384')).toBe(true)
    expect(keyFits(es384.publicKey, 'ES512')).toBe(false)
    expect(keyFits(es384.publicKey, 'PS384')).toBe(false)
    expect(keyFits(ps.publicKey, 'RS256')).toBe(false)
    expect(keyFits(ps.publicKey, 'HS256')).toBe(false)
    expect(keyFits(undefined, 'RS256')).toBe(false)
    expect(keyFits('secret', 'HS256')).toBe(false)
  })

  it.each([
    ['HS256', 'SHA-256'],
    ['HS384', 'SHA-384'],
    ['HS512', 'SHA-512'],
  ] as const)('lets an HMAC key on %s verify that algorithm only', async (alg, hash) => {
    const key = await importHmacKey('x'.repeat(64), hash)
    for (const other of ['HS256', 'HS384', 'HS512', 'RS256', 'ES256', 'EdDSA']) {
      expect(keyFits(key, other), other).toBe(other === alg)
    }
  })

  it('refuses key-like objects that WebCrypto never made, without throwing', () => {
    const like = (type: string, algorithm: object, usages = ['verify']) => ({
      type,
      algorithm,
      usages,
    })
    expect(keyFits(like('secret', { name: 'HMAC' }), 'HS256')).toBe(false)
    expect(keyFits(like('public', { name: 'HMAC', hash: { name: 'SHA-256' } }), 'HS256')).toBe(
      false,
    )
    expect(keyFits(like('secret', { name: 'AES-GCM', hash: { name: 'SHA-256' } }), 'HS256')).toBe(
      false,
    )
    expect(keyFits(like('secret', { name: 'HMAC', hash: { name: 'SHA-256' } }, []), 'HS256')).toBe(
      false,
    )
    expect(keyFits(like('secret', { name: 'HMAC', hash: { name: 'SHA-256' } }), 'HS256')).toBe(true)
    // Only a public key verifies a public-key algorithm, whatever usages it claims.
    for (const type of ['private', 'secret']) {
      expect(keyFits(like(type, es384.publicKey.algorithm), 'ES384'), type).toBe(false)
    }
    expect(keyFits(like('public', es384.publicKey.algorithm), 'ES384')).toBe(true)
  })

  it('answers false, not an error, for a signature WebCrypto cannot read or a key that does not fit', async () => {
    const token = await signWith(es384, { sub: 'u' })
    const jws = parseCompact(token, new Set(['ES384'])) as CompactJws
    expect(await signatureValid(jws, es384.publicKey)).toBe(true)
    expect(await signatureValid({ ...jws, signature: new Uint8Array(3) }, es384.publicKey)).toBe(
      false,
    )
    expect(await signatureValid(jws, rs.publicKey)).toBe(false)
    expect(await signatureValid(jws, null)).toBe(false)
    // A key-like object that passes keyFits but is no CryptoKey: WebCrypto throws, the answer
    // is false.
    const fake = { type: 'public', algorithm: es384.publicKey.algorithm, usages: ['verify'] }
    expect(await signatureValid(jws, fake)).toBe(false)
  })
})
