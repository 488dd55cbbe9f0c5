// verifier.ts at its exact boundaries: each time claim one millisecond either side of the line,
// with and without clockTolerance, the floored time of a fresh token against the real time of a
// remembered one, typ / iss / aud / azp / claims one value at a time, the time claims' types, the
// token length cap to the byte, and what the two caches remember (tokens verified with one of
// several keys that fit included). The jose oracle (jws.jose-oracle.property.test.ts) compares
// random tokens with jose; these pin the lines themselves.
import type { Context } from 'hono'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { jwksServers, signWith, type TestKey, testKey } from '../../test/jwks-server'
import { base64url, importHmacKey } from '../internal/crypto'
import { type JwtAuthOptions, jwtAuthConfig } from './config'
import type { CompactJws } from './jws'
import type { JWTPayload, TimeClaims } from './payload'
import { timeClaims } from './payload'
import {
  claimsValid,
  MAX_TOKEN_LENGTH,
  NO_EXP,
  registeredClaimsValid,
  TokenVerifier,
  timesValid,
} from './verifier'

const SECRET = 'k'.repeat(32)
const config = (options: Partial<JwtAuthOptions> = {}) =>
  jwtAuthConfig({ secret: SECRET, ...options } as JwtAuthOptions)
/** The key source is never asked for a local secret's answer here: no context is needed. */
const c = {} as Context

/** T, a whole second; the clock is set relative to it, in seconds (fractions allowed). */
const T = 1_800_000_000
const clockAt = (seconds: number) => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Math.round((T + seconds) * 1000))
}
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const times = (t: Partial<TimeClaims>): TimeClaims => ({
  exp: undefined,
  nbf: undefined,
  iat: undefined,
  ...t,
})
const jwsWith = (header: Record<string, unknown> = {}) =>
  ({ header: { alg: 'HS256', ...header } }) as unknown as CompactJws

describe('timesValid: the real time, to the millisecond', () => {
  it('accepts a token without time claims', () => {
    clockAt(0)
    expect(timesValid(config(), times({}))).toBe(true)
  })

  it.each([
    [0, 0],
    [5, 5],
  ])('with clockTolerance %i: nbf up to now + %i, exp after now - tolerance', (tol) => {
    clockAt(0)
    const cfg = config({ clockTolerance: tol })
    expect(timesValid(cfg, times({ nbf: T + tol }))).toBe(true)
    expect(timesValid(cfg, times({ nbf: T + tol + 0.001 }))).toBe(false)
    expect(timesValid(cfg, times({ exp: T - tol }))).toBe(false)
    expect(timesValid(cfg, times({ exp: T - tol + 0.001 }))).toBe(true)
    expect(timesValid(cfg, times({ iat: T + tol }))).toBe(true)
    expect(timesValid(cfg, times({ iat: T + tol + 0.001 }))).toBe(false)
  })

  it.each([
    [0, 0],
    [5, 5],
  ])('with clockTolerance %i: maxTokenAge counts from iat, tolerance added', (tol) => {
    clockAt(0)
    const cfg = config({ clockTolerance: tol, maxTokenAge: 60 })
    expect(timesValid(cfg, times({ iat: T - 60 - tol }))).toBe(true)
    expect(timesValid(cfg, times({ iat: T - 60 - tol - 0.001 }))).toBe(false)
    expect(timesValid(cfg, times({ iat: T }))).toBe(true)
    expect(timesValid(cfg, times({}))).toBe(false)
    expect(timesValid(cfg, times({ exp: T + 60, nbf: T }))).toBe(false)
  })

  it('checks every claim: one failing is enough', () => {
    clockAt(0)
    const cfg = config()
    const good = { nbf: T - 1, exp: T + 1, iat: T - 1 }
    expect(timesValid(cfg, times(good))).toBe(true)
    expect(timesValid(cfg, times({ ...good, nbf: T + 1 }))).toBe(false)
    expect(timesValid(cfg, times({ ...good, exp: T - 1 }))).toBe(false)
    expect(timesValid(cfg, times({ ...good, iat: T + 1 }))).toBe(false)
  })
})

describe('registeredClaimsValid: the time floored to the second, as jose floors it', () => {
  it('reads nbf and exp against the second, where the real time says otherwise', () => {
    // The real time is T + 0.5 s; jose compares with T.
    clockAt(0.5)
    const cfg = config()
    const jws = jwsWith()
    // nbf a quarter second after T: not yet for the floored time, already for the real one.
    expect(registeredClaimsValid(cfg, jws, {}, times({ nbf: T + 0.25 }))).toBe(false)
    expect(timesValid(cfg, times({ nbf: T + 0.25 }))).toBe(true)
    expect(registeredClaimsValid(cfg, jws, {}, times({ nbf: T }))).toBe(true)
    // exp a quarter second after T: valid for the floored time, passed for the real one.
    expect(registeredClaimsValid(cfg, jws, {}, times({ exp: T + 0.25 }))).toBe(true)
    expect(timesValid(cfg, times({ exp: T + 0.25 }))).toBe(false)
    expect(registeredClaimsValid(cfg, jws, {}, times({ exp: T }))).toBe(false)
  })

  it.each([0, 5])('with clockTolerance %i: the exact second either side', (tol) => {
    clockAt(0.999)
    const cfg = config({ clockTolerance: tol })
    const ok = (t: Partial<TimeClaims>) => registeredClaimsValid(cfg, jwsWith(), {}, times(t))
    expect(ok({ nbf: T + tol })).toBe(true)
    expect(ok({ nbf: T + tol + 1 })).toBe(false)
    expect(ok({ exp: T - tol })).toBe(false)
    expect(ok({ exp: T - tol + 1 })).toBe(true)
    // Without maxTokenAge a future iat is not this function's concern (timesValid checks it).
    expect(ok({ iat: T + tol + 100 })).toBe(true)
  })

  it.each([0, 5])('with clockTolerance %i: maxTokenAge, past and future iat', (tol) => {
    clockAt(0.5)
    const cfg = config({ clockTolerance: tol, maxTokenAge: 60 })
    const ok = (t: Partial<TimeClaims>) => registeredClaimsValid(cfg, jwsWith(), {}, times(t))
    expect(ok({ iat: T - 60 - tol })).toBe(true)
    expect(ok({ iat: T - 61 - tol })).toBe(false)
    expect(ok({ iat: T + tol })).toBe(true)
    expect(ok({ iat: T + tol + 1 })).toBe(false)
    expect(ok({})).toBe(false)
  })

  it.each([
    ['at+jwt', true],
    ['AT+JWT', true],
    ['application/at+jwt', true],
    ['Application/At+Jwt', true],
    ['jwt', false],
    ['application/jwt', false],
    ['at+jwt ', false],
    ['text/at+jwt', false],
    ['', false],
    [undefined, false],
    [1, false],
    [['at+jwt'], false],
  ])('with typ "at+jwt" required, reads a header typ %j as %s', (typ, expected) => {
    clockAt(0)
    const header = typ === undefined ? {} : { typ }
    expect(registeredClaimsValid(config({ typ: 'at+jwt' }), jwsWith(header), {}, times({}))).toBe(
      expected,
    )
  })

  it('checks no typ unless asked', () => {
    clockAt(0)
    for (const typ of [undefined, 'anything', 3]) {
      expect(registeredClaimsValid(config(), jwsWith({ typ }), {}, times({}))).toBe(true)
    }
  })

  it.each([
    ['https://a', true],
    ['https://b', true],
    ['https://c', false],
    ['https://a/', false],
    [undefined, false],
    [['https://a'], false],
  ])('with issuers a and b, reads iss %j as %s', (iss, expected) => {
    clockAt(0)
    const cfg = config({ issuer: ['https://a', 'https://b'] })
    expect(registeredClaimsValid(cfg, jwsWith(), { iss } as JWTPayload, times({}))).toBe(expected)
  })

  it.each([
    ['api', true],
    ['web', true],
    ['other', false],
    [['other', 'web'], true],
    [['api'], true],
    [['other'], false],
    [[], false],
    [undefined, false],
    [1, false],
    [{ 0: 'api', length: 1 }, false],
    ['api web', false],
  ])('with audiences api and web, reads aud %j as %s', (aud, expected) => {
    clockAt(0)
    const cfg = config({ audience: ['api', 'web'] })
    expect(registeredClaimsValid(cfg, jwsWith(), { aud } as JWTPayload, times({}))).toBe(expected)
  })

  it('checks no iss nor aud unless asked', () => {
    clockAt(0)
    expect(
      registeredClaimsValid(
        config(),
        jwsWith(),
        { iss: 1, aud: 2 } as unknown as JWTPayload,
        times({}),
      ),
    ).toBe(true)
  })
})

describe('claimsValid: azp and the claims rules', () => {
  it.each([
    ['spa', true],
    ['cli', true],
    ['other', false],
    [undefined, false],
    [['spa'], false],
  ])('with azp spa or cli, reads azp %j as %s', (azp, expected) => {
    expect(claimsValid(config({ azp: ['spa', 'cli'] }), { azp } as JWTPayload)).toBe(expected)
  })

  it('needs every claim rule, each to one of its values, as a string', () => {
    const cfg = config({ claims: { token_use: 'access', role: ['admin', 'root'] } })
    expect(claimsValid(cfg, { token_use: 'access', role: 'root' })).toBe(true)
    expect(claimsValid(cfg, { token_use: 'access', role: 'user' })).toBe(false)
    expect(claimsValid(cfg, { token_use: 'id', role: 'admin' })).toBe(false)
    expect(claimsValid(cfg, { role: 'admin' })).toBe(false)
    expect(claimsValid(cfg, { token_use: 'access', role: ['admin'] })).toBe(false)
    expect(claimsValid(cfg, { token_use: ['access'], role: 'admin' })).toBe(false)
  })

  it('checks nothing unless asked', () => {
    expect(claimsValid(config(), { azp: 3, role: [] })).toBe(true)
  })
})

describe('timeClaims: finite numbers or absent', () => {
  it('reads each claim, zero and fractions included', () => {
    expect(timeClaims({})).toEqual({ exp: undefined, nbf: undefined, iat: undefined })
    expect(timeClaims({ exp: 0, nbf: -1, iat: 1.5 })).toEqual({ exp: 0, nbf: -1, iat: 1.5 })
    expect(timeClaims({ exp: 3, sub: 'u' })).toEqual({ exp: 3, nbf: undefined, iat: undefined })
  })

  it.each(['exp', 'nbf', 'iat'])('refuses a %s that is not a finite number', (claim) => {
    for (const value of [
      null,
      '1',
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
      [1],
      true,
    ]) {
      expect(timeClaims({ [claim]: value }), `${claim}: ${String(value)}`).toBeNull()
    }
    // The other claims valid around it change nothing.
    expect(timeClaims({ exp: 1, nbf: 1, iat: 1, [claim]: '1' })).toBeNull()
  })
})

/** An HS256 token over exactly the header and payload texts given. */
async function hs256(header: string, payload: string, secret = SECRET): Promise<string> {
  const key = await importHmacKey(secret, 'SHA-256')
  const input = `${base64url(new TextEncoder().encode(header))}.${base64url(new TextEncoder().encode(payload))}`
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(input)))
  return `${input}.${base64url(mac)}`
}

describe('TokenVerifier', () => {
  const claims = () => {
    const now = Math.floor(Date.now() / 1000)
    return { sub: 'u', iat: now, exp: now + 3600 }
  }

  it(`verifies a token of exactly ${MAX_TOKEN_LENGTH} characters and refuses one longer`, async () => {
    const verifier = new TokenVerifier(config())
    const found = new Map<number, string>()
    for (let pad = 6000; found.size < 2 && pad < 6200; pad++) {
      for (const header of ['{"alg":"HS256"}', '{"alg":"HS256","typ":"JWT"}']) {
        const token = await hs256(header, JSON.stringify({ ...claims(), pad: 'x'.repeat(pad) }))
        if (token.length === MAX_TOKEN_LENGTH || token.length === MAX_TOKEN_LENGTH + 1) {
          found.set(token.length, token)
        }
      }
    }
    const exact = found.get(MAX_TOKEN_LENGTH) as string
    const over = found.get(MAX_TOKEN_LENGTH + 1) as string
    expect(await verifier.verify(exact, c)).toMatchObject({ sub: 'u' })
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await verifier.verify(over, c)).toBeNull()
    expect(await verifier.verifyAnew(over, c)).not.toBeNull()
    // The cap is checked before anything is parsed: verify() ran no WebCrypto for `over`.
    expect(verify).toHaveBeenCalledTimes(1)
  })

  it('remembers a verified token: a copy of its payload each time, no verify', async () => {
    const verifier = new TokenVerifier(config())
    const token = await hs256('{"alg":"HS256"}', JSON.stringify({ ...claims(), nested: { a: 1 } }))
    expect(verifier.remembered(token)).toBeUndefined()
    const first = (await verifier.verify(token, c)) as JWTPayload
    const verify = vi.spyOn(crypto.subtle, 'verify')
    const again = verifier.remembered(token) as JWTPayload
    expect(again).toEqual(first)
    expect(again).not.toBe(first)
    expect(again.nested).not.toBe(first.nested)
    ;(first.nested as { a: number }).a = 2
    expect((verifier.remembered(token) as JWTPayload).nested).toEqual({ a: 1 })
    expect(verify).not.toHaveBeenCalled()
  })

  it('remembers a refused signature, and nothing for a token refused by its claims', async () => {
    const verifier = new TokenVerifier(config({ audience: 'api' }))
    const forged = await hs256(
      '{"alg":"HS256"}',
      JSON.stringify({ ...claims(), aud: 'api' }),
      'z'.repeat(32),
    )
    expect(await verifier.verify(forged, c)).toBeNull()
    expect(verifier.remembered(forged)).toBeNull()
    // Signed well, meant for another audience: refused, and checked again next time.
    const other = await hs256('{"alg":"HS256"}', JSON.stringify({ ...claims(), aud: 'web' }))
    expect(await verifier.verify(other, c)).toBeNull()
    expect(verifier.remembered(other)).toBeUndefined()
    // Refused before any key is asked (not a JWS, alg not allowed): nothing remembered either.
    const hs512 = await hs256('{"alg":"HS512"}', JSON.stringify(claims()))
    expect(await verifier.verify(hs512, c)).toBeNull()
    expect(verifier.remembered(hs512)).toBeUndefined()
  })

  it('answers NO_EXP for a validly signed token without exp, and never remembers it', async () => {
    const verifier = new TokenVerifier(config())
    const token = await hs256('{"alg":"HS256"}', '{"sub":"u"}')
    expect(await verifier.verify(token, c)).toBe(NO_EXP)
    expect(verifier.remembered(token)).toBeUndefined()
    const lax = new TokenVerifier(config({ requireExp: false }))
    expect(await lax.verify(token, c)).toEqual({ sub: 'u' })
    expect(lax.remembered(token)).toEqual({ sub: 'u' })
  })

  it('refuses a token whose times or claims fail, each on its own', async () => {
    const now = Math.floor(Date.now() / 1000)
    const verifier = new TokenVerifier(config({ issuer: 'https://a', azp: 'spa' }))
    const good = { iss: 'https://a', azp: 'spa', iat: now, exp: now + 60 }
    expect(await verifier.verify(await hs256('{"alg":"HS256"}', JSON.stringify(good)), c)).toEqual(
      good,
    )
    for (const bad of [
      { ...good, iss: 'https://b' },
      { ...good, azp: 'cli' },
      { ...good, exp: now - 1 },
      { ...good, iat: now + 60 },
      { ...good, nbf: now + 60 },
      { ...good, exp: '9999999999' },
    ]) {
      const token = await hs256('{"alg":"HS256"}', JSON.stringify(bad))
      expect(await verifier.verify(token, c), JSON.stringify(bad)).toBeNull()
    }
  })
})

describe('TokenVerifier over a JWKS object: a token without kid', () => {
  let a: TestKey
  let b: TestKey
  beforeAll(async () => {
    a = await testKey('ES256', 'a')
    b = await testKey('ES256', 'b')
  })

  it('remembers a token verified with the second of two keys that fit', async () => {
    const verifier = new TokenVerifier(jwtAuthConfig({ jwks: { keys: [a.jwk, b.jwk] } }))
    const token = await signWith(b, { sub: 'u' }, { kid: undefined })
    expect(await verifier.verify(token, c)).toMatchObject({ sub: 'u' })
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(verifier.remembered(token)).toMatchObject({ sub: 'u' })
    expect(await verifier.verify(token, c)).toMatchObject({ sub: 'u' })
    expect(verify).not.toHaveBeenCalled()
  })

  it('remembers a refusal when none of the keys that fit verifies', async () => {
    const verifier = new TokenVerifier(jwtAuthConfig({ jwks: { keys: [a.jwk, b.jwk] } }))
    const attacker = await testKey('ES256', 'a')
    const token = await signWith(attacker, { sub: 'admin' }, { kid: undefined })
    expect(await verifier.verify(token, c)).toBeNull()
    expect(verifier.remembered(token)).toBeNull()
  })

  it('verifies with either of two keys that share a kid', async () => {
    const twin = await testKey('ES256', 'a')
    const verifier = new TokenVerifier(jwtAuthConfig({ jwks: { keys: [a.jwk, twin.jwk] } }))
    for (const key of [a, twin]) {
      expect(await verifier.verify(await signWith(key, { sub: key.kid }), c)).toMatchObject({
        sub: 'a',
      })
    }
    const stranger = await testKey('ES256', 'a')
    expect(await verifier.verify(await signWith(stranger, { sub: 'a' }), c)).toBeNull()
  })

  it('picks the key of the token’s type when a kid is shared by an RSA and an EC key', async () => {
    const rsa = await testKey('RS256', 'a')
    const verifier = new TokenVerifier(jwtAuthConfig({ jwks: { keys: [rsa.jwk, a.jwk] } }))
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await verifier.verify(await signWith(a, { sub: 'ec' }), c)).toMatchObject({ sub: 'ec' })
    expect(await verifier.verify(await signWith(rsa, { sub: 'rsa' }), c)).toMatchObject({
      sub: 'rsa',
    })
    expect(verify).toHaveBeenCalledTimes(2)
  })
})

describe('TokenVerifier over a JWKS URL in an outage (stale keys)', () => {
  const serveJwks = jwksServers()
  /** A loopback JWKS of one ES256 key, a verifier over it, the clock held, warnings caught. */
  async function setUp(jwksCache: NonNullable<JwtAuthOptions['jwksCache']>) {
    const key = await testKey('ES256', 'e')
    const s = await serveJwks([key.jwk])
    const start = Date.now()
    vi.useFakeTimers({ toFake: ['Date'], now: start })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const verifier = new TokenVerifier(jwtAuthConfig({ jwks: s.jwksUrl, jwksCache }))
    return { key, s, start, warn, verifier }
  }

  it('remembers neither a token verified with stale keys nor one refused with them, and warns once in full', async () => {
    const { key, s, start, warn, verifier } = await setUp({
      maxAgeMs: 60_000,
      cooldownMs: 10_000,
      maxStaleMs: 120_000,
    })
    const exp = Math.floor(start / 1000) + 86_400
    const token = await signWith(key, { sub: 'u', exp })
    const forged = await signWith(
      { ...key, privateKey: (await testKey('ES256', 'e')).privateKey },
      { sub: 'u', exp },
    )
    expect(await verifier.verify(token, c)).toMatchObject({ sub: 'u' })
    expect(verifier.remembered(token)).toMatchObject({ sub: 'u' })
    s.mode = 'down'
    vi.setSystemTime(start + 60_000)
    // Past max age the remembered entry no longer counts: the token is checked with stale keys.
    expect(verifier.remembered(token)).toBeUndefined()
    const verify = vi.spyOn(crypto.subtle, 'verify')
    for (let i = 1; i <= 3; i++) {
      expect(await verifier.verify(token, c)).toMatchObject({ sub: 'u' })
      expect(verifier.remembered(token)).toBeUndefined()
      expect(await verifier.verify(forged, c)).toBeNull()
      expect(verifier.remembered(forged)).toBeUndefined()
      expect(verify).toHaveBeenCalledTimes(2 * i)
    }
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toBe(
      `jwtAuth: cannot fetch the key set (${s.jwksUrl} answered 503; only a 200 is accepted); keys already fetched keep verifying up to 120 s past their max age, after that requests get 503 jwks_unavailable. Told once until a fetch succeeds.`,
    )
    // Back, after the cooldown: fresh keys, remembered again, and a new outage warns again.
    s.mode = 'ok'
    vi.setSystemTime(start + 71_000)
    expect(await verifier.verify(token, c)).toMatchObject({ sub: 'u' })
    expect(verifier.remembered(token)).toMatchObject({ sub: 'u' })
    s.mode = 'down'
    vi.setSystemTime(start + 140_000)
    expect(await verifier.verify(token, c)).toMatchObject({ sub: 'u' })
    expect(warn).toHaveBeenCalledTimes(2)
  })

  it('keeps an outage that only refetches meet open while fresh keys serve known kids: told once', async () => {
    const { key, s, start, warn, verifier } = await setUp({ cooldownMs: 1_000 })
    const known = (sub: string) => signWith(key, { sub })
    const unknown = (kid: string) => signWith({ ...key, kid }, { sub: 'u' })
    expect(await verifier.verify(await known('a'), c)).toMatchObject({ sub: 'a' })
    s.mode = 'down'
    vi.setSystemTime(start + 1_000)
    expect(await verifier.verify(await unknown('x'), c)).toBeNull()
    expect(s.fetches).toBe(2)
    expect(warn).toHaveBeenCalledTimes(1)
    // The keys are within their max age: a known kid verifies without a fetch, which ends no
    // outage (no fetch has succeeded since the failed one).
    expect(await verifier.verify(await known('b'), c)).toMatchObject({ sub: 'b' })
    vi.setSystemTime(start + 2_000)
    expect(await verifier.verify(await unknown('y'), c)).toBeNull()
    expect(s.fetches).toBe(3)
    expect(warn).toHaveBeenCalledTimes(1)
    // A fetch that succeeds ends it; the next failure is a new outage, told again.
    s.mode = 'ok'
    vi.setSystemTime(start + 3_000)
    expect(await verifier.verify(await unknown('z'), c)).toBeNull()
    expect(await verifier.verify(await known('c'), c)).toMatchObject({ sub: 'c' })
    s.mode = 'down'
    vi.setSystemTime(start + 4_000)
    expect(await verifier.verify(await unknown('w'), c)).toBeNull()
    expect(warn).toHaveBeenCalledTimes(2)
  })
})
