/**
 * jose as the oracle (issue 37, point 4): jwtAuth's one-pass verifier (jws.ts, and the claim
 * checks in verifier.ts) must give jose's `jwtVerify` verdict on every token, with the same key
 * and equivalent options, and the same payload when both accept. Each case is a token for one of
 * the algorithms jwtAuth supports (HS256/384/512, RS256/384/512, PS256/384/512, ES256/384/512,
 * EdDSA), valid under the case's options, with none, one or a few of these changes (`MUTATIONS`):
 * header members (`alg`, `kid`, `crit`, `typ`, `b64`, a duplicate `alg`), header or payload as a
 * JSON array, primitive or broken JSON, non-UTF-8 bytes, claims (`iss`, `aud`, `sub`, `exp`,
 * `nbf`, `iat`) of the wrong type, arrays, huge or non-finite numbers, edges of the clock,
 * duplicate `exp`, `__proto__`, a payload past the length cap, base64url padding, alphabet
 * (`+`, `/`), non-canonical trailing bits and whitespace in a segment (before signing, so the
 * signature covers them, or on the signature itself), another key or algorithm or no signature,
 * signature bytes (flipped, cut, extended, the high-S twin of an ECDSA signature), segment
 * counts, stray characters and whitespace in the compact text.
 *
 * jwtAuth runs through `app.request()` (a fresh middleware per case, each token sent twice, so
 * the verified and refused-token memories answer too); jose runs `jwtVerify` with the same key
 * (the secret, the JWK, the CryptoKey or `createLocalJWKSet` of the same JWKS) and options
 * (`algorithms`, `issuer`, `audience`, `clockTolerance`, `typ`, `maxTokenAge`, and `requireExp`
 * as `requiredClaims: ['exp']`), under the same fake clock. The verdicts must be equal, except
 * where jwtAuth is deliberately stricter: `stricterPolicy` names each such rule, computed from
 * the token and jose's answer, never from ours (docs/middleware/jwt-auth.md, "Compared with
 * jose", lists the same rules). A token with whitespace or control characters cannot travel as
 * one Bearer token; for those the parser itself (`parseCompact`) must refuse.
 *
 * Runs: 1,000 cases per family by default; `JOSE_ORACLE_RUNS=10000` runs 10,000 per family (the
 * issue's bar). Seeds are fixed (one per family); keys are generated per run, so a failing case
 * prints its token and options rather than relying on the key bytes.
 *
 * Measured with JOSE_ORACLE_RUNS=10000 (Node 20.20, jose 6.2.17, 2 shared cores, 77 s): no case
 * where jwtAuth accepted a token jose refused, none where it refused one jose accepted without a
 * named policy, and the same payload whenever both accepted. Per family, of 10,000 cases:
 * accepted by both / refused by both / refused by jwtAuth only, under a policy:
 *   HMAC     4,764 / 4,379 / 857 (non-canonical base64url 650, over 8,192 characters 117, iat in
 *            the future 53, too old by the exact clock 18, non-finite time 15, expired by the
 *            exact clock 4)
 *   RSA      3,838 / 4,768 / 1,394 (non-canonical 615, key past the first 5 candidates 595, over
 *            8,192 109, iat in the future 44, too old 16, non-finite 14, expired 1)
 *   RSA-PSS  3,891 / 4,755 / 1,354 (non-canonical 589, past 5 candidates 564, over 8,192 124, iat
 *            in the future 39, too old 21, non-finite 12, expired 5)
 *   ECDSA    3,433 / 5,677 / 890 (non-canonical 485, past 5 candidates 235, over 8,192 114, iat in
 *            the future 22, too old 18, non-finite 14, expired 2)
 *   EdDSA    4,078 / 4,537 / 1,385 (non-canonical 628, past 5 candidates 581, over 8,192 113, iat
 *            in the future 36, too old 12, non-finite 14, expired 1)
 * Keys are generated per run, so a count can move by one or two between runs (a random ECDSA or
 * PSS signature spells differently). Planted bugs this test catches (each tried, then reverted):
 * `crit` naming any extension accepted, an `aud` array matched on its first member only, RSA keys
 * under 2048 bits accepted, `typ` compared without normalising, `=` padding accepted.
 */
import fc from 'fast-check'
import { Hono } from 'hono'
import {
  createLocalJWKSet,
  type JWK,
  type JWTPayload,
  type JWTVerifyOptions,
  jwtVerify,
} from 'jose'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type JwtAuthOptions, jwtAuth } from './index'
import { parseCompact } from './jws'
import { MAX_CANDIDATE_KEYS, MAX_TOKEN_LENGTH } from './verifier'

const RUNS = Number(process.env.JOSE_ORACLE_RUNS ?? 1000)
const FULL = process.env.JOSE_ORACLE_RUNS !== undefined

/** The fake clock's whole second; each case adds a fraction (see `clock`). */
const T = 1_800_000_000
const ISS = 'https://issuer.example'
const ISS2 = 'https://other-issuer.example'
const AUD = 'api://palisade'
const AUD2 = 'api://second'

type Family = 'HMAC' | 'RSA' | 'RSA-PSS' | 'ECDSA' | 'EdDSA'
const FAMILY_ALGS: Record<Family, string[]> = {
  HMAC: ['HS256', 'HS384', 'HS512'],
  RSA: ['RS256', 'RS384', 'RS512'],
  'RSA-PSS': ['PS256', 'PS384', 'PS512'],
  ECDSA: ['ES256', 'ES384', 'ES512'],
  EdDSA: ['EdDSA'],
}
const ALL_ALGS = Object.values(FAMILY_ALGS).flat()
const HASH = (alg: string) => `SHA-${alg.slice(2)}`

// ---------------------------------------------------------------------------------------------
// Keys

/** A key pair (or an HMAC secret) and the algorithms it signs and verifies. */
interface Pair {
  name: string
  kid: string
  algs: string[]
  publicJwk: JWK
  privateJwk: JWK
  secret?: Uint8Array<ArrayBuffer>
}

const enc = new TextEncoder()

/** The WebCrypto import parameters of `alg` (the hash and curve bound to the key). */
function importParams(
  alg: string,
): AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams {
  if (alg.startsWith('HS')) return { name: 'HMAC', hash: HASH(alg) } as HmacImportParams
  if (alg.startsWith('RS')) return { name: 'RSASSA-PKCS1-v1_5', hash: HASH(alg) }
  if (alg.startsWith('PS')) return { name: 'RSA-PSS', hash: HASH(alg) }
  if (alg.startsWith('ES')) {
    return { name: 'ECDSA', namedCurve: `P-${alg === 'ES512' ? '521' : alg.slice(2)}` }
  }
  return { name: 'Ed25519' }
}

/** The WebCrypto sign parameters of `alg` (RFC 7518: PSS salt = hash length). */
function signParams(alg: string): AlgorithmIdentifier | RsaPssParams | EcdsaParams {
  if (alg.startsWith('PS')) return { name: 'RSA-PSS', saltLength: Number(alg.slice(2)) / 8 }
  if (alg.startsWith('ES')) return { name: 'ECDSA', hash: HASH(alg) }
  return (importParams(alg) as Algorithm).name
}

/** A JWK with only its key members (no alg, key_ops or ext), so it imports for any fitting alg. */
function bare(jwk: JsonWebKey): JWK {
  const { alg: _a, key_ops: _k, ext: _e, ...rest } = jwk
  return rest as JWK
}

async function keyPair(
  name: string,
  kid: string,
  algs: string[],
  params: RsaHashedKeyGenParams | EcKeyGenParams | Algorithm,
): Promise<Pair> {
  const pair = (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair
  const privateJwk = bare(await crypto.subtle.exportKey('jwk', pair.privateKey))
  const publicJwk = bare(await crypto.subtle.exportKey('jwk', pair.publicKey))
  return { name, kid, algs, privateJwk, publicJwk }
}

function secretPair(name: string, kid: string): Pair {
  const secret = crypto.getRandomValues(new Uint8Array(64))
  const jwk = { kty: 'oct' } as JWK
  return { name, kid, algs: FAMILY_ALGS.HMAC, publicJwk: jwk, privateJwk: jwk, secret }
}

const rsa = (bits: number): RsaHashedKeyGenParams => ({
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: bits,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
})
const RSA_ALGS = [...FAMILY_ALGS.RSA, ...FAMILY_ALGS['RSA-PSS']]

/** Every key of the run, by name; `keysOf(family)` lists a family's (its main key first). */
const keys = new Map<string, Pair>()
const FAMILY_KEYS: Record<Family, string[]> = {
  HMAC: ['hmac', 'hmac-other'],
  RSA: ['rsa', 'rsa-other', 'rsa-weak'],
  'RSA-PSS': ['rsa', 'rsa-other', 'rsa-weak'],
  ECDSA: ['p256', 'p384', 'p521', 'p256-other'],
  EdDSA: ['ed', 'ed-other'],
}
const keysOf = (family: Family) => FAMILY_KEYS[family].map((name) => keys.get(name) as Pair)

async function generateKeys(): Promise<void> {
  const all = [
    secretPair('hmac', 'h1'),
    secretPair('hmac-other', 'h2'),
    await keyPair('rsa', 'r1', RSA_ALGS, rsa(2048)),
    await keyPair('rsa-other', 'r2', RSA_ALGS, rsa(2048)),
    // RFC 7518 §3.3: RSA keys under 2048 bits are refused by both verifiers.
    await keyPair('rsa-weak', 'r3', RSA_ALGS, rsa(1024)),
    await keyPair('p256', 'e1', ['ES256'], { name: 'ECDSA', namedCurve: 'P-256' }),
    await keyPair('p384', 'e2', ['ES384'], { name: 'ECDSA', namedCurve: 'P-384' }),
    await keyPair('p521', 'e3', ['ES512'], { name: 'ECDSA', namedCurve: 'P-521' }),
    await keyPair('p256-other', 'e4', ['ES256'], { name: 'ECDSA', namedCurve: 'P-256' }),
    await keyPair('ed', 'd1', ['EdDSA'], { name: 'Ed25519' }),
    await keyPair('ed-other', 'd2', ['EdDSA'], { name: 'Ed25519' }),
  ]
  for (const pair of all) keys.set(pair.name, pair)
}

const signingKeys = new Map<string, Promise<CryptoKey>>()
const verifyKeys = new Map<string, Promise<CryptoKey>>()

function signingKey(pair: Pair, alg: string): Promise<CryptoKey> {
  const id = `${pair.name}/${alg}`
  let key = signingKeys.get(id)
  if (key === undefined) {
    key =
      pair.secret !== undefined
        ? crypto.subtle.importKey('raw', pair.secret, importParams(alg), false, ['sign'])
        : crypto.subtle.importKey('jwk', pair.privateJwk, importParams(alg), false, ['sign'])
    signingKeys.set(id, key)
  }
  return key
}

/** A public CryptoKey of `pair` for one algorithm (the `publicKey: CryptoKey` source). */
function verifyKey(pair: Pair, alg: string): Promise<CryptoKey> {
  const id = `${pair.name}/${alg}`
  let key = verifyKeys.get(id)
  if (key === undefined) {
    key = crypto.subtle.importKey('jwk', pair.publicJwk, importParams(alg), false, ['verify'])
    verifyKeys.set(id, key)
  }
  return key
}

async function sign(pair: Pair, alg: string, input: Uint8Array<ArrayBuffer>) {
  const key = await signingKey(pair, alg)
  try {
    return new Uint8Array(await crypto.subtle.sign(signParams(alg), key, input))
  } catch {
    // PS512 cannot sign with a 1024-bit key (the salt does not fit): a signature of zeros.
    return new Uint8Array(128)
  }
}

// ---------------------------------------------------------------------------------------------
// base64url, written here rather than borrowed from either verifier

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

function base64url(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
}

/** Whether `segment` is the one canonical base64url spelling of some bytes. */
function canonical(segment: string): boolean {
  if (!/^[A-Za-z0-9_-]*$/.test(segment) || segment.length % 4 === 1) return false
  const bin = atob(segment.replace(/-/g, '+').replace(/_/g, '/'))
  return base64url(Uint8Array.from(bin, (c) => c.charCodeAt(0))) === segment
}

/** How a segment's bytes are written: canonical, or one of the spellings jose's decoder forgives. */
type Spelling =
  | 'canonical'
  | 'padded'
  | 'std-alphabet'
  | 'trailing-bits'
  | 'extra-pad'
  | { space: string; at: number }

function spell(bytes: Uint8Array, how: Spelling): string {
  const text = base64url(bytes)
  if (how === 'canonical') return text
  if (how === 'padded') return text + '='.repeat((4 - (text.length % 4)) % 4)
  if (how === 'extra-pad') return `${text}=`
  if (how === 'std-alphabet') return text.replace(/-/g, '+').replace(/_/g, '/')
  if (how === 'trailing-bits') {
    // The last character carries 2 or 4 unused bits when the length is not a multiple of 4.
    const unused = text.length % 4 === 2 ? 0b1111 : text.length % 4 === 3 ? 0b11 : 0
    if (unused === 0) return text
    const last = B64.indexOf(text.slice(-1))
    return text.slice(0, -1) + (B64[last | 1] as string)
  }
  const at = Math.floor(how.at * text.length)
  return text.slice(0, at) + how.space + text.slice(at)
}

/** A spelling other than the canonical one. */
const oddSpelling: fc.Arbitrary<Spelling> = fc.oneof(
  fc.constantFrom<Spelling>('padded', 'std-alphabet', 'trailing-bits', 'extra-pad'),
  fc.record({
    space: fc.constantFrom(' ', '\t', '\n', '\r\n', '\f'),
    at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  }),
)

// ---------------------------------------------------------------------------------------------
// JSON text with members JSON.stringify cannot write (1e400, duplicate keys)

/** A JSON value written verbatim. */
class Raw {
  constructor(readonly text: string) {}
}
/** A JSON object as a list of members: keys may repeat, values may be `Raw`. */
class Members {
  constructor(readonly entries: [string, unknown][]) {}
}

function jsonText(value: unknown): string {
  if (value instanceof Raw) return value.text
  if (value instanceof Members) {
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** `arb` half of the time, else `undefined`. */
const optional = <V>(arb: fc.Arbitrary<V>) => fc.option(arb, { nil: undefined, freq: 2 })
/** `arb` with probability `p`, else `undefined`. */
const sometimes = <V>(arb: fc.Arbitrary<V>, p: number): fc.Arbitrary<V | undefined> =>
  fc.oneof(
    { weight: Math.round((1 - p) * 100), arbitrary: fc.constant(undefined) },
    { weight: Math.round(p * 100), arbitrary: arb },
  )

/** Seconds around the edges every option moves: 0, the tolerances, maxTokenAge, fractions. */
const OFFSETS = [
  -3601, -3600, -301, -300, -299, -61, -60, -59, -6, -5, -4, -1, -0.5, 0, 0.25, 0.5, 1, 4, 5, 6, 59,
  60, 61, 299, 300, 301, 3600,
]
/** A time claim that may fail: an edge, a huge or non-finite number, or not a number at all. */
const oddTime = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...OFFSETS).map((o) => T + o) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      new Raw('1e400'),
      new Raw('-1e400'),
      new Raw('-0'),
      new Raw('1E3'),
      1e308,
      -1e308,
      2 ** 53 + 2,
      2 ** 64,
      0,
      -1,
      1e-7,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(String(T + 3600), null, true, [T + 3600], {}, 'never', ''),
  },
)

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('é', '🔑', '\u2028', '\ud800', '"', '\\', '\u0000'),
)

/**
 * What a case changes in an otherwise valid token (none, one, or a few at once). Each part of a
 * token has a value that passes under the case's options and an odd one; the plan picks which.
 */
const MUTATIONS = [
  'alg',
  'typ',
  'kid',
  'crit',
  'b64',
  'dup-alg',
  'header-json',
  'header-utf8',
  'header-spelling',
  'iss',
  'aud',
  'sub',
  'exp',
  'nbf',
  'iat',
  'dup-exp',
  'proto',
  'huge',
  'payload-json',
  'payload-utf8',
  'payload-spelling',
  'signer',
  'signature-bytes',
  'signature-spelling',
  'text',
] as const
type Mutation = (typeof MUTATIONS)[number]

const plan: fc.Arbitrary<Mutation[]> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Mutation[]>([]) },
  {
    weight: 8,
    arbitrary: fc.uniqueArray(fc.constantFrom(...MUTATIONS), { minLength: 1, maxLength: 1 }),
  },
  {
    weight: 2,
    arbitrary: fc.uniqueArray(fc.constantFrom(...MUTATIONS), { minLength: 2, maxLength: 3 }),
  },
)

/** The parts of a case's header and payload, valid ones and odd ones. */
interface Parts {
  allowedPick: number
  oddAlg: unknown
  typ: { spelling: number; odd: unknown; plain: boolean }
  kid: { named: boolean; odd: unknown }
  crit: { valid: boolean; odd: unknown; oddB64: unknown }
  extraHeader?: [string, unknown]
  dupAlg: { first: boolean; value: unknown }
  headerJson: string
  iss: { pick: number; odd: unknown; present: boolean }
  aud: { pick: number; asArray: boolean; odd: unknown; present: boolean }
  sub: { normal?: string; odd: unknown }
  exp: { normal: number; odd: unknown; present: boolean }
  nbf: { normal?: number; odd: unknown }
  iat: { normal?: number; odd: unknown }
  dupExp: { first: boolean; odd: unknown }
  proto: unknown
  huge: string
  extraClaim?: unknown
  payloadJson: string
  bad: { bytes: number[]; at: number }
}

const parts = (family: Family): fc.Arbitrary<Parts> =>
  fc.record({
    allowedPick: fc.nat(5),
    oddAlg: fc.constantFrom<unknown>(
      ...ALL_ALGS,
      'none',
      'None',
      'NONE',
      'Ed25519',
      'hs256',
      'RS256 ',
      '',
      null,
      1,
      true,
      ['HS256'],
      {},
    ),
    typ: fc.record({
      spelling: fc.nat(3),
      odd: fc.constantFrom<unknown>(
        'JWT',
        'at+jwt',
        'application/jwt',
        'JOSE',
        '',
        1,
        null,
        undefined,
      ),
      plain: fc.boolean(),
    }),
    kid: fc.record({
      named: fc.boolean(),
      odd: fc.constantFrom<unknown>(
        ...FAMILY_KEYS[family].map((_, i) => `${family}-${i}`),
        'unknown',
        '',
        'pinned',
        `${family}-enc`,
        'pad-0',
        1,
        null,
        ['x'],
      ),
    }),
    crit: fc.record({
      valid: fc.boolean(),
      odd: fc.constantFrom<unknown>(
        [],
        ['b64', 'b64'],
        ['exp'],
        ['b64', 'exp'],
        'b64',
        [''],
        ['b64', 1],
        null,
        {},
      ),
      oddB64: fc.constantFrom<unknown>(false, 'true', null, 1, undefined),
    }),
    extraHeader: sometimes(
      fc.constantFrom<[string, unknown]>(
        ['jku', 'https://evil.example/jwks.json'],
        ['jwk', { kty: 'oct', k: 'AAAA' }],
        ['x5u', 'https://evil.example/cert'],
        ['cty', 'JWT'],
        ['zip', 'DEF'],
        ['__proto__', { alg: 'none' }],
      ),
      0.2,
    ),
    dupAlg: fc.record({
      first: fc.boolean(),
      value: fc.constantFrom<unknown>('none', 'HS256', 'RS256', null, ...FAMILY_ALGS[family]),
    }),
    headerJson: fc.constantFrom(
      '[]',
      '["__ALG__"]',
      'null',
      '1',
      '"__ALG__"',
      '',
      '{',
      ' {"alg":"__ALG__"} ',
      '\uFEFF{"alg":"__ALG__"}',
      '{"alg":"__ALG__"}x',
      '{"alg":"__ALG__",}',
      '{"ALG":"__ALG__"}',
      '{"alg":"__ALG__\\u0000"}',
      "{'alg':'__ALG__'}",
    ),
    iss: fc.record({
      pick: fc.nat(3),
      present: fc.boolean(),
      odd: fc.constantFrom<unknown>(
        ISS2,
        `${ISS}/`,
        [ISS],
        1,
        null,
        '',
        undefined,
        ISS.toUpperCase(),
      ),
    }),
    aud: fc.record({
      pick: fc.nat(3),
      asArray: fc.boolean(),
      present: fc.boolean(),
      odd: fc.constantFrom<unknown>(
        AUD2,
        [AUD2],
        [],
        [1, AUD],
        [[AUD]],
        1,
        null,
        { aud: AUD },
        undefined,
        AUD.toUpperCase(),
      ),
    }),
    sub: fc.record({
      normal: optional(text),
      odd: fc.constantFrom<unknown>(1, ['a'], null, { id: 'u' }, true),
    }),
    exp: fc.record({
      normal: fc.constantFrom(T + 3600, T + 302, T + 60, T + 1.5, 4_102_444_800),
      odd: oddTime,
      present: fc.boolean(),
    }),
    nbf: fc.record({ normal: optional(fc.constantFrom(T - 60, T, T - 0.5, 0)), odd: oddTime }),
    iat: fc.record({ normal: optional(fc.constantFrom(T - 30, T, T - 1)), odd: oddTime }),
    dupExp: fc.record({ first: fc.boolean(), odd: oddTime }),
    proto: fc.constantFrom<unknown>({ admin: true }, null, 1),
    // Past MAX_TOKEN_LENGTH once encoded (the second), or close to it (the first).
    huge: fc.constantFrom('x'.repeat(MAX_TOKEN_LENGTH / 2), 'y'.repeat(MAX_TOKEN_LENGTH)),
    extraClaim: sometimes(fc.jsonValue({ maxDepth: 2 }), 0.3),
    payloadJson: fc.constantFrom(
      '[]',
      `[{"exp":${T + 60}}]`,
      'null',
      '1',
      '"sub"',
      'true',
      '',
      '{',
      `{"exp":${T + 60}}x`,
      ` {"exp":${T + 60}} `,
      `\uFEFF{"exp":${T + 60}}`,
      `{"exp":${T + 60},}`,
      `{'exp':${T + 60}}`,
      `{"exp":${T + 60}}\u0000`,
    ),
    bad: fc.record({
      bytes: fc.constantFrom(...BAD_UTF8),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  })

/** Spellings of a `typ` that jose and jwtAuth both take as equal to `typ`. */
function typSpellings(typ: string): string[] {
  const lower = typ.toLowerCase()
  const bare = lower.startsWith('application/') ? lower.slice('application/'.length) : lower
  return bare.includes('/')
    ? [typ, lower]
    : [bare, `application/${bare}`, bare.toUpperCase(), `Application/${bare}`]
}

/** The header and payload JSON texts of a case. */
function texts(k: Case): { header: string; payload: string } {
  const m = (kind: Mutation) => k.mutations.includes(kind)
  const p = k.parts
  const c = k.config
  const alg = c.algorithms[p.allowedPick % c.algorithms.length] as string
  const h: [string, unknown][] = [['alg', m('alg') ? p.oddAlg : alg]]
  if (m('typ')) {
    if (p.typ.odd !== undefined) h.push(['typ', p.typ.odd])
  } else if (c.typ !== undefined) {
    const spellings = typSpellings(c.typ)
    h.push(['typ', spellings[p.typ.spelling % spellings.length]])
  } else if (p.typ.plain) h.push(['typ', 'JWT'])
  if (m('kid')) h.push(['kid', p.kid.odd])
  else if (p.kid.named) h.push(['kid', `${k.family}-${c.key}`])
  if (m('crit')) {
    h.push(['crit', p.crit.odd])
    h.push(['b64', true])
  } else if (m('b64')) {
    if (p.crit.valid) h.push(['crit', ['b64']])
    if (p.crit.oddB64 !== undefined) h.push(['b64', p.crit.oddB64])
  } else if (p.crit.valid) {
    h.push(['crit', ['b64']])
    h.push(['b64', true])
  }
  if (p.extraHeader !== undefined) h.push(p.extraHeader)
  if (m('dup-alg')) {
    if (p.dupAlg.first) h.unshift(['alg', p.dupAlg.value])
    else h.push(['alg', p.dupAlg.value])
  }
  const header = (m('header-json') ? p.headerJson : jsonText(new Members(h))).replaceAll(
    '__ALG__',
    alg,
  )

  const issuers = c.issuer === undefined ? [ISS] : [c.issuer].flat()
  const audiences = c.audience === undefined ? [AUD] : [c.audience].flat()
  const claims: [string, unknown][] = []
  if (m('iss')) {
    if (p.iss.odd !== undefined) claims.push(['iss', p.iss.odd])
  } else if (c.issuer !== undefined || p.iss.present) {
    claims.push(['iss', issuers[p.iss.pick % issuers.length]])
  }
  if (m('sub')) claims.push(['sub', p.sub.odd])
  else if (p.sub.normal !== undefined) claims.push(['sub', p.sub.normal])
  if (m('aud')) {
    if (p.aud.odd !== undefined) claims.push(['aud', p.aud.odd])
  } else if (c.audience !== undefined || p.aud.present) {
    const aud = audiences[p.aud.pick % audiences.length]
    claims.push(['aud', p.aud.asArray ? ['api://unrelated', aud] : aud])
  }
  if (m('exp')) {
    if (p.exp.odd !== undefined) claims.push(['exp', p.exp.odd])
  } else if (c.requireExp !== false || p.exp.present) claims.push(['exp', p.exp.normal])
  if (m('nbf')) claims.push(['nbf', p.nbf.odd])
  else if (p.nbf.normal !== undefined) claims.push(['nbf', p.nbf.normal])
  if (m('iat')) claims.push(['iat', p.iat.odd])
  else if (p.iat.normal !== undefined || c.maxTokenAge !== undefined) {
    claims.push(['iat', p.iat.normal ?? T])
  }
  if (m('dup-exp')) {
    // JSON.parse keeps the last of duplicate keys, in both verifiers.
    if (p.dupExp.first) claims.unshift(['exp', p.dupExp.odd])
    else claims.push(['exp', p.dupExp.odd])
  }
  if (m('proto')) claims.push(['__proto__', p.proto])
  if (m('huge')) claims.push(['pad', p.huge])
  if (p.extraClaim !== undefined) claims.push(['ext', p.extraClaim])
  const payload = m('payload-json') ? p.payloadJson : jsonText(new Members(claims))
  return { header, payload }
}

/** Bytes that are not UTF-8: a lone continuation, an overlong '/', a surrogate, past U+10FFFF. */
const BAD_UTF8 = [
  [0xff],
  [0x80],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xc3],
]

/** `text` as UTF-8 with `bad` bytes put in at a fraction of its length. */
function withBadBytes(t: string, bad: { bytes: number[]; at: number }): Uint8Array<ArrayBuffer> {
  const at = Math.floor(bad.at * t.length)
  const before = enc.encode(t.slice(0, at))
  const after = enc.encode(t.slice(at))
  const out = new Uint8Array(before.length + bad.bytes.length + after.length)
  out.set(before)
  out.set(bad.bytes, before.length)
  out.set(after, before.length + bad.bytes.length)
  return out
}

/** Who signs: the key the verifier should use, another key, another algorithm, or nobody. */
type Signer =
  | { kind: 'fit' }
  | { kind: 'other-key' }
  | { kind: 'other-alg'; pick: number }
  | { kind: 'empty' }
  | { kind: 'garbage'; bytes: Uint8Array }
const signer: fc.Arbitrary<Signer> = fc.oneof(
  { weight: 24, arbitrary: fc.constant({ kind: 'fit' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'other-key' as const }) },
  { weight: 1, arbitrary: fc.nat(5).map((pick) => ({ kind: 'other-alg' as const, pick })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 140 })
      .map((bytes) => ({ kind: 'garbage' as const, bytes })),
  },
)

/** Changes to the signature bytes after signing. */
type SignatureChange =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'cut' }
  | { kind: 'extend'; byte: number }
  | { kind: 'high-s' }
const signatureChange: fc.Arbitrary<SignatureChange> = fc.oneof(
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    bit: fc.nat(7),
  }),
  fc.constant({ kind: 'cut' as const }),
  fc.record({ kind: fc.constant('extend' as const), byte: fc.nat(255) }),
  fc.constant({ kind: 'high-s' as const }),
)

/** Changes to the compact text after it is assembled. */
type TextChange =
  | {
      kind: 'segments'
      how: 'drop-signature' | 'add-segment' | 'double-dot' | 'lead-dot' | 'trail-dot' | 'swap'
    }
  | { kind: 'space'; where: 'lead' | 'trail' | 'inner'; ch: string; at: number }
  | { kind: 'char'; mode: 'replace' | 'insert' | 'delete'; ch: string; at: number }
const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })
const textChange: fc.Arbitrary<TextChange> = fc.oneof(
  fc.record({
    kind: fc.constant('segments' as const),
    how: fc.constantFrom(
      'drop-signature',
      'add-segment',
      'double-dot',
      'lead-dot',
      'trail-dot',
      'swap',
    ),
  }),
  fc.record({
    kind: fc.constant('space' as const),
    where: fc.constantFrom('lead', 'trail', 'inner'),
    ch: fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u0000'),
    at: fraction,
  }),
  fc.record({
    kind: fc.constant('char' as const),
    mode: fc.constantFrom('replace', 'insert', 'delete'),
    ch: fc.constantFrom('.', '=', '+', '/', '%', 'A', 'a', '-', '_', 'é', '\u0100', '~'),
    at: fraction,
  }),
)

// ---------------------------------------------------------------------------------------------
// Options: one jwtAuth configuration and the equivalent jwtVerify call

type SourceKind = 'secret' | 'jwk' | 'cryptokey' | 'jwks' | 'jwks-many'

interface Config {
  source: SourceKind
  /** The key of `jwk` / `cryptokey` (index into the family's keys). */
  key: number
  algorithms: string[]
  issuer?: string | string[]
  audience?: string | string[]
  clockTolerance?: number
  typ?: string
  requireExp?: boolean
  maxTokenAge?: number
}

/** The algorithms a source may list (jwtAuth refuses, at construction, one that cannot fit). */
function fittingAlgs(family: Family, source: SourceKind, pair: Pair): string[] {
  if (source === 'secret') return FAMILY_ALGS.HMAC
  if (source === 'cryptokey') return FAMILY_ALGS[family].filter((a) => pair.algs.includes(a))
  if (source === 'jwk') return pair.algs
  return family === 'RSA' || family === 'RSA-PSS' ? RSA_ALGS : FAMILY_ALGS[family]
}

const config = (family: Family): fc.Arbitrary<Config> => {
  const sources: SourceKind[] =
    family === 'HMAC' ? ['secret'] : ['jwk', 'cryptokey', 'jwks', 'jwks-many']
  return fc
    .record({
      source: fc.constantFrom(...sources),
      // The main key most of the time; the others (another key, a weak RSA key, another curve).
      key: fc.oneof(
        { weight: 4, arbitrary: fc.constant(0) },
        fc.nat(FAMILY_KEYS[family].length - 1),
      ),
      algPick: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      issuer: optional(fc.constantFrom<string | string[]>(ISS, [ISS2, ISS], [ISS2])),
      audience: optional(fc.constantFrom<string | string[]>(AUD, [AUD2, AUD], [AUD2])),
      clockTolerance: fc.constantFrom(undefined, 0, 5, 60, 300),
      typ: sometimes(fc.constantFrom('JWT', 'JWT', 'at+jwt', 'application/at+jwt', 'AT+JWT'), 0.3),
      requireExp: fc.constantFrom(undefined, true, false),
      maxTokenAge: sometimes(fc.constantFrom(1, 60, 3600), 0.3),
    })
    .map(({ source, key, algPick, ...rest }) => {
      const pair = keysOf(family)[key] as Pair
      const fits = fittingAlgs(family, source, pair)
      // ECDSA keys fit one curve: a cryptokey or jwk of another curve takes that curve's alg.
      let algorithms = fits.filter((_, i) => algPick[i])
      if (algorithms.length === 0) {
        const own = fits.filter((a) => FAMILY_ALGS[family].includes(a))
        algorithms = [(own[0] ?? fits[0]) as string]
      }
      if (source === 'cryptokey') algorithms = algorithms.slice(0, 1)
      return { source, key, algorithms, ...rest }
    })
}

/** The JWKS of a family's `jwks` sources, each member with its kid (`${family}-${index}`). */
function jwksOf(family: Family, many: boolean): { keys: JWK[] } {
  const members = keysOf(family).map((pair, i) => ({ ...pair.publicJwk, kid: `${family}-${i}` }))
  if (!many) {
    // An encryption key and a key pinned to another alg beside them: both are skipped.
    const main = members[0] as JWK
    return {
      keys: [
        ...members,
        { ...main, kid: `${family}-enc`, use: 'enc' },
        { ...main, kid: 'pinned', alg: 'RS256' },
      ],
    }
  }
  // The main key after five copies of another key of its type (same kty, curve and algs): a
  // token without kid finds it sixth.
  const pairs = keysOf(family)
  const twin = pairs.findIndex((p, i) => i > 0 && p.algs.join() === pairs[0]?.algs.join())
  const padding = Array.from({ length: 5 }, (_, i) => ({
    ...(members[twin] as JWK),
    kid: `pad-${i}`,
  }))
  return { keys: [...padding, members[0] as JWK] }
}

interface Built {
  ours: JwtAuthOptions
  jose: JWTVerifyOptions
  joseKey: Uint8Array | JWK | CryptoKey | ReturnType<typeof createLocalJWKSet>
  /** The keys the verifier may use, for the `fit` signer. */
  pairs: Pair[]
}

async function build(family: Family, c: Config): Promise<Built> {
  const pair = keysOf(family)[c.key] as Pair
  const claimOptions = {
    ...(c.issuer === undefined ? {} : { issuer: c.issuer }),
    ...(c.audience === undefined ? {} : { audience: c.audience }),
    ...(c.clockTolerance === undefined ? {} : { clockTolerance: c.clockTolerance }),
    ...(c.typ === undefined ? {} : { typ: c.typ }),
    ...(c.maxTokenAge === undefined ? {} : { maxTokenAge: c.maxTokenAge }),
  }
  const jose: JWTVerifyOptions = {
    algorithms: c.algorithms,
    ...claimOptions,
    // requireExp (default true) is jose's requiredClaims: ['exp'].
    ...(c.requireExp === false ? {} : { requiredClaims: ['exp'] }),
  }
  const base = {
    algorithms: c.algorithms as JwtAuthOptions['algorithms'],
    ...claimOptions,
    ...(c.requireExp === undefined ? {} : { requireExp: c.requireExp }),
  }
  if (c.source === 'secret') {
    const main = keysOf(family)[0] as Pair
    return {
      ours: { ...base, secret: main.secret },
      jose,
      joseKey: main.secret as Uint8Array,
      pairs: [main],
    }
  }
  if (c.source === 'jwk') {
    return {
      ours: { ...base, publicKey: pair.publicJwk },
      jose,
      joseKey: pair.publicJwk,
      pairs: [pair],
    }
  }
  if (c.source === 'cryptokey') {
    const key = await verifyKey(pair, c.algorithms[0] as string)
    return { ours: { ...base, publicKey: key }, jose, joseKey: key, pairs: [pair] }
  }
  const jwks = jwksOf(family, c.source === 'jwks-many')
  return {
    ours: { ...base, jwks },
    jose,
    joseKey: createLocalJWKSet(jwks),
    pairs: keysOf(family),
  }
}

// ---------------------------------------------------------------------------------------------
// One case: a token, built from its parts

interface Case {
  family: Family
  config: Config
  mutations: Mutation[]
  parts: Parts
  headerSpelling: Spelling
  payloadSpelling: Spelling
  signer: Signer
  signatureChange: SignatureChange
  signatureSpelling: Spelling
  textChanges: TextChange[]
  /** The fake clock's fraction of a second. */
  fraction: number
}

const caseOf = (family: Family): fc.Arbitrary<Case> =>
  fc.record({
    family: fc.constant(family),
    config: config(family),
    mutations: plan,
    parts: parts(family),
    headerSpelling: oddSpelling,
    payloadSpelling: oddSpelling,
    signer: signer.filter((s) => s.kind !== 'fit'),
    signatureChange,
    signatureSpelling: oddSpelling,
    textChanges: fc.array(textChange, { minLength: 1, maxLength: 2 }),
    fraction: fc.constantFrom(0, 0.001, 0.5, 0.999),
  })

/** The order n of each curve, for the high-S twin (r, n − s) of an ECDSA signature. */
const CURVE_ORDER: Record<number, bigint> = {
  64: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  96: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
  132: 0x01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409n,
}

function highS(signature: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const n = CURVE_ORDER[signature.length]
  if (n === undefined) return signature
  const half = signature.length / 2
  let s = 0n
  for (const b of signature.subarray(half)) s = (s << 8n) | BigInt(b)
  let twin = n - s
  const out = signature.slice()
  for (let i = signature.length - 1; i >= half; i--) {
    out[i] = Number(twin & 0xffn)
    twin >>= 8n
  }
  return out
}

function headerAlg(bytes: Uint8Array): unknown {
  try {
    return (JSON.parse(new TextDecoder().decode(bytes)) as { alg?: unknown }).alg
  } catch {
    return undefined
  }
}
function headerKid(bytes: Uint8Array): unknown {
  try {
    return (JSON.parse(new TextDecoder().decode(bytes)) as { kid?: unknown }).kid
  } catch {
    return undefined
  }
}

async function signature(
  family: Family,
  k: Case,
  built: Built,
  header: Uint8Array,
  input: Uint8Array<ArrayBuffer>,
) {
  const s: Signer = k.mutations.includes('signer') ? k.signer : { kind: 'fit' }
  if (s.kind === 'empty') return new Uint8Array(0)
  if (s.kind === 'garbage') return s.bytes.slice()
  const alg = headerAlg(header)
  const wanted = typeof alg === 'string' ? alg : (FAMILY_ALGS[family][0] as string)
  let pair: Pair
  if (s.kind === 'other-key') {
    pair = keysOf(family)[1] as Pair
  } else {
    // The key the verifier holds: for a JWKS the member the kid names, else one that signs alg.
    const kid = headerKid(header)
    const index =
      typeof kid === 'string'
        ? FAMILY_KEYS[family].findIndex((_, i) => `${family}-${i}` === kid)
        : -1
    pair =
      built.pairs.length === 1
        ? (built.pairs[0] as Pair)
        : index >= 0
          ? (keysOf(family)[index] as Pair)
          : (built.pairs.find((p) => p.algs.includes(wanted as string)) ?? (built.pairs[0] as Pair))
  }
  let signAlg = pair.algs.includes(wanted as string) ? (wanted as string) : (pair.algs[0] as string)
  if (s.kind === 'other-alg') {
    const others = pair.algs.filter((a) => a !== signAlg)
    if (others.length > 0) signAlg = others[s.pick % others.length] as string
  }
  return sign(pair, signAlg, input)
}

async function tokenOf(family: Family, k: Case, built: Built): Promise<string> {
  const m = (kind: Mutation) => k.mutations.includes(kind)
  const json = texts(k)
  const header = m('header-utf8') ? withBadBytes(json.header, k.parts.bad) : enc.encode(json.header)
  const payload = m('payload-utf8')
    ? withBadBytes(json.payload, k.parts.bad)
    : enc.encode(json.payload)
  const head = spell(header, m('header-spelling') ? k.headerSpelling : 'canonical')
  const body = spell(payload, m('payload-spelling') ? k.payloadSpelling : 'canonical')
  const input = enc.encode(`${head}.${body}`)
  let sig = await signature(family, k, built, header, input)
  const change = m('signature-bytes') ? k.signatureChange : undefined
  if (change?.kind === 'flip' && sig.length > 0) {
    sig = sig.slice()
    const at = Math.floor(change.at * sig.length)
    sig[at] = (sig[at] as number) ^ (1 << change.bit)
  } else if (change?.kind === 'cut') sig = sig.slice(0, -1)
  else if (change?.kind === 'extend') {
    const longer = new Uint8Array(sig.length + 1)
    longer.set(sig)
    longer[sig.length] = change.byte
    sig = longer
  } else if (change?.kind === 'high-s') sig = highS(sig)
  let token = `${head}.${body}.${spell(sig, m('signature-spelling') ? k.signatureSpelling : 'canonical')}`
  for (const t of m('text') ? k.textChanges : []) {
    if (t.kind === 'segments') {
      const [h, p, s] = token.split('.')
      if (t.how === 'drop-signature') token = `${h}.${p}`
      else if (t.how === 'add-segment') token = `${token}.${s}`
      else if (t.how === 'double-dot') token = `${h}..${p}.${s}`
      else if (t.how === 'lead-dot') token = `.${token}`
      else if (t.how === 'trail-dot') token = `${token}.`
      else token = `${p}.${h}.${s}`
    } else {
      const at = Math.floor(t.at * token.length)
      if (t.kind === 'space') {
        token =
          t.where === 'lead'
            ? t.ch + token
            : t.where === 'trail'
              ? token + t.ch
              : token.slice(0, at) + t.ch + token.slice(at)
      } else if (t.mode === 'replace') token = token.slice(0, at) + t.ch + token.slice(at + 1)
      else if (t.mode === 'insert') token = token.slice(0, at) + t.ch + token.slice(at)
      else token = token.slice(0, at) + token.slice(at + 1)
    }
  }
  return token
}

// ---------------------------------------------------------------------------------------------
// The two verdicts and the policies where jwtAuth is stricter

type Verdict = { ok: true; payload: JWTPayload; candidate?: number } | { ok: false; why: string }

const codeOf = (err: unknown) =>
  `${String((err as { code?: unknown }).code ?? (err as Error).name)}: ${(err as Error).message.slice(0, 60)}`

/**
 * jose's verdict. With a JWKS, several members may fit a token (no kid, a shared kid): jose's
 * documented answer is to try each key its `ERR_JWKS_MULTIPLE_MATCHING_KEYS` error yields, which
 * jwtAuth does too; `candidate` says which one verified (jwtAuth stops after the first 5).
 */
async function joseVerdict(token: string, built: Built): Promise<Verdict> {
  try {
    const { payload } = await jwtVerify(token, built.joseKey as Uint8Array, built.jose)
    return { ok: true, payload }
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_JWKS_MULTIPLE_MATCHING_KEYS')
      return { ok: false, why: codeOf(err) }
    let candidate = 0
    let why = 'no candidate verified'
    for await (const key of err as AsyncIterable<CryptoKey>) {
      try {
        const { payload } = await jwtVerify(token, key, built.jose)
        return { ok: true, payload, candidate }
      } catch (inner) {
        why = codeOf(inner)
      }
      candidate++
    }
    return { ok: false, why }
  }
}

/** Characters a Bearer token travels in unchanged: visible ASCII and obs-text, no whitespace. */
const SENDABLE = /^[\x21-\x7e\x80-\x9f\xa1-\xff]*$/

async function oursVerdict(token: string, built: Built): Promise<Verdict> {
  if (!SENDABLE.test(token) || token === '') {
    // Whitespace splits the header (invalid_request) and controls cannot be sent at all: what
    // matters is that the verifier itself refuses such a token.
    const parsed = parseCompact(token, new Set(built.ours.algorithms))
    expect(parsed, 'parseCompact accepted a token with whitespace or controls').toBeNull()
    return { ok: false, why: 'not one Bearer token' }
  }
  // The payload each request's handler saw, in order.
  const seen: JWTPayload[] = []
  const app = new Hono()
  app.use('*', jwtAuth(built.ours))
  app.get('/', (c) => {
    seen.push(c.get('jwtPayload'))
    return c.text('ok')
  })
  const verdicts: Verdict[] = []
  // Twice: the second answer comes from the verified (or refused) token memory.
  for (let i = 0; i < 2; i++) {
    const res = await app.request('/', { headers: { authorization: `Bearer ${token}` } })
    expect([200, 401], `status ${res.status}`).toContain(res.status)
    verdicts.push(
      res.status === 200
        ? { ok: true, payload: seen.shift() as JWTPayload }
        : { ok: false, why: '401' },
    )
  }
  const [first, second] = verdicts as [Verdict, Verdict]
  expect(second.ok, 'the remembered answer differs from the first').toBe(first.ok)
  if (first.ok && second.ok)
    expect(JSON.stringify(second.payload)).toBe(JSON.stringify(first.payload))
  return first
}

/**
 * The rules where jwtAuth refuses what jose accepts, each one documented: `null` when none
 * applies to this token, so the verdicts must be equal. Computed from the token and jose's
 * payload only.
 */
function stricterPolicy(token: string, c: Config, now: number, jose: Verdict): string | null {
  const segments = token.split('.')
  if (!segments.every(canonical)) return 'segment not canonical base64url'
  if (token.length > MAX_TOKEN_LENGTH) return 'token longer than MAX_TOKEN_LENGTH'
  if (!jose.ok) return null
  if (jose.candidate !== undefined && jose.candidate >= MAX_CANDIDATE_KEYS) {
    return 'signing key beyond the first MAX_CANDIDATE_KEYS candidates'
  }
  const p = jose.payload
  const tolerance = c.clockTolerance ?? 0
  const times = [p.exp, p.nbf, p.iat]
  if (times.some((t) => typeof t === 'number' && !Number.isFinite(t)))
    return 'non-finite time claim'
  if (typeof p.iat === 'number' && p.iat > now + tolerance) return 'iat in the future'
  if (typeof p.exp === 'number' && p.exp <= now - tolerance) return 'expired by the unfloored clock'
  if (c.maxTokenAge !== undefined && now - (p.iat as number) - tolerance > c.maxTokenAge) {
    return 'too old by the unfloored clock'
  }
  return null
}

// ---------------------------------------------------------------------------------------------

interface Tally {
  cases: number
  bothAccept: number
  bothRefuse: number
  policy: Record<string, number>
  joseRefusals: Record<string, number>
}

const tallies: Partial<Record<Family, Tally>> = {}

beforeAll(async () => {
  await generateKeys()
  vi.useFakeTimers({ toFake: ['Date'] })
}, 120_000)
afterAll(() => {
  vi.useRealTimers()
  if (FULL || process.env.JOSE_ORACLE_DEBUG)
    console.info(`jose oracle, ${RUNS} cases per family:`, JSON.stringify(tallies, null, 1))
})

const FAMILIES: Family[] = ['HMAC', 'RSA', 'RSA-PSS', 'ECDSA', 'EdDSA']

describe('jwtAuth agrees with jose jwtVerify (jose as the oracle)', () => {
  FAMILIES.forEach((family, index) => {
    it(
      `${family}: same verdict and payload on ${RUNS} generated and mutated tokens`,
      async () => {
        const tally: Tally = {
          cases: 0,
          bothAccept: 0,
          bothRefuse: 0,
          policy: {},
          joseRefusals: {},
        }
        tallies[family] = tally
        await fc.assert(
          fc.asyncProperty(caseOf(family), async (k) => {
            const now = T + k.fraction
            vi.setSystemTime(now * 1000)
            const built = await build(family, k.config)
            const token = await tokenOf(family, k, built)
            const jose = await joseVerdict(token, built)
            const ours = await oursVerdict(token, built)
            const policy = stricterPolicy(token, k.config, now, jose)
            const expected = jose.ok && policy === null
            const context = JSON.stringify({
              token: token.slice(0, 400),
              config: k.config,
              now,
              jose,
              policy,
            })
            expect(ours.ok, context).toBe(expected)
            if (ours.ok && jose.ok) {
              expect(JSON.stringify(ours.payload), context).toBe(JSON.stringify(jose.payload))
            }
            tally.cases++
            if (ours.ok) tally.bothAccept++
            else if (!jose.ok) {
              tally.bothRefuse++
              tally.joseRefusals[jose.why] = (tally.joseRefusals[jose.why] ?? 0) + 1
            } else tally.policy[policy as string] = (tally.policy[policy as string] ?? 0) + 1
          }),
          { seed: 37_401 + index, numRuns: RUNS },
        )
        // A generator that only ever builds refusals would prove nothing.
        expect(tally.bothAccept).toBeGreaterThan(RUNS * 0.05)
        expect(tally.bothRefuse).toBeGreaterThan(RUNS * 0.05)
      },
      Math.max(60_000, RUNS * 60),
    )
  })
})
