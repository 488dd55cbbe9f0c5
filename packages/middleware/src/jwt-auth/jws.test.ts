import { Hono } from 'hono'
import { base64url as joseB64 } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { jwksServers, signWith, type TestKey, testKey } from '../../test/jwks-server'
import { importHmacKey } from '../internal/crypto'
import { type JwtAuthOptions, jwtAuth } from './index'
import { jsonObject, keyFits, parseCompact } from './jws'

const serveJwks = jwksServers()

function appWith(options: JwtAuthOptions) {
  const app = new Hono()
  app.use('/p/*', jwtAuth(options))
  app.get('/p/me', (c) => c.json(c.get('jwtPayload')))
  return app
}
const call = (app: Hono, token: string) =>
  app.request('/p/me', { headers: { Authorization: `Bearer ${token}` } })

const enc = new TextEncoder()
const b64 = (value: string | Uint8Array) => joseB64.encode(value)
const SIGN: Record<string, AlgorithmIdentifier | EcdsaParams> = {
  RS256: 'RSASSA-PKCS1-v1_5',
  ES256: { name: 'ECDSA', hash: 'SHA-256' },
}
const now = () => Math.floor(Date.now() / 1000)
const claims = () => JSON.stringify({ sub: 'u', iat: now(), exp: now() + 3600 })

/** Signs the header and payload segments exactly as given (already encoded). */
async function signSegments(
  key: CryptoKey,
  params: AlgorithmIdentifier | EcdsaParams,
  header: string,
  payload: string,
): Promise<string> {
  const sig = await crypto.subtle.sign(params, key, enc.encode(`${header}.${payload}`))
  return `${header}.${payload}.${b64(new Uint8Array(sig))}`
}
/** Signs a raw JSON header text and payload text (duplicates and all) with `key`. */
const signRaw = (key: TestKey, header: string, payload: string = claims()) =>
  signSegments(key.privateKey, SIGN[key.alg] as AlgorithmIdentifier, b64(header), b64(payload))

/** The same bytes spelled with unused low bits set in the last character. */
function nonCanonical(segment: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  const last = alphabet.indexOf(segment.slice(-1))
  expect(segment.length % 4).not.toBe(0)
  return segment.slice(0, -1) + alphabet[last + 1]
}
const lenientDecode = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))

let rs256: TestKey
let es256: TestKey
beforeAll(async () => {
  rs256 = await testKey('RS256', 'rsa-1')
  es256 = await testKey('ES256', 'ec-1')
})
/** A local JWKS object and the same set served over loopback: one code path, two sources. */
async function apps(options: Omit<JwtAuthOptions, 'jwks'> = {}, keys = [rs256, es256]) {
  const s = await serveJwks(keys.map((k) => k.jwk))
  return [
    appWith({ jwks: { keys: keys.map((k) => k.jwk) }, ...options }),
    appWith({ jwks: s.jwksUrl, ...options }),
  ]
}
const statuses = async (list: Hono[], token: string) =>
  Promise.all(list.map(async (app) => (await call(app, token)).status))

describe('jwtAuth with a JWKS: the token as sent', () => {
  it.each(['RS256', 'ES256'])('accepts a %s token signed with bare WebCrypto', async (alg) => {
    const key = alg === 'RS256' ? rs256 : es256
    const token = await signRaw(key, JSON.stringify({ alg, kid: key.kid }))
    expect(await statuses(await apps(), token)).toEqual([200, 200])
  })

  it.each(['RS256', 'ES256'])(
    'rejects a %s token whose signature, payload or header was changed',
    async (alg) => {
      const key = alg === 'RS256' ? rs256 : es256
      const token = await signWith(key, { sub: 'u' })
      const [h, p, s] = token.split('.') as [string, string, string]
      const flip = (x: string, i: number) =>
        x.slice(0, i) + (x[i] === 'A' ? 'B' : 'A') + x.slice(i + 1)
      const forged = [
        `${h}.${p}.${flip(s, 10)}`,
        `${h}.${b64(JSON.stringify({ sub: 'admin', exp: now() + 3600 }))}.${s}`,
        `${b64(JSON.stringify({ alg, kid: key.kid, typ: 'at+jwt' }))}.${p}.${s}`,
        // The signature of another token.
        `${h}.${p}.${(await signWith(key, { sub: 'other' })).split('.')[2]}`,
        `${h}.${p}.`,
      ]
      const list = await apps()
      for (const t of forged) expect(await statuses(list, t)).toEqual([401, 401])
    },
  )

  it.each(['RS256', 'ES256'])(
    'rejects a %s signature spelled as non-canonical or padded base64url (same bytes)',
    async (alg) => {
      const key = alg === 'RS256' ? rs256 : es256
      const token = await signWith(key, { sub: 'u' })
      const [h, p, s] = token.split('.') as [string, string, string]
      const odd = nonCanonical(s)
      expect(lenientDecode(odd)).toEqual(lenientDecode(s))
      const list = await apps()
      expect(await statuses(list, token)).toEqual([200, 200])
      expect(await statuses(list, `${h}.${p}.${odd}`)).toEqual([401, 401])
      expect(await statuses(list, `${h}.${p}.${s}${'='.repeat(4 - (s.length % 4))}`)).toEqual([
        401, 401,
      ])
    },
  )

  it('rejects a non-canonical header or payload even when the signature covers that text', async () => {
    const header = b64(JSON.stringify({ alg: 'ES256', kid: 'ec-1' }))
    const payload = b64(claims())
    const params = SIGN.ES256 as EcdsaParams
    const list = await apps()
    const good = await signSegments(es256.privateKey, params, header, payload)
    expect(await statuses(list, good)).toEqual([200, 200])
    for (const [h, p] of [
      [header.length % 4 === 0 ? header : nonCanonical(header), payload],
      [header, payload.length % 4 === 0 ? payload : nonCanonical(payload)],
    ] as const) {
      if (h === header && p === payload) continue
      const token = await signSegments(es256.privateKey, params, h, p)
      expect(await statuses(list, token)).toEqual([401, 401])
    }
  })

  it.each([
    ['alg as an array', '{"alg":["RS256"],"kid":"rsa-1"}'],
    ['alg as a number', '{"alg":256,"kid":"rsa-1"}'],
    ['alg in lower case', '{"alg":"rs256","kid":"rsa-1"}'],
    ['a duplicated alg whose last value is none', '{"alg":"RS256","kid":"rsa-1","alg":"none"}'],
    ['a duplicated alg whose last value is HS256', '{"alg":"RS256","kid":"rsa-1","alg":"HS256"}'],
    ['alg smuggled through __proto__', '{"__proto__":{"alg":"RS256"},"kid":"rsa-1"}'],
    ['kid as a number', '{"alg":"RS256","kid":1}'],
    ['kid as an array', '{"alg":"RS256","kid":["rsa-1"]}'],
    ['kid of a key that does not exist', '{"alg":"RS256","kid":"rsa-9"}'],
    ['an empty crit', '{"alg":"RS256","kid":"rsa-1","crit":[]}'],
    ['crit b64 without b64', '{"alg":"RS256","kid":"rsa-1","crit":["b64"]}'],
    ['crit b64 with b64 false', '{"alg":"RS256","kid":"rsa-1","crit":["b64"],"b64":false}'],
    ['crit b64 with b64 "true"', '{"alg":"RS256","kid":"rsa-1","crit":["b64"],"b64":"true"}'],
    ['crit naming a registered claim', '{"alg":"RS256","kid":"rsa-1","crit":["exp"],"exp":1}'],
    ['crit as a string', '{"alg":"RS256","kid":"rsa-1","crit":"b64","b64":true}'],
    [
      'crit naming an unknown extension after b64: true',
      '{"alg":"RS256","kid":"rsa-1","crit":["b64","x-custom"],"b64":true,"x-custom":1}',
    ],
    [
      'crit naming an unknown extension before b64: true',
      '{"alg":"RS256","kid":"rsa-1","crit":["x-custom","b64"],"b64":true,"x-custom":1}',
    ],
    [
      'crit naming b64 twice and an unknown one',
      '{"alg":"RS256","kid":"rsa-1","crit":["b64","b64","exp"],"b64":true}',
    ],
    ['a JSON array header', '["RS256"]'],
    ['a JSON null header', 'null'],
    ['a JSON string header', '"RS256"'],
  ])('rejects a correctly signed token with %s as 401, never 500', async (_, header) => {
    const token = await signRaw(rs256, header)
    expect(await statuses(await apps(), token)).toEqual([401, 401])
  })

  it('accepts crit b64 with b64 true, as jose does (RFC 7797: the default encoding)', async () => {
    const token = await signRaw(rs256, '{"alg":"RS256","kid":"rsa-1","crit":["b64"],"b64":true}')
    expect(await statuses(await apps(), token)).toEqual([200, 200])
  })

  it('refuses an unknown crit extension beside b64: true, as jose (the oracle) does', async () => {
    const { compactVerify } = await import('jose')
    const token = await signRaw(
      rs256,
      '{"alg":"RS256","kid":"rsa-1","crit":["b64","x-custom"],"b64":true,"x-custom":1}',
    )
    await expect(compactVerify(token, rs256.publicKey)).rejects.toThrow(/x-custom/)
    expect(await statuses(await apps(), token)).toEqual([401, 401])
  })

  it('refuses a JSON array payload also where a missing exp is no reason (requireExp: false)', async () => {
    const params = SIGN.RS256 as AlgorithmIdentifier
    const header = b64('{"alg":"RS256","kid":"rsa-1"}')
    for (const payload of ['[{"sub":"u"}]', '[]', `[${claims()}]`]) {
      const token = await signSegments(rs256.privateKey, params, header, b64(payload))
      expect(await statuses(await apps({ requireExp: false }), token)).toEqual([401, 401])
      // With requireExp (the default) the answer is the bare invalid_token: not "no exp", which
      // would mean the array was read as a claims set without an exp claim.
      const [local] = await apps()
      const res = await call(local as Hono, token)
      expect(res.status).toBe(401)
      expect(await res.text()).not.toMatch(/no exp/)
    }
  })

  it.each([
    ['a JSON array payload', b64('[{"sub":"u"}]')],
    ['a JSON null payload', b64('null')],
    ['a payload that is not JSON', b64('{"sub":')],
    ['a payload that is not UTF-8', b64(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))],
    ['a header that is not UTF-8', null],
  ])('rejects a correctly signed token with %s as 401', async (_, payload) => {
    const params = SIGN.RS256 as AlgorithmIdentifier
    const token =
      payload === null
        ? await signSegments(
            rs256.privateKey,
            params,
            b64(
              new Uint8Array([
                ...enc.encode('{"alg":"RS256","kid":"rsa-1","x":"'),
                0xff,
                0x22,
                0x7d,
              ]),
            ),
            b64(claims()),
          )
        : await signSegments(
            rs256.privateKey,
            params,
            b64('{"alg":"RS256","kid":"rsa-1"}'),
            payload,
          )
    expect(await statuses(await apps(), token)).toEqual([401, 401])
  })

  it('rejects an HS256 token MACed with the JWKS public key, also with a duplicated alg', async () => {
    const list = await apps()
    for (const header of [
      '{"alg":"HS256","kid":"rsa-1"}',
      '{"alg":"RS256","alg":"HS256","kid":"rsa-1"}',
    ]) {
      for (const secret of [JSON.stringify(rs256.jwk), rs256.jwk.n as string]) {
        const key = await importHmacKey(secret)
        const token = await signSegments(key, 'HMAC', b64(header), b64(claims()))
        expect(await statuses(list, token)).toEqual([401, 401])
      }
    }
  })

  it('rejects a kid that points at a key of another algorithm or curve', async () => {
    const list = await apps()
    // Signed by the EC key, pointing at the RSA key.
    expect(await statuses(list, await signWith(es256, { sub: 'u' }, { kid: 'rsa-1' }))).toEqual([
      401, 401,
    ])
    // ES384 claimed, signed with the P-256 key and SHA-384, against that key published without
    // alg: the curve decides, and P-256 never serves ES384.
    const noAlg = { ...es256, jwk: { ...es256.jwk, alg: undefined } }
    const lax = await apps({}, [noAlg])
    const token = await signSegments(
      es256.privateKey,
      { name: 'ECDSA', hash: 'SHA-384' } as EcdsaParams,
      b64('{"alg":"ES384","kid":"ec-1"}'),
      b64(claims()),
    )
    expect(await statuses(lax, token)).toEqual([401, 401])
  })

  it('rejects an ES256 signature in DER form, truncated or padded: 401, never 500', async () => {
    const token = await signWith(es256, { sub: 'u' })
    const [h, p, s] = token.split('.') as [string, string, string]
    const raw = lenientDecode(s)
    const int = (x: Uint8Array) => {
      let i = 0
      while (i < x.length - 1 && x[i] === 0) i++
      const v = x.subarray(i)
      return (v[0] as number) & 0x80 ? [0, ...v] : [...v]
    }
    const r = int(raw.subarray(0, 32))
    const sPart = int(raw.subarray(32))
    const der = new Uint8Array([
      0x30,
      r.length + sPart.length + 4,
      2,
      r.length,
      ...r,
      2,
      sPart.length,
      ...sPart,
    ])
    const list = await apps()
    for (const sig of [der, raw.subarray(0, 63), new Uint8Array([...raw, 0]), new Uint8Array(64)]) {
      expect(await statuses(list, `${h}.${p}.${b64(sig)}`)).toEqual([401, 401])
    }
  })

  it('refuses an RSA key under 2048 bits, as jose does', async () => {
    const weak = await crypto.subtle.generateKey(
      {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 1024,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      true,
      ['sign', 'verify'],
    )
    const jwk = { ...(await crypto.subtle.exportKey('jwk', weak.publicKey)), kid: 'weak' }
    delete jwk.key_ops
    delete jwk.ext
    const token = await signSegments(
      weak.privateKey,
      'RSASSA-PKCS1-v1_5',
      b64('{"alg":"RS256","kid":"weak"}'),
      b64(claims()),
    )
    const app = appWith({ jwks: { keys: [jwk] } })
    expect((await call(app, token)).status).toBe(401)
    expect((await call(appWith({ publicKey: weak.publicKey }), token)).status).toBe(401)
  })

  it('rejects a token without kid that none of several fitting keys verifies', async () => {
    const other = await testKey('RS256', 'rsa-2')
    const attacker = await testKey('RS256', 'rsa-3')
    const list = await apps({}, [rs256, other])
    const token = await signWith(attacker, { sub: 'admin' }, { kid: undefined })
    expect(await statuses(list, token)).toEqual([401, 401])
  })
})

describe('parseCompact and keyFits', () => {
  const allowed = new Set(['RS256', 'ES256'])

  it.each([
    ['an array', '[]'],
    ['an array of one object', '[{"alg":"RS256"}]'],
    ['null', 'null'],
    ['a string', '"RS256"'],
    ['a number', '1'],
    ['text that is not JSON', '{"alg":'],
  ])('reads no JSON object from %s (header and payload alike)', (_, text) => {
    expect(jsonObject(text)).toBeNull()
  })

  it('reads a JSON object, and refuses a header that is a JSON array', () => {
    expect(jsonObject('{"alg":"RS256"}')).toEqual({ alg: 'RS256' })
    expect(parseCompact(`${b64('[{"alg":"RS256"}]')}.e30.c2ln`, allowed)).toBeNull()
    expect(parseCompact(`${b64('{"alg":"RS256"}')}.e30.c2ln`, allowed)).not.toBeNull()
  })
  it.each([
    ['two segments', 'eyJhbGciOiJSUzI1NiJ9.e30'],
    ['four segments', 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln.c2ln'],
    ['an alg not allowed', `${b64('{"alg":"HS256"}')}.e30.c2ln`],
    ['alg none', `${b64('{"alg":"none"}')}.e30.`],
    ['a space in a segment', `${b64('{"alg":"RS256"}')}.e30.c2 ln`],
    ['a non-ASCII character', `${b64('{"alg":"RS256"}')}.e30é.c2ln`],
  ])('refuses %s', (_, token) => {
    expect(parseCompact(token, allowed)).toBeNull()
  })

  it('decodes the header once and keeps the signed text as bytes', () => {
    const token = `${b64('{"alg":"RS256","kid":"k"}')}.e30.c2ln`
    const jws = parseCompact(token, allowed)
    expect(jws?.header).toEqual({ alg: 'RS256', kid: 'k' })
    expect(new TextDecoder().decode(jws?.signingInput)).toBe(token.slice(0, token.lastIndexOf('.')))
    expect(jws?.signature).toEqual(enc.encode('sig'))
  })

  it('lets a key verify only its own algorithm, hash and curve', async () => {
    const hs256 = await importHmacKey('x'.repeat(32), 'SHA-256')
    expect(keyFits(hs256, 'HS256')).toBe(true)
    expect(keyFits(hs256, 'HS512')).toBe(false)
    expect(keyFits(hs256, 'RS256')).toBe(false)
    expect(keyFits(rs256.publicKey, 'RS256')).toBe(true)
    expect(keyFits(rs256.publicKey, 'RS512')).toBe(false)
    expect(keyFits(rs256.publicKey, 'PS256')).toBe(false)
    expect(keyFits(rs256.publicKey, 'HS256')).toBe(false)
    expect(keyFits(rs256.privateKey, 'RS256')).toBe(false)
    expect(keyFits(es256.publicKey, 'ES256')).toBe(true)
    expect(keyFits(es256.publicKey, 'ES384')).toBe(false)
    expect(keyFits({ type: 'public', algorithm: { name: 'ECDSA' } }, 'ES256')).toBe(false)
    const noVerify = await crypto.subtle.importKey(
      'jwk',
      { kty: 'EC', crv: 'P-256', x: es256.jwk.x as string, y: es256.jwk.y as string },
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      [],
    )
    expect(keyFits(noVerify, 'ES256')).toBe(false)
  })
})
