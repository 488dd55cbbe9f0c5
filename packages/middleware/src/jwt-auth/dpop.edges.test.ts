// DPoP (RFC 9449) at its edges (issue 37, point 7): the proof check of dpop.ts field by field
// (lengths, typ, the header's jwk, iat's window to the second, jti, ath, nonce, htu's
// normalisation), the replay window, createDpopProof's proofs and refusals, and the DPoP part of
// the request path (dpop-request.ts): each refusal's status, code, message and challenge, the
// replay key and its lifetime, a failing store, the server nonce.
import { Hono } from 'hono'
import {
  base64url as b64,
  CompactSign,
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type JWK,
  SignJWT,
} from 'jose'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { withRejectionCode } from '../../test/rejection-code'
import type { NonceStore } from '../internal/stores/nonce-store'
import {
  accessTokenHash,
  DPOP_FUTURE_LEEWAY,
  MAX_JTI_LENGTH,
  MAX_PROOF_LENGTH,
  normalizeHtu,
  type ProofTarget,
  ProofVerifier,
} from './dpop'
import { type DpopOptions, dpopConfig } from './dpop-config'
import { createDpopProof } from './dpop-proof'
import { jwtAuth } from './jwt-auth'

const URL_ = 'https://api.example/mcp/tools'
const NOW = 1_767_225_600_000 // 2026-01-01T00:00:00Z, a whole second
const NOW_S = NOW / 1000
const TOKEN = 'Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU'

let issuer: CryptoKeyPair
let client: CryptoKeyPair
let clientJwk: JWK
let jkt: string

beforeAll(async () => {
  issuer = await generateKeyPair('ES256')
  client = await generateKeyPair('ES256', { extractable: true })
  const { kty, crv, x, y } = await exportJWK(client.publicKey)
  clientJwk = { kty, crv, x, y }
  jkt = await calculateJwkThumbprint(clientJwk)
})

afterEach(() => {
  vi.useRealTimers()
})

interface Parts {
  header?: Record<string, unknown>
  claims?: Record<string, unknown>
  key?: CryptoKey
  alg?: string
}

/** A proof for `TOKEN`, GET `URL_` at `NOW`, with `parts` changed. */
function proof(parts: Parts = {}, token = TOKEN) {
  return new SignJWT({
    htm: 'GET',
    htu: URL_,
    ath: accessTokenHash(token),
    jti: 'jti-0123456789abcdefghij',
    iat: NOW_S,
    ...parts.claims,
  })
    .setProtectedHeader({
      alg: parts.alg ?? 'ES256',
      typ: 'dpop+jwt',
      jwk: clientJwk,
      ...parts.header,
    } as never)
    .sign(parts.key ?? client.privateKey)
}

/** A proof whose claims are `json` as written (what SignJWT would refuse to write). */
function rawProof(json: string, header: Record<string, unknown> = {}) {
  return new CompactSign(new TextEncoder().encode(json))
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: clientJwk, ...header } as never)
    .sign(client.privateKey)
}

const verifier = (options: Partial<DpopOptions> = {}) =>
  new ProofVerifier(dpopConfig('jwtAuth', { mode: 'required', ...options }, undefined) as never)
const target = (over: Partial<ProofTarget> = {}): ProofTarget => ({
  method: 'GET',
  url: URL_,
  token: TOKEN,
  now: NOW,
  tolerance: 0,
  ...over,
})

describe('accessTokenHash', () => {
  it("is RFC 9449's example: base64url of the token's SHA-256", () => {
    expect(accessTokenHash(TOKEN)).toBe('fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo')
    expect(accessTokenHash('')).toBe('47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU')
  })
})

describe('normalizeHtu', () => {
  it.each([
    ['%41%5a%61%7a%30%39', 'AZaz09'],
    ['%2d%2e%5f%7e', '-._~'],
    ['%2f%40%5b%60%7b%3a%2c%20', '%2F%40%5B%60%7B%3A%2C%20'],
    ['%c3%a9', '%C3%A9'],
    ['%2F%7E', '%2F~'],
  ])('decodes unreserved percent-encodings and upper-cases the rest: /%s → /%s', (path, out) => {
    expect(normalizeHtu(`https://a.example/${path}`)).toBe(`https://a.example/${out}`)
  })

  it.each([
    ['HTTP://A.EXAMPLE', 'http://a.example/'],
    ['https://a.example:8443/x?y#z', 'https://a.example:8443/x'],
    ['http://a.example:80/', 'http://a.example/'],
    ['https://user:pw@a.example/p', 'https://a.example/p'],
    ['https://[::1]:8080/p', 'https://[::1]:8080/p'],
  ])('%s → %s', (input, out) => {
    expect(normalizeHtu(input)).toBe(out)
  })

  it.each([
    'ws://a.example/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'mailto:a@b',
    '',
    'a.example/p',
  ])('is null for %j (not an absolute http(s) URL)', (input) => {
    expect(normalizeHtu(input)).toBeNull()
  })
})

describe('ProofVerifier: what a valid proof gives', () => {
  it('the key thumbprint, jti, iat and nonce', async () => {
    expect(await verifier().verify(await proof(), target())).toEqual({
      jkt,
      jti: 'jti-0123456789abcdefghij',
      iat: NOW_S,
      nonce: undefined,
    })
    const withNonce = await proof({ claims: { nonce: 'n-1' } })
    expect((await verifier().verify(withNonce, target()))?.nonce).toBe('n-1')
  })

  it('tells two clients apart on one verifier (each proof key is its own)', async () => {
    const other = await generateKeyPair('ES256', { extractable: true })
    const { kty, crv, x, y } = await exportJWK(other.publicKey)
    const otherJwk = { kty, crv, x, y }
    const v = verifier()
    const mine = await proof()
    const theirs = await proof({ key: other.privateKey, header: { jwk: otherJwk } })
    expect((await v.verify(mine, target()))?.jkt).toBe(jkt)
    expect((await v.verify(theirs, target()))?.jkt).toBe(await calculateJwkThumbprint(otherJwk))
    expect((await v.verify(mine, target()))?.jkt).toBe(jkt)
    // Their key in the header, but signed by mine: refused, also once both keys are known.
    const forged = await proof({ header: { jwk: otherJwk } })
    expect(await v.verify(forged, target())).toBeNull()
  })
})

/** A valid proof of exactly `length` characters (claims padded; `kid` shifts the header). */
async function proofOfLength(length: number): Promise<string> {
  const enc = (v: unknown) => b64.encode(JSON.stringify(v)).length
  for (let kid = 0; kid < 4; kid++) {
    const header = { alg: 'ES256', typ: 'dpop+jwt', jwk: clientJwk, kid: 'k'.repeat(kid) }
    for (let pad = 0; pad < length; pad++) {
      const claims = {
        htm: 'GET',
        htu: URL_,
        ath: accessTokenHash(TOKEN),
        jti: `j${pad}-${kid}`.padEnd(24, 'x'),
        iat: NOW_S,
        pad: 'p'.repeat(pad),
      }
      if (enc(header) + enc(claims) + 88 !== length) continue
      const p = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
        .setProtectedHeader(header as never)
        .sign(client.privateKey)
      expect(p).toHaveLength(length)
      return p
    }
  }
  throw new Error(`no proof of length ${length}`)
}

describe('ProofVerifier: refusals, field by field', () => {
  it(`takes a proof of ${MAX_PROOF_LENGTH} characters, not one more`, async () => {
    expect(MAX_PROOF_LENGTH).toBe(4096)
    expect(await verifier().verify(await proofOfLength(4096), target())).not.toBeNull()
    expect(await verifier().verify(await proofOfLength(4097), target())).toBeNull()
  })

  it.each([
    ['dpop+jwt', true],
    ['DPoP+JWT', true],
    ['application/dpop+jwt', true],
    ['Application/DPoP+JWT', true],
    ['jwt', false],
    ['application/jwt', false],
    ['dpop+jwt ', false],
    ['x/dpop+jwt', false],
    [42, false],
    [null, false],
  ])('typ %j: accepted %s', async (typ, ok) => {
    const result = await verifier().verify(await proof({ header: { typ } }), target())
    expect(result !== null).toBe(ok)
  })

  it.each(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'])(
    'refuses a header jwk with the private member %s',
    async (member) => {
      const jwk = { ...clientJwk, [member]: 'AQAB' }
      expect(await verifier().verify(await proof({ header: { jwk } }), target())).toBeNull()
    },
  )

  it.each([
    ['an array', [clientJwk]],
    ['a string', JSON.stringify({ kty: 'EC' })],
    ['null', null],
    ['absent', undefined],
    ['an RSA jwk under ES256', { kty: 'RSA', n: 'AQAB', e: 'AQAB' }],
    ['an Ed25519 jwk under ES256', { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' }],
    ['a P-384 curve under ES256', { kty: 'EC', crv: 'P-384', x: 'AA', y: 'AA' }],
    ['an oct jwk', { kty: 'oct', k: 'AAAA' }],
  ])('refuses a header jwk that is %s', async (_, jwk) => {
    expect(await verifier().verify(await proof({ header: { jwk } }), target())).toBeNull()
  })

  it("refuses a jwk whose own alg is another one, takes one that names the proof's", async () => {
    const other = await proof({ header: { jwk: { ...clientJwk, alg: 'ES384' } } })
    expect(await verifier().verify(other, target())).toBeNull()
    const same = await proof({ header: { jwk: { ...clientJwk, alg: 'ES256' } } })
    expect((await verifier().verify(same, target()))?.jkt).toBe(jkt)
  })

  it('refuses a jwk jose cannot import (a point off the curve)', async () => {
    const jwk = { ...clientJwk, y: clientJwk.x }
    expect(await verifier().verify(await proof({ header: { jwk } }), target())).toBeNull()
  })

  it('refuses a P-384 key in an ES256 proof signed with SHA-256', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair
    const { kty, crv, x, y } = await exportJWK(pair.publicKey)
    const header = b64.encode(
      JSON.stringify({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty, crv, x, y } }),
    )
    const claims = b64.encode(
      JSON.stringify({
        htm: 'GET',
        htu: URL_,
        ath: accessTokenHash(TOKEN),
        jti: 'j-p384-0123456789abcdef',
        iat: NOW_S,
      }),
    )
    const sig = await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      pair.privateKey,
      new TextEncoder().encode(`${header}.${claims}`),
    )
    const p = `${header}.${claims}.${b64.encode(new Uint8Array(sig))}`
    expect(await verifier().verify(p, target())).toBeNull()
  })

  it('refuses an algorithm outside dpop.algorithms, and takes it once listed', async () => {
    const only = verifier({ algorithms: ['EdDSA'] })
    expect(await only.verify(await proof(), target())).toBeNull()
    const listed = verifier({ algorithms: ['EdDSA', 'ES256'] })
    expect(await listed.verify(await proof(), target())).not.toBeNull()
  })

  it.each([
    ['an array', '[1]'],
    ['a number', '1'],
    ['null', 'null'],
    ['not JSON', '{"htm":'],
  ])('refuses claims that are %s', async (_, json) => {
    expect(await verifier().verify(await rawProof(json), target())).toBeNull()
  })

  it(`takes a jti of 1 to ${MAX_JTI_LENGTH} characters`, async () => {
    expect(MAX_JTI_LENGTH).toBe(256)
    for (const [jti, ok] of [
      ['j', true],
      ['j'.repeat(256), true],
      ['j'.repeat(257), false],
      ['', false],
      [42, false],
      [undefined, false],
    ] as const) {
      const result = await verifier().verify(await proof({ claims: { jti } }), target())
      expect(result !== null, `jti ${String(jti).length}`).toBe(ok)
    }
  })

  it('refuses another htm (case counts), a missing one, a missing or non-string htu', async () => {
    for (const claims of [
      { htm: 'get' },
      { htm: 'POST' },
      { htm: undefined },
      { htu: undefined },
      { htu: 7 },
      // An array of the URL reads as the URL once made a string: refused as not a string.
      { htu: [URL_] },
    ]) {
      expect(
        await verifier().verify(await proof({ claims }), target()),
        JSON.stringify(claims),
      ).toBeNull()
    }
    const post = await proof({ claims: { htm: 'POST' } })
    expect(await verifier().verify(post, target({ method: 'POST' }))).not.toBeNull()
  })

  it(`takes an iat up to ${DPOP_FUTURE_LEEWAY} s ahead and maxAgeSeconds behind, to the second`, async () => {
    expect(DPOP_FUTURE_LEEWAY).toBe(5)
    const v = verifier({ maxAgeSeconds: 60 })
    const at = async (iat: number, tolerance = 0) =>
      (await v.verify(
        await proof({ claims: { iat, jti: `j-${iat}-${tolerance}-padding-x` } }),
        target({ tolerance }),
      )) !== null
    expect(await at(NOW_S + 5)).toBe(true)
    expect(await at(NOW_S + 5.5)).toBe(false)
    expect(await at(NOW_S + 6)).toBe(false)
    expect(await at(NOW_S - 60)).toBe(true)
    expect(await at(NOW_S - 60.5)).toBe(false)
    expect(await at(NOW_S - 61)).toBe(false)
    // clockTolerance widens both sides.
    expect(await at(NOW_S + 15, 10)).toBe(true)
    expect(await at(NOW_S + 16, 10)).toBe(false)
    expect(await at(NOW_S - 70, 10)).toBe(true)
    expect(await at(NOW_S - 71, 10)).toBe(false)
  })

  it('compares iat with the time to the millisecond', async () => {
    const v = verifier({ maxAgeSeconds: 60 })
    const p = await proof({ claims: { iat: NOW_S + 5 } })
    expect(await v.verify(p, target({ now: NOW + 1 }))).not.toBeNull()
    expect(await v.verify(p, target({ now: NOW - 1 }))).toBeNull()
    const old = await proof({ claims: { iat: NOW_S - 60 } })
    expect(await v.verify(old, target({ now: NOW - 1 }))).not.toBeNull()
    expect(await v.verify(old, target({ now: NOW + 1 }))).toBeNull()
  })

  it('refuses an iat that is not a number', async () => {
    const claims = (iat: string, i: number) =>
      `{"htm":"GET","htu":"${URL_}","ath":"${accessTokenHash(TOKEN)}","jti":"j-${i}-0123456789abc","iat":${iat}}`
    // The control: the same claims with iat a number in the window.
    expect(await verifier().verify(await rawProof(claims(`${NOW_S}`, 0)), target())).not.toBeNull()
    // A string in the window ("1767225600" compares as the number).
    const texts = [`"${NOW_S}"`, 'null', 'true', `[${NOW_S}]`, '1e400', '-1e400']
    for (const [i, iat] of texts.entries()) {
      expect(await verifier().verify(await rawProof(claims(iat, i + 1)), target()), iat).toBeNull()
    }
  })

  it("refuses an ath of another token, a missing one, and takes this token's", async () => {
    expect(
      await verifier().verify(await proof({ claims: { ath: accessTokenHash('other') } }), target()),
    ).toBeNull()
    expect(
      await verifier().verify(await proof({ claims: { ath: undefined } }), target()),
    ).toBeNull()
    expect(await verifier().verify(await proof(), target({ token: 'other' }))).toBeNull()
  })

  it('refuses a nonce that is not a string', async () => {
    for (const nonce of [1, null, ['n'], { n: 1 }]) {
      expect(await verifier().verify(await proof({ claims: { nonce } }), target())).toBeNull()
    }
  })
})

describe('ProofVerifier: htu', () => {
  const at = async (htu: string, url: string) =>
    (await verifier().verify(await proof({ claims: { htu } }), target({ url }))) !== null

  it('ignores the query and fragment of both sides', async () => {
    expect(await at(`${URL_}?b=2#f`, `${URL_}?a=1`)).toBe(true)
    expect(await at(URL_, `${URL_}?a=1`)).toBe(true)
    expect(await at(`${URL_}?a=1`, `${URL_}?a=1`)).toBe(true)
  })

  it('normalises the spelling of both sides', async () => {
    expect(await at('https://api.example/mcp/tools', 'HTTPS://API.EXAMPLE:443/mcp/%74ools')).toBe(
      true,
    )
    expect(await at('https://api.example/mcp/%74ools', 'https://api.example/mcp/tools')).toBe(true)
  })

  it('refuses another path, host, port or scheme', async () => {
    expect(await at('https://api.example/mcp/tools/', URL_)).toBe(false)
    expect(await at('https://api.example:8443/mcp/tools', URL_)).toBe(false)
    expect(await at('http://api.example/mcp/tools', URL_)).toBe(false)
    expect(await at('https://api.example.evil/mcp/tools', URL_)).toBe(false)
    expect(await at('not a url', URL_)).toBe(false)
  })

  it('refuses every proof when the request URL itself is not http(s), even one spelled the same', async () => {
    expect(await at('ftp://api.example/mcp', 'ftp://api.example/mcp')).toBe(false)
    expect(await at('garbage', 'garbage')).toBe(false)
  })

  it('remembers the last URL per verifier, and checks each proof against the one it is given', async () => {
    const v = verifier()
    const check = async (htu: string, url: string) =>
      (await v.verify(
        await proof({ claims: { htu, jti: `j-${htu}-${url}` } }),
        target({ url }),
      )) !== null
    expect(await check(URL_, URL_)).toBe(true)
    expect(await check(URL_, 'garbage')).toBe(false)
    expect(await check('garbage', 'garbage')).toBe(false)
    expect(await check(URL_, URL_)).toBe(true)
    expect(await check(`${URL_}x`, URL_)).toBe(false)
  })
})

describe('ProofVerifier: the replay window', () => {
  it('holds a jti until the proof is too old, plus a second', async () => {
    const v = verifier({ maxAgeSeconds: 300 })
    const p = { jkt: 'k', jti: 'j', iat: 1000, nonce: undefined }
    expect(v.replayWindowMs(p, 1_000_000, 0)).toBe(301_000)
    expect(v.replayWindowMs(p, 1_000_000, 10)).toBe(311_000)
    expect(v.replayWindowMs(p, 1_100_000, 0)).toBe(201_000)
    // Fractions round up; a proof already too old is still held a little.
    expect(v.replayWindowMs(p, 1_299_998.5, 0)).toBe(1_002)
    expect(v.replayWindowMs(p, 1_300_000, 0)).toBe(1_001)
    expect(v.replayWindowMs(p, 2_000_000, 0)).toBe(1_001)
    expect(verifier({ maxAgeSeconds: 60 }).replayWindowMs(p, 1_000_000, 0)).toBe(61_000)
  })
})

describe('createDpopProof', () => {
  it('writes the header RFC 9449 asks: alg, typ dpop+jwt and the public key alone', async () => {
    const p = await createDpopProof('GET', URL_, { keyPair: client })
    expect(decodeProtectedHeader(p)).toEqual({ alg: 'ES256', typ: 'dpop+jwt', jwk: clientJwk })
    const rsa = await generateKeyPair('PS256', { extractable: true })
    const { n, e } = await exportJWK(rsa.publicKey)
    const q = await createDpopProof('GET', URL_, { keyPair: rsa })
    expect(decodeProtectedHeader(q)).toEqual({
      alg: 'PS256',
      typ: 'dpop+jwt',
      jwk: { kty: 'RSA', n, e },
    })
  })

  it('claims htm, htu without query and fragment, iat now, a fresh jti; ath and nonce when given', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    const bare = decodeJwt(
      await createDpopProof('PATCH', 'HTTPS://API.example:443/a/b?c=1#d', { keyPair: client }),
    )
    expect(Object.keys(bare).sort()).toEqual(['htm', 'htu', 'iat', 'jti'])
    expect(bare).toMatchObject({ htm: 'PATCH', htu: 'https://api.example/a/b', iat: NOW_S })
    expect(bare.jti).toMatch(/^[\w-]{22}$/)
    const full = decodeJwt(
      await createDpopProof('GET', new URL(URL_), {
        keyPair: client,
        accessToken: TOKEN,
        nonce: 'n-1',
      }),
    )
    expect(full).toMatchObject({ htu: URL_, ath: accessTokenHash(TOKEN), nonce: 'n-1' })
    expect(full.jti).not.toBe(bare.jti)
  })

  it('signs with the alg it is given', async () => {
    await expect(createDpopProof('GET', URL_, { keyPair: client, alg: 'ES384' })).rejects.toThrow()
    const p = await createDpopProof('GET', URL_, { keyPair: client, alg: 'ES256' })
    expect(decodeProtectedHeader(p).alg).toBe('ES256')
  })

  it('refuses what is not a key pair of a DPoP algorithm', async () => {
    const ecdh = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
      'deriveBits',
    ])) as CryptoKeyPair
    const pair = '"keyPair" must be a CryptoKeyPair'
    for (const [options, message] of [
      [undefined, pair],
      [{}, pair],
      [{ keyPair: { privateKey: client.privateKey } }, pair],
      [{ keyPair: { publicKey: client.publicKey } }, pair],
      [{ keyPair: { privateKey: 'k', publicKey: client.publicKey } }, pair],
      [{ keyPair: ecdh }, '"keyPair" is of an algorithm DPoP cannot use'],
    ] as const) {
      const call = createDpopProof('GET', URL_, options as never)
      await expect(call).rejects.toThrow(TypeError)
      await expect(call).rejects.toThrow(`createDpopProof: ${message}`)
    }
  })
})

/** An access token from the issuer, bound to `bound` unless `null`. */
function accessToken(bound: string | null = jkt, claims: Record<string, unknown> = {}) {
  return new SignJWT({
    sub: 'agent-1',
    ...(bound === null ? {} : { cnf: { jkt: bound } }),
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(issuer.privateKey)
}

/** A live proof for `token` (real time, a fresh jti). */
const liveProof = (token: string, parts: Parts = {}) =>
  proof(
    {
      ...parts,
      claims: { iat: Math.floor(Date.now() / 1000), jti: crypto.randomUUID(), ...parts.claims },
    },
    token,
  )

/** An app whose answers show the rejection's code (`x-code`). */
function app(dpop: 'required' | 'allowed' | DpopOptions, extra: Record<string, unknown> = {}) {
  const a = new Hono()
  a.onError(withRejectionCode)
  a.use('/mcp/*', jwtAuth({ publicKey: issuer.publicKey, dpop, ...extra }))
  a.all('/mcp/*', (c) => c.json({ sub: c.get('jwtPayload').sub, dpop: c.get('dpop') ?? null }))
  return a
}

async function answer(res: Response) {
  return {
    status: res.status,
    code: res.headers.get('x-code'),
    text: await res.text(),
    challenge: res.headers.get('www-authenticate'),
    nonce: res.headers.get('dpop-nonce'),
  }
}

const DPOP = 'DPoP realm="api", algs="ES256 EdDSA PS256 RS256"'
const refused = (code: string, error: string, description: string) => ({
  status: 401,
  code,
  text: description,
  challenge: `${DPOP}, error="${error}", error_description="${description}"`,
  nonce: null,
})

describe('jwtAuth dpop: each refusal of the request path', () => {
  it.each([
    ['no DPoP header', undefined],
    ['an empty DPoP header', ''],
    ['a proof with a space in it', 'a.b c.d'],
    ['two proofs joined by a comma', 'a.b.c, d.e.f'],
    ['a proof with a tab', 'a.b\tc.d'],
  ])('%s: 401 invalid_dpop_proof, exactly one proof is required', async (_, dpop) => {
    const token = await accessToken()
    const headers: Record<string, string> = { authorization: `DPoP ${token}` }
    if (dpop !== undefined) headers.dpop = dpop
    expect(await answer(await app('required').request(URL_, { headers }))).toEqual(
      refused(
        'invalid_dpop_proof',
        'invalid_dpop_proof',
        'Exactly one DPoP proof header is required',
      ),
    )
  })

  it('an invalid proof: 401 invalid_dpop_proof', async () => {
    const token = await accessToken()
    const p = await liveProof(token, { claims: { htm: 'POST' } })
    const res = await app('required').request(URL_, {
      headers: { authorization: `DPoP ${token}`, dpop: p },
    })
    expect(await answer(res)).toEqual(
      refused('invalid_dpop_proof', 'invalid_dpop_proof', 'Invalid DPoP proof'),
    )
  })

  it('a proof of another key than cnf.jkt, or a token bound to nothing: 401 token_invalid', async () => {
    for (const bound of ['NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs', null]) {
      const token = await accessToken(bound)
      const res = await app('allowed').request(URL_, {
        headers: { authorization: `DPoP ${token}`, dpop: await liveProof(token) },
      })
      expect(await answer(res)).toEqual(
        refused('token_invalid', 'invalid_token', 'Invalid DPoP key binding'),
      )
    }
  })

  it('a bound token sent as Bearer: 401 token_invalid, in the DPoP scheme', async () => {
    const token = await accessToken()
    const res = await app('allowed').request(URL_, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(await answer(res)).toEqual(
      refused('token_invalid', 'invalid_token', 'A DPoP-bound token must be sent as DPoP'),
    )
  })

  it('takes as Bearer a token whose cnf names no key (not an object, null, no jkt)', async () => {
    for (const cnf of ['x', null, {}, { x5t: 'y' }, 7]) {
      const token = await accessToken(null, { cnf })
      const res = await app('allowed').request(URL_, {
        headers: { authorization: `Bearer ${token}` },
      })
      expect(res.status, JSON.stringify(cnf)).toBe(200)
      expect(await res.json()).toEqual({ sub: 'agent-1', dpop: null })
    }
    // A jkt of any type is a binding.
    for (const bound of ['', 0, false, null]) {
      const token = await accessToken(null, { cnf: { jkt: bound } })
      const res = await app('allowed').request(URL_, {
        headers: { authorization: `Bearer ${token}` },
      })
      expect(res.status, JSON.stringify(bound)).toBe(401)
    }
  })

  it.each([
    [
      'Bearer with "required": refused before any verify',
      'required',
      'Bearer not-even-a-jwt',
      'invalid_token',
    ],
    ['a DPoP header with two tokens', 'allowed', 'DPoP a b', 'invalid_request'],
    ['an invalid token sent as DPoP (the proof unread)', 'required', 'DPoP a.b.c', 'invalid_token'],
  ] as const)('%s: 401 token_invalid in the DPoP scheme', async (_, mode, authorization, error) => {
    const res = await app(mode).request(URL_, { headers: { authorization } })
    expect(await answer(res)).toEqual({
      status: 401,
      code: 'token_invalid',
      text: 'Unauthorized',
      challenge: `${DPOP}, error="${error}"`,
      nonce: null,
    })
  })

  it('names the realm and the configured algorithms in every DPoP challenge', async () => {
    const token = await accessToken()
    const a = app({ mode: 'required', algorithms: ['ES256', 'RS512'] }, { realm: 'mcp' })
    const res = await a.request(URL_, { headers: { authorization: `DPoP ${token}` } })
    expect(res.headers.get('www-authenticate')).toBe(
      'DPoP realm="mcp", algs="ES256 RS512", error="invalid_dpop_proof", error_description="Exactly one DPoP proof header is required"',
    )
    expect((await a.request(URL_)).headers.get('www-authenticate')).toBe(
      'DPoP realm="mcp", algs="ES256 RS512"',
    )
  })
})

describe('jwtAuth dpop: the replay store', () => {
  it('claims dpop:<jkt>:<jti> for as long as the proof could be accepted, plus a second', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    const claims: [string, number][] = []
    const store: NonceStore = {
      async claim(nonce, ttl) {
        claims.push([nonce, ttl])
        return true
      },
    }
    const token = await accessToken()
    const a = app(
      { mode: 'required', nonceStore: store, maxAgeSeconds: 120 },
      { clockTolerance: 10 },
    )
    const p = await proof({ claims: { iat: NOW_S - 20, jti: 'the-jti-0123456789abcdef' } }, token)
    const res = await a.request(URL_, { headers: { authorization: `DPoP ${token}`, dpop: p } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ sub: 'agent-1', dpop: { jkt } })
    expect(claims).toEqual([
      [`dpop:${jkt}:the-jti-0123456789abcdef`, (120 + 10 - 20) * 1000 + 1000],
    ])
  })

  it('asks the store for this request when it binds per request (forContext)', async () => {
    const seen: unknown[] = []
    const inner: NonceStore = { claim: async () => true }
    const store: NonceStore = {
      claim: async () => {
        throw new Error('the unbound store was used')
      },
      forContext(c) {
        seen.push(c.req.path)
        return inner
      },
    }
    const token = await accessToken()
    const res = await app({ mode: 'required', nonceStore: store }).request(URL_, {
      headers: { authorization: `DPoP ${token}`, dpop: await liveProof(token) },
    })
    expect(res.status).toBe(200)
    expect(seen).toEqual(['/mcp/tools'])
  })

  it('a replayed proof: 401 invalid_dpop_proof, "DPoP proof replayed"', async () => {
    const token = await accessToken()
    const store: NonceStore = { claim: async () => false }
    const res = await app({ mode: 'required', nonceStore: store }).request(URL_, {
      headers: { authorization: `DPoP ${token}`, dpop: await liveProof(token) },
    })
    expect(await answer(res)).toEqual(
      refused('invalid_dpop_proof', 'invalid_dpop_proof', 'DPoP proof replayed'),
    )
  })

  it('a store that fails (or whose forContext throws): 503 store_unavailable, the handler not run', async () => {
    const token = await accessToken()
    for (const store of [
      { claim: async () => Promise.reject(new Error('down')) },
      {
        claim: async () => true,
        forContext: () => {
          throw new Error('no binding')
        },
      },
    ] as NonceStore[]) {
      const res = await app({ mode: 'required', nonceStore: store }).request(URL_, {
        headers: { authorization: `DPoP ${token}`, dpop: await liveProof(token) },
      })
      expect(await answer(res)).toEqual({
        status: 503,
        code: 'store_unavailable',
        text: 'Service Unavailable',
        challenge: null,
        nonce: null,
      })
    }
  })

  it('does not ask the store about a proof that failed, a wrong binding or a missing nonce', async () => {
    let asked = 0
    const store: NonceStore = {
      async claim() {
        asked++
        return true
      },
    }
    const token = await accessToken()
    const other = await accessToken('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs')
    const a = app({ mode: 'required', nonceStore: store })
    const n = app({ mode: 'required', nonceStore: store, nonce: { secret: 's'.repeat(32) } })
    const send = async (x: Hono, t: string, p: string) =>
      (await x.request(URL_, { headers: { authorization: `DPoP ${t}`, dpop: p } })).status
    expect(await send(a, token, await liveProof(token, { claims: { htm: 'PUT' } }))).toBe(401)
    expect(await send(a, other, await liveProof(other))).toBe(401)
    expect(await send(n, token, await liveProof(token))).toBe(401)
    expect(asked).toBe(0)
    expect(await send(a, token, await liveProof(token))).toBe(200)
    expect(asked).toBe(1)
  })
})

describe('jwtAuth dpop: server nonces on the request path', () => {
  it('a proof without the nonce: 401 use_dpop_nonce with the current nonce, before the binding is checked', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    const secret = 's'.repeat(32)
    const issuerOfNonces = dpopConfig(
      't',
      { mode: 'required', nonce: { secret } },
      undefined,
    )?.nonce
    const current = await issuerOfNonces?.current(NOW)
    const a = app({ mode: 'required', nonce: { secret } })
    // Bound to another key: the nonce is asked for first.
    for (const token of [
      await accessToken(),
      await accessToken('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'),
    ]) {
      for (const nonce of [undefined, 'made-up']) {
        const p = await proof({ claims: { nonce } }, token)
        const res = await a.request(URL_, { headers: { authorization: `DPoP ${token}`, dpop: p } })
        expect(await answer(res)).toEqual({
          ...refused(
            'use_dpop_nonce',
            'use_dpop_nonce',
            'Resource server requires nonce in DPoP proof',
          ),
          nonce: current,
        })
      }
    }
  })

  it("sends the current nonce after the handler when the proof carried the previous window's", async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    const secret = 's'.repeat(32)
    const nonces = dpopConfig(
      't',
      { mode: 'required', nonce: { secret, lifetimeSeconds: 60 } },
      undefined,
    )?.nonce
    const previous = (await nonces?.current(NOW - 60_000)) as string
    const current = (await nonces?.current(NOW)) as string
    const a = new Hono()
    a.use(
      '/mcp/*',
      jwtAuth({
        publicKey: issuer.publicKey,
        dpop: { mode: 'required', nonce: { secret, lifetimeSeconds: 60 } },
      }),
    )
    const during: (string | null)[] = []
    a.get('/mcp/*', (c) => {
      during.push(c.res.headers.get('dpop-nonce'))
      return c.text('ok')
    })
    const token = await accessToken()
    const send = async (nonce: string, jti: string) =>
      a.request(URL_, {
        headers: {
          authorization: `DPoP ${token}`,
          dpop: await proof({ claims: { nonce, jti } }, token),
        },
      })
    const stale = await send(previous, 'jti-stale-0123456789abcdef')
    expect(stale.status).toBe(200)
    expect(stale.headers.get('dpop-nonce')).toBe(current)
    expect(during).toEqual([null])
    const fresh = await send(current, 'jti-fresh-0123456789abcdef')
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get('dpop-nonce')).toBeNull()
  })

  it('asks no nonce without the option, whatever nonce the proof carries', async () => {
    const token = await accessToken()
    const res = await app('required').request(URL_, {
      headers: {
        authorization: `DPoP ${token}`,
        dpop: await liveProof(token, { claims: { nonce: 'any' } }),
      },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('dpop-nonce')).toBeNull()
  })
})

describe('jwtAuth dpop: the url option', () => {
  it('checks htu against the URL it returns, not the one Hono saw', async () => {
    const token = await accessToken()
    const a = app({ mode: 'required', url: () => 'https://public.example/mcp/tools' })
    const send = async (htu: string) =>
      (
        await a.request(URL_, {
          headers: {
            authorization: `DPoP ${token}`,
            dpop: await liveProof(token, { claims: { htu } }),
          },
        })
      ).status
    expect(await send('https://public.example/mcp/tools')).toBe(200)
    expect(await send(URL_)).toBe(401)
  })
})
