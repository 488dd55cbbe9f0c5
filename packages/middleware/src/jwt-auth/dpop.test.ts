// DPoP (RFC 9449) in jwtAuth: proofs made with jose (SignJWT, generateKeyPair, exportJWK,
// calculateJwkThumbprint), each attack of the issue against a middleware that would otherwise
// accept the request.
import { getMiddlewareDescription } from '@palisade/shared/describe'
import fc from 'fast-check'
import { Hono } from 'hono'
import {
  base64url as b64,
  CompactSign,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  type JWK,
  SignJWT,
} from 'jose'
import { afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { accessTokenHash, normalizeHtu } from './dpop'
import { createDpopProof, type DpopOptions, jwtAuth, MemoryNonceStore } from './index'

const URL_ = 'https://api.example/mcp/tools'
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

/** An access token from the issuer, bound to `bound` (a thumbprint) unless `null`. */
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

interface ProofParts {
  header?: Record<string, unknown>
  claims?: Record<string, unknown>
  key?: CryptoKey | Uint8Array
  alg?: string
}

/** A proof for `method url` and `token`, built field by field so each can be broken. */
async function proof(token: string, method = 'GET', url = URL_, parts: ProofParts = {}) {
  return new SignJWT({
    htm: method,
    htu: url,
    ath: accessTokenHash(token),
    jti: crypto.randomUUID(),
    iat: Math.floor(Date.now() / 1000),
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

function app(dpop: JwtAuthDpop = 'required') {
  const a = new Hono()
  a.use('/mcp/*', jwtAuth({ publicKey: issuer.publicKey, dpop }))
  a.all('/mcp/*', (c) => c.json({ sub: c.get('jwtPayload').sub, jkt: c.get('dpop')?.jkt ?? null }))
  return a
}
type JwtAuthDpop = 'required' | 'allowed' | DpopOptions

const dpopHeaders = (token: string, p: string) => ({ authorization: `DPoP ${token}`, dpop: p })

async function expectProofRefused(res: Response) {
  expect(res.status).toBe(401)
  const challenge = res.headers.get('www-authenticate') ?? ''
  expect(challenge).toMatch(
    /^DPoP realm="api", algs="ES256 EdDSA PS256 RS256", error="invalid_dpop_proof"/,
  )
}

describe('jwtAuth dpop: accepted requests', () => {
  it('accepts a bound token with a proof for this method and URL, and exposes the thumbprint', async () => {
    const token = await accessToken()
    const res = await app().request(URL_, { headers: dpopHeaders(token, await proof(token)) })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ sub: 'agent-1', jkt })
  })

  it('accepts a proof from createDpopProof (query and fragment left out of htu)', async () => {
    const token = await accessToken()
    const p = await createDpopProof('POST', `${URL_}?page=2#x`, {
      keyPair: client,
      accessToken: token,
    })
    const res = await app().request(`${URL_}?page=2`, {
      method: 'POST',
      headers: dpopHeaders(token, p),
    })
    expect(res.status).toBe(200)
  })

  it.each([
    ['HTTPS://API.EXAMPLE/mcp/tools', 'scheme and host case'],
    ['https://api.example:443/mcp/tools', 'default port'],
    ['https://api.example/mcp/./x/../tools', 'dot segments'],
    ['https://api.example/mcp/%74ools', 'percent-encoded unreserved'],
  ])('accepts htu %s (%s)', async (htu, _why) => {
    const token = await accessToken()
    const res = await app().request(URL_, {
      headers: dpopHeaders(token, await proof(token, 'GET', htu)),
    })
    expect(res.status).toBe(200)
  })

  it('accepts each proof algorithm of the default list (EdDSA, PS256, RS256 keys)', async () => {
    for (const alg of ['EdDSA', 'PS256', 'RS256'] as const) {
      const pair = await generateKeyPair(alg, { extractable: true })
      const { kty, crv, x, n, e } = await exportJWK(pair.publicKey)
      const jwk = { kty, crv, x, n, e }
      const token = await accessToken(await calculateJwkThumbprint(jwk as JWK))
      const p = await proof(token, 'GET', URL_, { alg, key: pair.privateKey, header: { jwk } })
      const res = await app().request(URL_, { headers: dpopHeaders(token, p) })
      expect(res.status, alg).toBe(200)
    }
  })

  it('with "allowed", takes Bearer for a token that is not bound, and DPoP for a bound one', async () => {
    const unbound = await accessToken(null)
    const a = app('allowed')
    const plain = await a.request(URL_, { headers: { authorization: `Bearer ${unbound}` } })
    expect(plain.status).toBe(200)
    expect(await plain.json()).toEqual({ sub: 'agent-1', jkt: null })
    const token = await accessToken()
    const bound = await a.request(URL_, { headers: dpopHeaders(token, await proof(token)) })
    expect(bound.status).toBe(200)
  })

  it('types c.get("dpop") and narrows the answers without dpop', () => {
    const withDpop = jwtAuth({ publicKey: clientJwk, dpop: 'required' })
    const without = jwtAuth({ publicKey: clientJwk })
    expectTypeOf<NonNullable<(typeof withDpop)['~rejects']>[401]>().toEqualTypeOf<
      'token_missing' | 'token_invalid' | 'invalid_dpop_proof' | 'use_dpop_nonce'
    >()
    expectTypeOf<NonNullable<(typeof without)['~rejects']>[401]>().toEqualTypeOf<
      'token_missing' | 'token_invalid'
    >()
  })
})

describe('jwtAuth dpop: attacks', () => {
  it('refuses a proof made for another URL or another method', async () => {
    const token = await accessToken()
    const other = await proof(token, 'GET', 'https://api.example/mcp/admin')
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, other) }))
    const host = await proof(token, 'GET', 'https://evil.example/mcp/tools')
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, host) }))
    const post = await proof(token, 'POST')
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, post) }))
    const lower = await proof(token, 'get')
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, lower) }))
  })

  it('checks htu against each request URL on one instance (the last URL is remembered)', async () => {
    const token = await accessToken()
    const a = app()
    const admin = 'https://api.example/mcp/admin'
    const send = async (url: string, htu: string) =>
      a.request(url, { headers: dpopHeaders(token, await proof(token, 'GET', htu)) })
    expect((await send(URL_, URL_)).status).toBe(200)
    await expectProofRefused(await send(admin, URL_))
    expect((await send(admin, admin)).status).toBe(200)
    await expectProofRefused(await send(URL_, admin))
    // Spelled otherwise but normalising to the request URL: still accepted after a hit.
    expect((await send(URL_, 'HTTPS://API.EXAMPLE:443/mcp/%74ools')).status).toBe(200)
    await expectProofRefused(await send(`${URL_}x`, URL_))
  })

  it('refuses a proof used a second time (replayed jti), on the same instance', async () => {
    const token = await accessToken()
    const a = app({ mode: 'required', nonceStore: new MemoryNonceStore() })
    const p = await proof(token)
    expect((await a.request(URL_, { headers: dpopHeaders(token, p) })).status).toBe(200)
    await expectProofRefused(await a.request(URL_, { headers: dpopHeaders(token, p) }))
    // The same jti in a new proof is the same proof to the replay check.
    const jti = JSON.parse(new TextDecoder().decode(b64.decode(p.split('.')[1] as string))).jti
    const again = await proof(token, 'GET', URL_, { claims: { jti } })
    await expectProofRefused(await a.request(URL_, { headers: dpopHeaders(token, again) }))
  })

  it('refuses a token bound to another key (the proof key is not cnf.jkt)', async () => {
    const token = await accessToken('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs')
    const res = await app().request(URL_, { headers: dpopHeaders(token, await proof(token)) })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"')
    expect(res.headers.get('www-authenticate')).toContain('Invalid DPoP key binding')
    // A token bound to nothing, sent as DPoP, is refused the same way.
    const unbound = await accessToken(null)
    const res2 = await app().request(URL_, { headers: dpopHeaders(unbound, await proof(unbound)) })
    expect(res2.status).toBe(401)
    expect(res2.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  it("refuses a proof whose ath is another token's hash, or missing", async () => {
    const token = await accessToken()
    const otherToken = await accessToken()
    const wrong = await proof(token, 'GET', URL_, { claims: { ath: accessTokenHash(otherToken) } })
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, wrong) }))
    const none = await proof(token, 'GET', URL_, { claims: { ath: undefined } })
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, none) }))
  })

  it.each([
    ['JWT', 'typ JWT'],
    ['at+jwt', 'typ at+jwt'],
    [undefined, 'no typ'],
  ])('refuses typ %s (%s)', async (typ, _why) => {
    const token = await accessToken()
    const p = await proof(token, 'GET', URL_, { header: { typ } })
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, p) }))
  })

  it('refuses alg none and HS256 proofs, and an algorithm left out of dpop.algorithms', async () => {
    const token = await accessToken()
    const claims = {
      htm: 'GET',
      htu: URL_,
      ath: accessTokenHash(token),
      jti: 'j1',
      iat: Math.floor(Date.now() / 1000),
    }
    const none = `${b64.encode(JSON.stringify({ alg: 'none', typ: 'dpop+jwt', jwk: clientJwk }))}.${b64.encode(JSON.stringify(claims))}.`
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, none) }))
    const secret = new TextEncoder().encode('x'.repeat(32))
    const hs = await proof(token, 'GET', URL_, {
      alg: 'HS256',
      key: secret,
      header: { jwk: { kty: 'oct', k: b64.encode(secret) } },
    })
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, hs) }))
    const onlyEd = app({ mode: 'required', algorithms: ['EdDSA'] })
    const res = await onlyEd.request(URL_, { headers: dpopHeaders(token, await proof(token)) })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('algs="EdDSA"')
  })

  it('refuses a proof whose header jwk is a private key, or another key than the signer', async () => {
    const token = await accessToken()
    const priv = await generateKeyPair('ES256', { extractable: true })
    const privateJwk = await exportJWK(priv.privateKey)
    const bound = await accessToken(await calculateJwkThumbprint(privateJwk))
    const p = await proof(bound, 'GET', URL_, { key: priv.privateKey, header: { jwk: privateJwk } })
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(bound, p) }))
    // The header names the client's key but another key signed: the signature fails.
    const forged = await proof(token, 'GET', URL_, { key: priv.privateKey })
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, forged) }))
    // No jwk at all.
    const bare = await proof(token, 'GET', URL_, { header: { jwk: undefined } })
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, bare) }))
  })

  it('refuses a proof too old or from the future, and accepts one inside the window', async () => {
    const token = await accessToken()
    const now = Math.floor(Date.now() / 1000)
    const a = app({ mode: 'required', maxAgeSeconds: 60 })
    for (const iat of [now - 61, now + 6, now + 3600]) {
      const p = await proof(token, 'GET', URL_, { claims: { iat } })
      await expectProofRefused(await a.request(URL_, { headers: dpopHeaders(token, p) }))
    }
    for (const iat of [now - 55, now + 3]) {
      const p = await proof(token, 'GET', URL_, { claims: { iat } })
      expect((await a.request(URL_, { headers: dpopHeaders(token, p) })).status).toBe(200)
    }
    // Not a finite number (jose's SignJWT refuses to write these: CompactSign signs raw text).
    for (const iat of ['"1"', 'null', '1e400']) {
      // The jti must not quote the iat text: the claims have to be valid JSON.
      const claims = `{"htm":"GET","htu":"${URL_}","ath":"${accessTokenHash(token)}","jti":"j-${iat.length}-${Math.random()}","iat":${iat}}`
      const p = await new CompactSign(new TextEncoder().encode(claims))
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: clientJwk } as never)
        .sign(client.privateKey)
      await expectProofRefused(await a.request(URL_, { headers: dpopHeaders(token, p) }))
    }
  })

  it('refuses two DPoP headers, even two valid proofs', async () => {
    const token = await accessToken()
    const headers = new Headers({ authorization: `DPoP ${token}` })
    headers.append('dpop', await proof(token))
    headers.append('dpop', await proof(token))
    await expectProofRefused(await app().request(URL_, { headers }))
  })

  it.each([
    ['garbage', 'not a jwt'],
    ['three segments of junk', 'a.b.c'],
    ['empty segments', '..'],
    ['a header that is not JSON', `${b64.encode('{')}.${b64.encode('{}')}.AAAA`],
    ['a JWE-like five segments', 'a.b.c.d.e'],
    ['an oversized proof', `${'a'.repeat(5000)}.b.c`],
  ])('refuses a malformed proof: %s', async (_, p) => {
    const token = await accessToken()
    await expectProofRefused(await app().request(URL_, { headers: dpopHeaders(token, p) }))
  })

  it('refuses a request with Authorization: DPoP and no proof', async () => {
    const token = await accessToken()
    const res = await app().request(URL_, { headers: { authorization: `DPoP ${token}` } })
    await expectProofRefused(res)
    expect(await res.text()).toBe('Exactly one DPoP proof header is required')
  })

  it('refuses a bound token sent as Bearer after it verified as DPoP (remembered, still checked)', async () => {
    const token = await accessToken()
    const a = app('allowed')
    const first = await a.request(URL_, { headers: dpopHeaders(token, await proof(token)) })
    expect(first.status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const res = await a.request(URL_, { headers: { authorization: `Bearer ${token}` } })
      expect(res.status, `request ${i}`).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(
        /^DPoP realm="api", algs="[^"]+", error="invalid_token"/,
      )
    }
  })

  it('refuses a downgrade: a bound token sent as Bearer, in both modes', async () => {
    const token = await accessToken()
    for (const mode of ['required', 'allowed'] as const) {
      const res = await app(mode).request(URL_, {
        headers: { authorization: `Bearer ${token}`, dpop: await proof(token) },
      })
      expect(res.status, mode).toBe(401)
      expect(res.headers.get('www-authenticate'), mode).toMatch(
        /^DPoP realm="api", algs="[^"]+", error="invalid_token"/,
      )
    }
    // With "required", Bearer is refused even for a token that is not bound.
    const unbound = await accessToken(null)
    const res = await app('required').request(URL_, {
      headers: { authorization: `Bearer ${unbound}` },
    })
    expect(res.status).toBe(401)
  })

  it('answers a request without a token with the challenges of the accepted schemes', async () => {
    const required = await app('required').request(URL_)
    expect(required.status).toBe(401)
    expect(required.headers.get('www-authenticate')).toBe(
      'DPoP realm="api", algs="ES256 EdDSA PS256 RS256"',
    )
    const allowed = await app('allowed').request(URL_)
    expect(allowed.headers.get('www-authenticate')).toBe(
      'Bearer realm="api", DPoP realm="api", algs="ES256 EdDSA PS256 RS256"',
    )
  })
})

describe('jwtAuth dpop: server nonces', () => {
  it('asks for a nonce with use_dpop_nonce and DPoP-Nonce, then accepts the proof carrying it', async () => {
    const token = await accessToken()
    const a = app({ mode: 'required', nonce: { secret: 's'.repeat(32) } })
    const first = await a.request(URL_, { headers: dpopHeaders(token, await proof(token)) })
    expect(first.status).toBe(401)
    expect(first.headers.get('www-authenticate')).toContain('error="use_dpop_nonce"')
    const nonce = first.headers.get('dpop-nonce') as string
    expect(nonce).toMatch(/^[\w-]{43}$/)
    const wrong = await proof(token, 'GET', URL_, { claims: { nonce: 'made-up' } })
    expect((await a.request(URL_, { headers: dpopHeaders(token, wrong) })).status).toBe(401)
    const p = await createDpopProof('GET', URL_, { keyPair: client, accessToken: token, nonce })
    const ok = await a.request(URL_, { headers: dpopHeaders(token, p) })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('dpop-nonce')).toBeNull()
  })
})

describe('jwtAuth dpop: nonce windows', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('accepts the nonce of the previous window and sends the current one; refuses an older one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-12-06T08:00:10Z'))
    const token = await accessToken()
    const a = app({ mode: 'required', nonce: { secret: 's'.repeat(32), lifetimeSeconds: 60 } })
    const ask = await a.request(URL_, { headers: dpopHeaders(token, await proof(token)) })
    const nonce = ask.headers.get('dpop-nonce') as string
    // One window later: the nonce is the previous window's, still good, and a new one comes back.
    vi.setSystemTime(new Date('2026-12-06T08:01:10Z'))
    const p1 = await createDpopProof('GET', URL_, { keyPair: client, accessToken: token, nonce })
    const ok = await a.request(URL_, { headers: dpopHeaders(token, p1) })
    expect(ok.status).toBe(200)
    const next = ok.headers.get('dpop-nonce')
    expect(next).toMatch(/^[\w-]{43}$/)
    expect(next).not.toBe(nonce)
    // Two windows later: too old.
    vi.setSystemTime(new Date('2026-12-06T08:02:10Z'))
    const p2 = await createDpopProof('GET', URL_, { keyPair: client, accessToken: token, nonce })
    const old = await a.request(URL_, { headers: dpopHeaders(token, p2) })
    expect(old.status).toBe(401)
    expect(old.headers.get('www-authenticate')).toContain('error="use_dpop_nonce"')
  })
})

describe('jwtAuth dpop: options', () => {
  it.each([
    [{ mode: 'sometimes' }, /"dpop.mode" must be one of/],
    [{ mode: 'required', algorithms: ['HS256'] }, /"dpop.algorithms" must be one of/],
    [{ mode: 'required', maxAgeSeconds: 0 }, /maxAgeSeconds/],
    [{ mode: 'required', nonceStore: {} }, /NonceStore/],
    [{ mode: 'required', nonce: { secret: 'short' } }, /at least 32 bytes/],
    [{ mode: 'required', typo: 1 }, /unknown option "typo"/],
  ])('refuses %j at construction', (dpop, message) => {
    expect(() => jwtAuth({ publicKey: clientJwk, dpop: dpop as DpopOptions })).toThrow(message)
  })

  it('refuses a cookie with dpop "required" (a cookie cannot carry a proof-bound token)', () => {
    expect(() => jwtAuth({ publicKey: clientJwk, dpop: 'required', cookie: 'at' })).toThrow(
      /cookie/,
    )
  })
})

describe('normalizeHtu', () => {
  it('ignores query and fragment, and is idempotent, on generated URLs', () => {
    fc.assert(
      fc.property(fc.webUrl(), fc.webQueryParameters(), fc.webFragments(), (url, q, f) => {
        const n = normalizeHtu(url)
        expect(normalizeHtu(`${url.split(/[?#]/)[0]}?${q}#${f}`)).toBe(
          normalizeHtu(url.split(/[?#]/)[0] as string),
        )
        if (n !== null) expect(normalizeHtu(n)).toBe(n)
      }),
      { numRuns: 2000 },
    )
  })

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const n = normalizeHtu(text)
        expect(n === null || /^https?:\/\//.test(n)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['https://A.Example:443/p?q#f', 'https://a.example/p'],
    ['http://a.example:80', 'http://a.example/'],
    ['http://a.example:8080/%7euser/%2f', 'http://a.example:8080/~user/%2F'],
    ['ftp://a.example/', null],
    ['/relative', null],
  ])('%s → %s', (input, expected) => {
    expect(normalizeHtu(input)).toBe(expected)
  })
})

describe('jwtAuth dpop: self-description', () => {
  it('documents the DPoP scheme (RFC 9449), the DPoP request header and the 401 answers', () => {
    const d = getMiddlewareDescription(
      jwtAuth({ publicKey: clientJwk, dpop: { mode: 'required', nonce: {} } }),
    )
    expect(d?.security).toEqual([
      [
        expect.objectContaining({
          name: 'dpopAuth',
          scheme: expect.objectContaining({ type: 'http', scheme: 'DPoP' }),
        }),
      ],
    ])
    expect(d?.security?.[0]?.[0]?.scheme.description).toContain('RFC 9449')
    expect(d?.requestHeaders).toEqual([expect.objectContaining({ name: 'DPoP', required: true })])
    const unauthorized = d?.responses?.find((r) => r.status === 401)
    expect(unauthorized?.codes).toEqual(
      expect.arrayContaining(['invalid_dpop_proof', 'use_dpop_nonce', 'token_invalid']),
    )
    expect(unauthorized?.headers?.map((h) => h.name)).toEqual(['WWW-Authenticate', 'DPoP-Nonce'])
    expect(d?.responses?.some((r) => r.codes?.includes('store_unavailable'))).toBe(false)
  })

  it('offers Bearer and DPoP as alternatives with "allowed", and neither DPoP answer without dpop', () => {
    const allowed = getMiddlewareDescription(jwtAuth({ publicKey: clientJwk, dpop: 'allowed' }))
    expect(allowed?.security?.map((s) => s[0]?.name)).toEqual(['bearerAuth', 'dpopAuth'])
    expect(allowed?.requestHeaders?.[0]?.required).toBe(false)
    const plain = getMiddlewareDescription(jwtAuth({ publicKey: clientJwk }))
    expect(plain?.requestHeaders).toBeUndefined()
    expect(plain?.responses?.flatMap((r) => r.codes ?? [])).not.toContain('invalid_dpop_proof')
  })
})
