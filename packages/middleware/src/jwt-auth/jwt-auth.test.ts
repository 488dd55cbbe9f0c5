import { Hono } from 'hono'
import { generateKeyPair, base64url as joseB64, SignJWT } from 'jose'
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { paddedCookies } from '../../test/padded-cookies'
import { installDecisions } from '../internal/outcomes/decisions'
import { type JWTPayload, type JwtAuthOptions, jwtAuth, signJwt } from './index'
import { VERIFIED_TOKEN_CACHE_SIZE } from './verifier'

/** 64 bytes: long enough for HS512, the largest hash output (RFC 7518 §3.2). */
const SECRET = 'a-test-secret-that-is-at-least-64-bytes-long-for-hs512-0123456789'
const enc = (value: unknown) => joseB64.encode(JSON.stringify(value))
/** A token as issuers mint them: with an `exp` (a day away unless `options` say otherwise). */
const sign = (...[payload, key, options]: Parameters<typeof signJwt>) =>
  signJwt(payload, key, { expiresIn: '1d', ...options })

function appWith(options: Partial<JwtAuthOptions> = {}) {
  const app = new Hono()
  app.use('/p/*', jwtAuth({ secret: SECRET, ...options }))
  app.get('/p/me', (c) => c.json(c.get('jwtPayload')))
  return app
}

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } })

async function expectInvalidToken(res: Response, realm = 'api') {
  expect(res.status).toBe(401)
  expect(await res.text()).toBe('Unauthorized')
  expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="${realm}", error="invalid_token"`)
}

afterEach(() => {
  vi.useRealTimers()
})

describe('jwtAuth: accepted tokens', () => {
  it('puts the verified payload in the context as jwtPayload', async () => {
    const token = await sign({ sub: 'u1', role: 'admin' }, SECRET, { expiresIn: '2h' })
    const res = await appWith().request('/p/me', bearer(token))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ sub: 'u1', role: 'admin' })
  })

  it('types jwtPayload in the context as a jose JWTPayload', async () => {
    const app = new Hono()
    app.use(jwtAuth({ secret: SECRET }))
    app.get('/', (c) => {
      const payload = c.get('jwtPayload')
      expectTypeOf(payload).toEqualTypeOf<JWTPayload>()
      expectTypeOf(payload.sub).toEqualTypeOf<string | undefined>()
      return c.text(String(payload.sub))
    })
    const token = await sign({ sub: 'u2' }, SECRET)
    expect(await (await app.request('/', bearer(token))).text()).toBe('u2')
  })

  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts the scheme spelled %s', async (s) => {
    const token = await sign({ sub: 'u1' }, SECRET)
    const res = await appWith().request('/p/me', { headers: { Authorization: `${s} ${token}` } })
    expect(res.status).toBe(200)
  })

  it('accepts a Uint8Array secret shared by signer and verifier', async () => {
    const secret = new TextEncoder().encode(SECRET)
    const token = await sign({ sub: 'u1' }, secret)
    const app = new Hono()
    app.use(jwtAuth({ secret }))
    app.get('/', (c) => c.text(String(c.get('jwtPayload').sub)))
    const res = await app.request('/', bearer(token))
    expect(await res.text()).toBe('u1')
  })

  it('copies a Uint8Array secret, so mutating it later changes nothing', async () => {
    const secret = new TextEncoder().encode(SECRET)
    const token = await sign({ sub: 'u1' }, SECRET)
    const app = new Hono()
    app.use(jwtAuth({ secret }))
    app.get('/', (c) => c.text('ok'))
    secret.fill(0)
    expect((await app.request('/', bearer(token))).status).toBe(200)
  })

  it.each(['HS384', 'HS512'] as const)('accepts %s when it is in algorithms', async (alg) => {
    const token = await sign({ sub: 'u1' }, SECRET, { algorithm: alg })
    const app = appWith({ algorithms: ['HS256', 'HS384', 'HS512'] })
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
  })

  it('reads the token from the named cookie when no Authorization header is sent', async () => {
    const token = await sign({ sub: 'cookie-user' }, SECRET)
    const res = await appWith({ cookie: 'auth' }).request('/p/me', {
      headers: { Cookie: `other=1; auth=${token}` },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ sub: 'cookie-user' })
  })

  it('prefers the Authorization header over the cookie', async () => {
    const good = await sign({ sub: 'header' }, SECRET)
    const res = await appWith({ cookie: 'auth' }).request('/p/me', {
      headers: { Authorization: `Bearer ${good}`, Cookie: 'auth=garbage' },
    })
    expect(await res.json()).toMatchObject({ sub: 'header' })
  })

  it('falls back to the cookie when Authorization uses another scheme', async () => {
    const token = await sign({ sub: 'c' }, SECRET)
    const res = await appWith({ cookie: 'auth' }).request('/p/me', {
      headers: { Authorization: 'Basic dXNlcjpwYXNz', Cookie: `auth=${token}` },
    })
    expect(res.status).toBe(200)
  })

  it('rejects a tampered cookie token as invalid_token', async () => {
    const token = await sign({ sub: 'user', role: 'user' }, SECRET)
    const [h, , sig] = token.split('.')
    const forged = `${h}.${enc({ sub: 'user', role: 'admin' })}.${sig}`
    const res = await appWith({ cookie: 'auth' }).request('/p/me', {
      headers: { Cookie: `auth=${forged}` },
    })
    await expectInvalidToken(res)
  })

  it('ignores the cookie unless the cookie option names it', async () => {
    const token = await sign({ sub: 'c' }, SECRET)
    const res = await appWith().request('/p/me', { headers: { Cookie: `auth=${token}` } })
    expect(res.status).toBe(401)
  })

  it('checks issuer and audience when configured', async () => {
    const app = appWith({ issuer: 'palisade', audience: ['web', 'mobile'] })
    const ok = await sign({ sub: 'u' }, SECRET, { issuer: 'palisade', audience: 'web' })
    expect((await app.request('/p/me', bearer(ok))).status).toBe(200)
    const wrongIss = await sign({ sub: 'u' }, SECRET, { issuer: 'evil', audience: 'web' })
    await expectInvalidToken(await app.request('/p/me', bearer(wrongIss)))
    const wrongAud = await sign({ sub: 'u' }, SECRET, { issuer: 'palisade', audience: 'x' })
    await expectInvalidToken(await app.request('/p/me', bearer(wrongAud)))
    const none = await sign({ sub: 'u' }, SECRET)
    await expectInvalidToken(await app.request('/p/me', bearer(none)))
  })

  it('refuses a token without iss when issuer is set, whatever else fits', async () => {
    const app = appWith({ issuer: 'palisade', audience: 'web' })
    const ok = await sign({ sub: 'u' }, SECRET, { issuer: 'palisade', audience: 'web' })
    expect((await app.request('/p/me', bearer(ok))).status).toBe(200)
    // Same audience, same key, no iss at all: refused.
    const noIss = await sign({ sub: 'u' }, SECRET, { audience: 'web' })
    await expectInvalidToken(await app.request('/p/me', bearer(noIss)))
    // iss present but not a string naming the issuer: null, a list holding it, an empty string.
    for (const iss of [null, ['palisade'], '']) {
      const token = await sign({ sub: 'u', iss } as never, SECRET, { audience: 'web' })
      await expectInvalidToken(
        await appWith({ issuer: 'palisade' }).request('/p/me', bearer(token)),
      )
    }
  })

  it('refuses a token without typ when typ is required (jose agrees)', async () => {
    const { jwtVerify } = await import('jose')
    const key = new TextEncoder().encode(SECRET)
    const exp = Math.floor(Date.now() / 1000) + 3600
    // Built with jose, without any typ header (signJwt always sets one).
    const noTyp = await new SignJWT({ sub: 'u', exp })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key)
    const atJwt = await new SignJWT({ sub: 'u', exp })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .sign(key)
    await expect(jwtVerify(noTyp, key, { typ: 'at+jwt' })).rejects.toThrow(/typ/)
    for (const typ of ['at+jwt', 'JWT']) {
      const app = appWith({ typ })
      await expectInvalidToken(await app.request('/p/me', bearer(noTyp)))
    }
    expect((await appWith({ typ: 'at+jwt' }).request('/p/me', bearer(atJwt))).status).toBe(200)
    // Not required: a token without typ is fine.
    expect((await appWith().request('/p/me', bearer(noTyp))).status).toBe(200)
  })

  it('uses the realm option in the challenge', async () => {
    const res = await appWith({ realm: 'admin area' }).request('/p/me', bearer('x.y.z'))
    await expectInvalidToken(res, 'admin area')
  })
})

describe('jwtAuth: missing or malformed credentials', () => {
  it('answers 401 with a bare challenge when no token is sent', async () => {
    const res = await appWith().request('/p/me')
    expect(res.status).toBe(401)
    expect(await res.text()).toBe('Unauthorized')
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"')
  })

  it('treats another scheme as no token', async () => {
    const res = await appWith().request('/p/me', { headers: { Authorization: 'Basic abc' } })
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"')
  })

  it('treats an empty cookie as no token', async () => {
    const res = await appWith({ cookie: 'auth' }).request('/p/me', {
      headers: { Cookie: 'auth=' },
    })
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"')
  })

  it.each([
    ['no token after the scheme', 'Bearer'],
    ['three parts', 'Bearer a.b.c extra'],
    ['a token split by a space', 'Bearer abc def'],
  ])('rejects an Authorization header with %s as invalid_request', async (_, header) => {
    const res = await appWith().request('/p/me', { headers: { Authorization: header } })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_request"')
  })
})

describe('jwtAuth: attacks and broken tokens', () => {
  const header = (h: Record<string, unknown>) => enc(h)
  const payload = enc({ sub: 'attacker', role: 'admin' })

  it.each(['none', 'None', 'NONE', 'nOnE'])(
    'rejects alg %s with an empty signature',
    async (alg) => {
      for (const token of [
        `${header({ alg, typ: 'JWT' })}.${payload}.`,
        `${header({ alg })}.${payload}`,
      ]) {
        await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
      }
    },
  )

  it('rejects a token signed with HS512 when only HS256 is allowed', async () => {
    const token = await sign({ sub: 'u' }, SECRET, { algorithm: 'HS512' })
    await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
  })

  it('rejects an HS256 token relabelled as HS512 even when both are allowed', async () => {
    const token = await sign({ sub: 'u' }, SECRET)
    const [, body, sig] = token.split('.')
    const relabelled = `${header({ alg: 'HS512', typ: 'JWT' })}.${body}.${sig}`
    const res = await appWith({ algorithms: ['HS256', 'HS512'] }).request(
      '/p/me',
      bearer(relabelled),
    )
    await expectInvalidToken(res)
  })

  it.each(['RS256', 'ES256', 'EdDSA'] as const)('rejects a token signed with %s', async (alg) => {
    const { privateKey } = await generateKeyPair(alg)
    const token = await new SignJWT({ sub: 'u' }).setProtectedHeader({ alg }).sign(privateKey)
    await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
  })

  it('rejects an RS256-labelled token MACed with the secret (algorithm confusion)', async () => {
    const good = await sign({ sub: 'u' }, SECRET)
    const [, body, sig] = good.split('.')
    const forged = `${header({ alg: 'RS256', typ: 'JWT' })}.${body}.${sig}`
    await expectInvalidToken(await appWith().request('/p/me', bearer(forged)))
  })

  it('rejects a token signed with another secret', async () => {
    const token = await sign({ sub: 'u' }, 'another-secret-entirely-of-decent-length-0123456789')
    await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
  })

  it('rejects a tampered payload with the original signature', async () => {
    const token = await sign({ sub: 'user', role: 'user' }, SECRET)
    const [h, , s] = token.split('.')
    await expectInvalidToken(await appWith().request('/p/me', bearer(`${h}.${payload}.${s}`)))
  })

  it('rejects a tampered signature', async () => {
    const token = await sign({ sub: 'user' }, SECRET)
    const last = token.at(-2) === 'A' ? 'B' : 'A'
    const tampered = `${token.slice(0, -2)}${last}${token.at(-1)}`
    await expectInvalidToken(await appWith().request('/p/me', bearer(tampered)))
  })

  it('rejects a token whose signature was stripped', async () => {
    const token = await sign({ sub: 'user' }, SECRET)
    const stripped = token.slice(0, token.lastIndexOf('.') + 1)
    await expectInvalidToken(await appWith().request('/p/me', bearer(stripped)))
  })

  it.each([
    ['two segments', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0'],
    ['four segments', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln.extra'],
    ['one segment', 'eyJhbGciOiJIUzI1NiJ9'],
    ['empty segments', '..'],
    ['invalid base64url', '@@@.###.$$$'],
    ['padding and plus signs', 'eyJh+GciOiJIUzI1NiJ9==.eyJzdWIiOiJ1In0.c2ln'],
    ['a non-JSON header', `${joseB64.encode('not json')}.${enc({ sub: 'u' })}.c2ln`],
    ['a JSON array header', `${enc(['HS256'])}.${enc({ sub: 'u' })}.c2ln`],
    ['a non-JSON payload', `${enc({ alg: 'HS256' })}.${joseB64.encode('{')}.c2ln`],
    ['a header without alg', `${enc({ typ: 'JWT' })}.${enc({ sub: 'u' })}.c2ln`],
    ['latin-1 garbage', 'ünï.cödé.ÿÿ'],
  ])('rejects a token with %s as 401, never 500', async (_, token) => {
    await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
  })

  it('rejects a 10 KB token before parsing it', async () => {
    const big = await sign({ sub: 'u', pad: 'x'.repeat(10 * 1024) }, SECRET)
    expect(big.length).toBeGreaterThan(10_000)
    await expectInvalidToken(await appWith().request('/p/me', bearer(big)))
  })

  it('accepts a token just under the 8 KB cap', async () => {
    const token = await sign({ sub: 'u', pad: 'x'.repeat(5800) }, SECRET)
    expect(token.length).toBeLessThanOrEqual(8192)
    expect((await appWith().request('/p/me', bearer(token))).status).toBe(200)
  })

  it.each([
    [
      'a crit extension it does not understand',
      { alg: 'HS256', crit: ['x-custom'], 'x-custom': 1 },
    ],
    ['an unencoded payload (b64: false)', { alg: 'HS256', crit: ['b64'], b64: false }],
  ])('rejects a correctly signed token with %s', async (_, protectedHeader) => {
    const { FlattenedSign } = await import('jose')
    const key = new TextEncoder().encode(SECRET)
    const jws = await new FlattenedSign(new TextEncoder().encode(JSON.stringify({ sub: 'u' })))
      .setProtectedHeader(protectedHeader)
      .sign(key, { crit: { 'x-custom': true } })
    const token = `${jws.protected}.${jws.payload}.${jws.signature}`
    await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
  })

  it('rejects an expired token and honours clockTolerance', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    const token = await sign({ sub: 'u' }, SECRET, { expiresIn: 60 })
    vi.setSystemTime(new Date('2026-01-01T00:01:05Z'))
    await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
    const tolerant = appWith({ clockTolerance: 10 })
    expect((await tolerant.request('/p/me', bearer(token))).status).toBe(200)
  })

  it('rejects a token that is not valid yet (nbf)', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    const token = await sign({ sub: 'u' }, SECRET, { notBefore: '1h' })
    await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
    vi.setSystemTime(new Date('2026-01-01T01:00:01Z'))
    expect((await appWith().request('/p/me', bearer(token))).status).toBe(200)
  })

  it('does not run the handler for a rejected token', async () => {
    const handler = vi.fn((c) => c.text('ok'))
    const app = new Hono()
    app.use(jwtAuth({ secret: SECRET }))
    app.get('/', handler)
    await app.request('/', bearer('bad.token.here'))
    expect(handler).not.toHaveBeenCalled()
  })

  it('lets app.onError reshape the rejection', async () => {
    const app = appWith()
    app.onError((err, c) => c.json({ error: err.message }, 401))
    const res = await app.request('/p/me')
    expect(await res.json()).toEqual({ error: 'Unauthorized' })
  })
})

describe('jwtAuth: cache of verified tokens', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  const T0 = new Date('2026-01-01T00:00:00Z')
  const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000)

  it('verifies a returning token once: later requests run no WebCrypto verify', async () => {
    const app = appWith()
    const token = await sign({ sub: 'u1' }, SECRET, { expiresIn: '1h' })
    const verify = vi.spyOn(crypto.subtle, 'verify')
    for (let i = 0; i < 3; i++) {
      const res = await app.request('/p/me', bearer(token))
      expect(await res.json()).toMatchObject({ sub: 'u1' })
    }
    expect(verify).toHaveBeenCalledTimes(1)
  })

  it('checks scopes on a remembered token too: a token short of one is refused every time', async () => {
    const app = appWith({ scopes: ['read:items', 'write:items'] })
    const short = await sign({ sub: 'u', scope: 'read:items' }, SECRET)
    const full = await sign({ sub: 'u', scope: 'read:items write:items' }, SECRET)
    const verify = vi.spyOn(crypto.subtle, 'verify')
    for (let i = 0; i < 3; i++) {
      const refused = await app.request('/p/me', bearer(short))
      expect(refused.status, `request ${i}`).toBe(403)
      expect(refused.headers.get('www-authenticate')).toBe(
        'Bearer realm="api", error="insufficient_scope", scope="read:items write:items"',
      )
      expect((await app.request('/p/me', bearer(full))).status, `request ${i}`).toBe(200)
    }
    // Both were remembered after their first verify: the later refusals came from memory.
    expect(verify).toHaveBeenCalledTimes(2)
  })

  it('records its allow decision for a remembered token as for a fresh one', async () => {
    const decisions: unknown[] = []
    const app = new Hono()
    app.use('*', async (c, next) => {
      const record = installDecisions(c)
      await next()
      decisions.push(record.decisions.map((d) => [d.middleware, d.outcome]))
    })
    app.use('/p/*', jwtAuth({ secret: SECRET }))
    app.get('/p/me', (c) => c.json(c.get('jwtPayload')))
    const token = await sign({ sub: 'u' }, SECRET)
    for (let i = 0; i < 2; i++) expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    expect(decisions).toEqual([[['jwtAuth', 'allow']], [['jwtAuth', 'allow']]])
  })

  it('rejects a remembered token once exp has passed', async () => {
    vi.useFakeTimers({ now: T0 })
    const app = appWith()
    const token = await sign({ sub: 'u' }, SECRET, { expiresIn: 60 })
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(at(59))
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(at(60))
    await expectInvalidToken(await app.request('/p/me', bearer(token)))
  })

  it('applies clockTolerance to a remembered token exactly as jose does', async () => {
    vi.useFakeTimers({ now: T0 })
    const app = appWith({ clockTolerance: 10 })
    const token = await sign({ sub: 'u' }, SECRET, { expiresIn: 60 })
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(at(69))
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(at(70))
    await expectInvalidToken(await app.request('/p/me', bearer(token)))
  })

  it('compares a fractional exp against the real time, not the time floored to the second', async () => {
    vi.useFakeTimers({ now: at(10.5) })
    const app = appWith()
    const fractional = (exp: number) =>
      new SignJWT({ sub: 'u' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(SECRET))
    // exp passed 90 ms ago: floored, the current second (10) would still be before it.
    const expired = await fractional(T0.getTime() / 1000 + 10.41)
    await expectInvalidToken(await app.request('/p/me', bearer(expired)))
    // The same token remembered while valid is rejected once its fractional exp passes.
    const soon = await fractional(T0.getTime() / 1000 + 10.6)
    expect((await app.request('/p/me', bearer(soon))).status).toBe(200)
    vi.setSystemTime(at(10.7))
    await expectInvalidToken(await app.request('/p/me', bearer(soon)))
  })

  it('rejects a remembered token when the clock moves back before nbf', async () => {
    vi.useFakeTimers({ now: at(120) })
    const app = appWith({ clockTolerance: 5 })
    const token = await new SignJWT({ sub: 'u' })
      .setProtectedHeader({ alg: 'HS256' })
      .setNotBefore(Math.floor(at(100).getTime() / 1000))
      .setExpirationTime(Math.floor(at(3600).getTime() / 1000))
      .sign(new TextEncoder().encode(SECRET))
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(at(95))
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(at(94))
    await expectInvalidToken(await app.request('/p/me', bearer(token)))
  })

  it('never serves a tampered token from the cache of its valid twin', async () => {
    const app = appWith()
    const token = await sign({ sub: 'u1', role: 'user' }, SECRET, { expiresIn: '1h' })
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const claims = JSON.parse(new TextDecoder().decode(joseB64.decode(payload)))
    // The first character: every one of its 6 bits is signature (the last one carries 2 unused
    // bits, and jose accepts such non-canonical spellings of the same signature).
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`
    for (const bad of [
      `${header}.${enc({ ...claims, role: 'admin' })}.${signature}`,
      `${header}.${payload}.${flipped}`,
      `${header}.${payload}.${signature.slice(0, -1)}`,
      `${header}.${payload}.${signature}A`,
      `${header}.${payload}.`,
      `${enc({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    ]) {
      await expectInvalidToken(await app.request('/p/me', bearer(bad)))
    }
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
  })

  it('refuses a resent forged token from memory: one verify, however often it comes', async () => {
    const app = appWith()
    const forged = await sign({ sub: 'u1' }, 'another-secret-that-is-at-least-32-bytes')
    const verify = vi.spyOn(crypto.subtle, 'verify')
    for (let i = 0; i < 5; i++) await expectInvalidToken(await app.request('/p/me', bearer(forged)))
    expect(verify).toHaveBeenCalledTimes(1)
    // The valid twin of a refused token is its own string: verified, and accepted.
    const token = await sign({ sub: 'u1' }, SECRET)
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
  })

  it('refuses a remembered token whose exp passed without verifying it again', async () => {
    vi.useFakeTimers({ now: T0 })
    const app = appWith()
    const token = await sign({ sub: 'u' }, SECRET, { expiresIn: 60 })
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(at(61))
    const verify = vi.spyOn(crypto.subtle, 'verify')
    for (let i = 0; i < 3; i++) await expectInvalidToken(await app.request('/p/me', bearer(token)))
    expect(verify).not.toHaveBeenCalled()
  })

  it('remembers no refusal that time can lift: a token before its nbf passes once nbf comes', async () => {
    vi.useFakeTimers({ now: T0 })
    const app = appWith()
    const token = await sign({ sub: 'u' }, SECRET, { notBefore: 60, expiresIn: 3600 })
    for (let i = 0; i < 2; i++) await expectInvalidToken(await app.request('/p/me', bearer(token)))
    vi.setSystemTime(at(61))
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
  })

  it('keeps refused tokens apart: a flood of forged tokens evicts no verified one', async () => {
    const app = appWith()
    const token = await sign({ sub: 'u1' }, SECRET)
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    const forged = (i: number) => sign({ sub: `x${i}` }, 'another-secret-that-is-at-least-32-bytes')
    for (let i = 0; i <= VERIFIED_TOKEN_CACHE_SIZE; i++) {
      await expectInvalidToken(await app.request('/p/me', bearer(await forged(i))))
    }
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    expect(verify).not.toHaveBeenCalled()
  })

  it('refuses a token that borrows a remembered token’s signature, and keeps that one remembered', async () => {
    const app = appWith()
    const token = await sign({ sub: 'u1' }, SECRET)
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    const [header, , signature] = token.split('.')
    const borrowed = `${header}.${enc({ sub: 'admin', exp: 4_102_444_800 })}.${signature}`
    for (let i = 0; i < 2; i++)
      await expectInvalidToken(await app.request('/p/me', bearer(borrowed)))
    const verify = vi.spyOn(crypto.subtle, 'verify')
    const res = await app.request('/p/me', bearer(token))
    expect(res.status).toBe(200)
    expect((await res.json()).sub).toBe('u1')
    expect(verify).not.toHaveBeenCalled()
  })

  it('refuses a token whose signature differs from a remembered one only before its last 16 characters', async () => {
    // The cache files a token under its last characters (tailKey): a twin that shares them is a
    // lookup that finds the valid token's entry, and must count as a miss.
    const app = appWith()
    const token = await sign({ sub: 'u1' }, SECRET)
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const i = signature.length - 17
    const swapped = `${signature.slice(0, i)}${signature[i] === 'A' ? 'B' : 'A'}${signature.slice(i + 1)}`
    expect(swapped.slice(-16)).toBe(signature.slice(-16))
    for (const bad of [
      `${header}.${payload}.${swapped}`,
      `${header}.${enc({ sub: 'admin', exp: 4_102_444_800 })}.${signature}`,
      `x${token}`,
    ]) {
      for (let n = 0; n < 2; n++) await expectInvalidToken(await app.request('/p/me', bearer(bad)))
    }
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await (await app.request('/p/me', bearer(token))).json()).toMatchObject({ sub: 'u1' })
    expect(verify).not.toHaveBeenCalled()
  })

  it.each([
    ['a second part', (t: string) => `Bearer ${t} extra`],
    ['a tab and a second part', (t: string) => `Bearer ${t}\tx`],
    ['a run of spaces and a second part', (t: string) => `Bearer ${t}   x`],
  ])('answers invalid_request for a remembered token with %s after it', async (_, header) => {
    // The remembered path looks the token up before any whitespace check: the header's text
    // after the scheme is never a remembered token unless it is one exactly.
    const app = appWith()
    const token = await sign({ sub: 'u1' }, SECRET)
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    const res = await app.request('/p/me', { headers: { Authorization: header(token) } })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_request"')
  })

  it('serves a remembered token under any case of the scheme, and after a run of spaces', async () => {
    const app = appWith()
    const token = await sign({ sub: 'u1' }, SECRET)
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    const verify = vi.spyOn(crypto.subtle, 'verify')
    for (const header of [
      `bEARER ${token}`,
      `BEARER ${token}`,
      `Bearer   ${token}`,
      ` Bearer ${token} `,
    ]) {
      const res = await app.request('/p/me', { headers: { Authorization: header } })
      expect(await res.json()).toMatchObject({ sub: 'u1' })
    }
    expect(verify).not.toHaveBeenCalled()
  })

  it('hands each request its own payload object', async () => {
    const app = new Hono()
    app.use(jwtAuth({ secret: SECRET }))
    app.get('/', (c) => {
      const payload = c.get('jwtPayload')
      const before = payload.role
      payload.role = 'admin'
      return c.text(String(before))
    })
    const token = await sign({ sub: 'u1', role: 'user' }, SECRET)
    expect(await (await app.request('/', bearer(token))).text()).toBe('user')
    expect(await (await app.request('/', bearer(token))).text()).toBe('user')
  })

  it('hands every request a fresh copy of a remembered payload, nested objects included', async () => {
    const app = new Hono()
    app.use(jwtAuth({ secret: SECRET }))
    app.get('/', (c) => {
      const payload = c.get('jwtPayload') as JWTPayload & {
        roles: string[]
        org: { id: number; name: string }
      }
      const seen = JSON.stringify(payload)
      // A careless handler: it edits what it was given, at every level.
      payload.sub = 'admin'
      payload.roles.push('admin')
      payload.org.id = 0
      delete (payload as { role?: unknown }).role
      return c.text(seen)
    })
    const token = await sign(
      { sub: 'u1', role: 'user', roles: ['user'], org: { id: 7, name: 'o' } },
      SECRET,
    )
    const answers: string[] = []
    for (let i = 0; i < 4; i++) answers.push(await (await app.request('/', bearer(token))).text())
    const first = JSON.parse(answers[0] as string)
    expect(first).toMatchObject({ sub: 'u1', role: 'user', roles: ['user'], org: { id: 7 } })
    // The first request verified the token, the others came from memory: all saw the same.
    expect(new Set(answers).size).toBe(1)
  })

  it(`remembers at most ${VERIFIED_TOKEN_CACHE_SIZE} tokens per middleware`, async () => {
    const app = appWith()
    const tokens: string[] = []
    for (let i = 0; i <= VERIFIED_TOKEN_CACHE_SIZE; i++) {
      tokens.push(await sign({ sub: `u${i}` }, SECRET))
    }
    for (const token of tokens) await app.request('/p/me', bearer(token))
    const verify = vi.spyOn(crypto.subtle, 'verify')
    for (const token of tokens.slice(1)) await app.request('/p/me', bearer(token))
    expect(verify).toHaveBeenCalledTimes(0)
    expect((await app.request('/p/me', bearer(tokens[0] as string))).status).toBe(200)
    expect(verify).toHaveBeenCalledTimes(1)
  })

  it('keeps the cache per middleware: another secret or audience verifies for itself', async () => {
    const token = await sign({ sub: 'u1', aud: 'a' }, SECRET)
    expect((await appWith().request('/p/me', bearer(token))).status).toBe(200)
    await expectInvalidToken(
      await appWith({ secret: 'x'.repeat(32) }).request('/p/me', bearer(token)),
    )
    await expectInvalidToken(await appWith({ audience: 'b' }).request('/p/me', bearer(token)))
  })
})

describe('jwtAuth: key import', () => {
  it('imports the HMAC key once per factory, not per request', async () => {
    const spy = vi.spyOn(crypto.subtle, 'importKey')
    const app = appWith()
    const token = await sign({ sub: 'u' }, SECRET)
    spy.mockClear()
    for (let i = 0; i < 5; i++) await app.request('/p/me', bearer(token))
    expect(spy).toHaveBeenCalledTimes(1)
    spy.mockRestore()
  })

  it('imports nothing at construction', () => {
    const spy = vi.spyOn(crypto.subtle, 'importKey')
    jwtAuth({ secret: SECRET, algorithms: ['HS256', 'HS512'] })
    expect(spy).not.toHaveBeenCalled()
    spy.mockRestore()
  })
})

describe('jwtAuth: options', () => {
  it.each([
    ['no options', undefined, /"secret" is required/],
    ['a missing secret', {}, /"secret" must be a Uint8Array or a string/],
    [
      'a secret read from an unset environment variable',
      { secret: undefined },
      /"secret" is undefined \(an unset environment variable\?\)/,
    ],
    ['an empty string secret', { secret: '' }, /must not be empty/],
    ['an empty Uint8Array secret', { secret: new Uint8Array() }, /must not be empty/],
    ['a number secret', { secret: 42 }, /Uint8Array or a string/],
    ['an asymmetric algorithm', { secret: SECRET, algorithms: ['RS256'] }, /HMAC only/],
    ['alg none', { secret: SECRET, algorithms: ['none'] }, /HMAC only/],
    ['a lowercase algorithm', { secret: SECRET, algorithms: ['hs256'] }, /HMAC only/],
    ['empty algorithms', { secret: SECRET, algorithms: [] }, /must not be empty/],
    ['an unknown option', { secret: SECRET, algorithm: 'HS256' }, /unknown option "algorithm"/],
    ['a bad cookie name', { secret: SECRET, cookie: 'a b' }, /cookie name/],
    ['a realm with a quote', { secret: SECRET, realm: 'a"b' }, /realm/],
    ['a negative clockTolerance', { secret: SECRET, clockTolerance: -1 }, /clockTolerance/],
    ['an empty issuer', { secret: SECRET, issuer: '' }, /issuer/],
    ['an empty audience list', { secret: SECRET, audience: [] }, /audience/],
    ['a 5-byte secret', { secret: 'short' }, /at least 32 bytes .*got 5/],
    ['a 31-byte secret', { secret: 'x'.repeat(31) }, /at least 32 bytes/],
    ['a 31-byte Uint8Array', { secret: new Uint8Array(31) }, /at least 32 bytes/],
    [
      'a 32-byte secret for HS384',
      { secret: 'x'.repeat(32), algorithms: ['HS384'] },
      /at least 48 bytes/,
    ],
    [
      'a 48-byte secret when HS512 is allowed too',
      { secret: 'x'.repeat(48), algorithms: ['HS256', 'HS512'] },
      /at least 64 bytes/,
    ],
    ['a clockTolerance above 5 minutes', { secret: SECRET, clockTolerance: 301 }, /at most 300/],
    ['an infinite clockTolerance', { secret: SECRET, clockTolerance: Infinity }, /clockTolerance/],
    ['a non-boolean requireExp', { secret: SECRET, requireExp: 'yes' }, /requireExp/],
    ['a zero maxTokenAge', { secret: SECRET, maxTokenAge: 0 }, /maxTokenAge/],
    ['a string maxTokenAge', { secret: SECRET, maxTokenAge: '1h' }, /maxTokenAge/],
  ])('throws a TypeError at construction for %s', (_, options, message) => {
    expect(() => jwtAuth(options as unknown as JwtAuthOptions)).toThrow(TypeError)
    expect(() => jwtAuth(options as unknown as JwtAuthOptions)).toThrow(message)
  })

  it('never echoes the secret in an error message', () => {
    expect(() =>
      jwtAuth({ secret: 'super-secret-value-0123456789abcdef', algorithms: ['RS256' as 'HS256'] }),
    ).toThrow(/^jwtAuth: (?!.*super-secret-value)/)
  })
})

/** Signs a payload given as raw JSON text, so it can hold what JSON.stringify never writes. */
async function signRawPayload(json: string): Promise<string> {
  const header = enc({ alg: 'HS256', typ: 'JWT' })
  const body = joseB64.encode(json)
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${header}.${body}`))
  return `${header}.${body}.${joseB64.encode(new Uint8Array(mac))}`
}

describe('jwtAuth: time claims must be finite numbers', () => {
  const now = () => Math.floor(Date.now() / 1000)

  it('accepts a correctly signed raw payload (the helper signs like signJwt)', async () => {
    const token = await signRawPayload(`{"sub":"u","exp":${now() + 60},"iat":${now()}}`)
    expect((await appWith().request('/p/me', bearer(token))).status).toBe(200)
  })

  it.each([
    ['exp: 1e400 (Infinity after JSON.parse)', () => '{"sub":"u","exp":1e400}'],
    ['nbf: -1e400 (-Infinity)', () => '{"sub":"u","nbf":-1e400}'],
    ['iat: -1e400 (-Infinity)', () => '{"sub":"u","iat":-1e400}'],
    ['exp as a string', () => `{"sub":"u","exp":"${now() + 60}"}`],
    ['nbf as a string', () => '{"sub":"u","nbf":"0"}'],
    ['iat as a string', () => `{"sub":"u","iat":"${now()}"}`],
    ['exp: null', () => '{"sub":"u","exp":null}'],
    ['exp as an array', () => `{"sub":"u","exp":[${now() + 60}]}`],
    ['exp as an object', () => '{"sub":"u","exp":{"valueOf":1}}'],
    ['exp: true', () => '{"sub":"u","exp":true}'],
  ])('rejects %s', async (_, payload) => {
    const token = await signRawPayload(payload())
    await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
  })

  it('rejects Infinity exp also when the same token is presented again (nothing cached)', async () => {
    const token = await signRawPayload('{"sub":"u","exp":1e400}')
    const app = appWith()
    await expectInvalidToken(await app.request('/p/me', bearer(token)))
    await expectInvalidToken(await app.request('/p/me', bearer(token)))
  })
})

describe('jwtAuth: iat, requireExp and maxTokenAge', () => {
  const T0 = new Date('2026-01-01T00:00:00Z')
  const t0 = T0.getTime() / 1000

  it('rejects a token issued in the future (iat beyond clockTolerance)', async () => {
    vi.useFakeTimers({ now: T0 })
    const token = await signRawPayload(`{"sub":"u","iat":${t0 + 60},"exp":${t0 + 3600}}`)
    await expectInvalidToken(await appWith().request('/p/me', bearer(token)))
    await expectInvalidToken(await appWith({ clockTolerance: 59 }).request('/p/me', bearer(token)))
    expect((await appWith({ clockTolerance: 60 }).request('/p/me', bearer(token))).status).toBe(200)
  })

  it('accepts iat equal to now and in the past', async () => {
    vi.useFakeTimers({ now: T0 })
    for (const iat of [t0, t0 - 86_400]) {
      const token = await signRawPayload(`{"sub":"u","iat":${iat},"exp":${t0 + 3600}}`)
      expect((await appWith().request('/p/me', bearer(token))).status).toBe(200)
    }
  })

  it('re-checks a future iat on a remembered token when the clock moves back', async () => {
    vi.useFakeTimers({ now: T0 })
    const app = appWith()
    const token = await sign({ sub: 'u' }, SECRET)
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(new Date(T0.getTime() - 10_000))
    await expectInvalidToken(await app.request('/p/me', bearer(token)))
  })

  it('refuses a token without exp by default, with a 401 that names the missing claim', async () => {
    const noExp = await signJwt({ sub: 'u' }, SECRET, { expiresIn: false })
    for (const app of [appWith(), appWith({ requireExp: true })]) {
      const res = await app.request('/p/me', bearer(noExp))
      expect(res.status).toBe(401)
      expect(await res.text()).toBe(
        'The token has no exp (expiration time) claim, which is required',
      )
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="api", error="invalid_token", error_description="The token has no exp (expiration time) claim, which is required"',
      )
      const withExp = await signJwt({ sub: 'u' }, SECRET, { expiresIn: '1h' })
      expect((await app.request('/p/me', bearer(withExp))).status).toBe(200)
    }
  })

  it('names the missing exp for a cookie token too, and only for a validly signed one', async () => {
    const app = new Hono()
    app.use('/p/*', jwtAuth({ secret: SECRET, cookie: 'jwt' }))
    app.get('/p/me', (c) => c.text('ok'))
    const noExp = await signJwt({ sub: 'u' }, SECRET, { expiresIn: false })
    const res = await app.request('/p/me', { headers: { Cookie: `jwt=${noExp}` } })
    expect(res.status).toBe(401)
    expect(await res.text()).toMatch(/no exp/)
    // Signed with another key: the usual answer, nothing about its claims.
    const forged = await signJwt({ sub: 'u' }, 'another-secret-that-is-at-least-32-bytes', {
      expiresIn: false,
    })
    await expectInvalidToken(await appWith().request('/p/me', bearer(forged)))
  })

  it('requireExp: false accepts a token that never expires, as before', async () => {
    const noExp = await signJwt({ sub: 'u' }, SECRET, { expiresIn: false })
    expect((await appWith({ requireExp: false }).request('/p/me', bearer(noExp))).status).toBe(200)
  })

  it('maxTokenAge rejects tokens older than the limit, also when remembered', async () => {
    vi.useFakeTimers({ now: T0 })
    const app = appWith({ maxTokenAge: 600 })
    const token = await sign({ sub: 'u' }, SECRET)
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(new Date(T0.getTime() + 600_000))
    expect((await app.request('/p/me', bearer(token))).status).toBe(200)
    vi.setSystemTime(new Date(T0.getTime() + 601_000))
    await expectInvalidToken(await app.request('/p/me', bearer(token)))
    // a fresh app (no cache) agrees
    await expectInvalidToken(await appWith({ maxTokenAge: 600 }).request('/p/me', bearer(token)))
  })

  it('maxTokenAge rejects a token without iat', async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600
    const token = await signRawPayload(`{"sub":"u","exp":${exp}}`)
    expect((await appWith().request('/p/me', bearer(token))).status).toBe(200)
    await expectInvalidToken(await appWith({ maxTokenAge: 60 }).request('/p/me', bearer(token)))
  })

  it('accepts clockTolerance up to 300 seconds', () => {
    expect(() => jwtAuth({ secret: SECRET, clockTolerance: 300 })).not.toThrow()
  })
})

describe('jwtAuth and signJwt: secret length (RFC 7518 §3.2)', () => {
  it.each([
    ['HS256', 32],
    ['HS384', 48],
    ['HS512', 64],
  ] as const)('%s accepts exactly %i bytes and refuses one fewer', async (alg, bytes) => {
    expect(() => jwtAuth({ secret: 'k'.repeat(bytes), algorithms: [alg] })).not.toThrow()
    expect(() => jwtAuth({ secret: 'k'.repeat(bytes - 1), algorithms: [alg] })).toThrow(
      new RegExp(`^jwtAuth: "secret" must be at least ${bytes} bytes`),
    )
    await expect(signJwt({}, 'k'.repeat(bytes), { algorithm: alg })).resolves.toBeTypeOf('string')
    await expect(signJwt({}, 'k'.repeat(bytes - 1), { algorithm: alg })).rejects.toThrow(
      new RegExp(`^signJwt: "secret" must be at least ${bytes} bytes`),
    )
  })

  it('counts UTF-8 bytes of a string secret, not characters', () => {
    // 16 × "é" is 16 characters but 32 bytes
    expect(() => jwtAuth({ secret: 'é'.repeat(16) })).not.toThrow()
    expect(() => jwtAuth({ secret: 'é'.repeat(15) })).toThrow(/at least 32 bytes/)
  })
})

describe('jwtAuth: duplicate token cookies (cookie tossing)', () => {
  const app = () => appWith({ cookie: 'token' })
  const withCookie = (cookie: string) => ({ headers: { Cookie: cookie } })

  it('a junk copy placed first does not lock the user out', async () => {
    const mine = await sign({ sub: 'alice' }, SECRET)
    for (const junk of ['junk', 'a.b.c', `${mine.slice(0, -2)}xx`]) {
      const res = await app().request('/p/me', withCookie(`token=${junk}; token=${mine}`))
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ sub: 'alice' })
    }
  })

  it('a valid foreign token placed first is not adopted over the user own: neither is', async () => {
    const mine = await sign({ sub: 'alice' }, SECRET)
    const attacker = await sign({ sub: 'mallory' }, SECRET, { expiresIn: '1h' })
    await expectInvalidToken(
      await app().request('/p/me', withCookie(`token=${attacker}; token=${mine}`)),
    )
  })

  it('the same token sent twice is not an ambiguity', async () => {
    const mine = await sign({ sub: 'alice' }, SECRET)
    const res = await app().request('/p/me', withCookie(`token=${mine}; token=${mine}`))
    expect(res.status).toBe(200)
  })

  // Padding: junk copies (planted at other paths, sent in path order) hiding the user's copy.
  const padded = (n: number, at: number, planted: string[]) =>
    paddedCookies('token', n, at, planted)

  it.each([5, 50, 500])(
    'never accepts an attacker token hidden among %i copies, wherever it sits',
    async (n) => {
      const mine = await sign({ sub: 'alice' }, SECRET)
      const attacker = await sign({ sub: 'mallory' }, SECRET, { expiresIn: '1h' })
      for (const at of [0, 1, 3, Math.floor(n / 2), n - 2]) {
        await expectInvalidToken(
          await app().request('/p/me', withCookie(padded(n, at, [attacker, mine]))),
        )
        await expectInvalidToken(
          await app().request(
            '/p/me',
            withCookie(`${padded(n - 1, at, [attacker])}; token=${mine}`),
          ),
        )
      }
    },
  )

  it('reads all of up to 8 copies; more is ambiguous (401 invalid_token)', async () => {
    const mine = await sign({ sub: 'alice' }, SECRET)
    expect((await app().request('/p/me', withCookie(padded(5, 4, [mine])))).status).toBe(200)
    expect((await app().request('/p/me', withCookie(padded(8, 7, [mine])))).status).toBe(200)
    await expectInvalidToken(await app().request('/p/me', withCookie(padded(50, 49, [mine]))))
    await expectInvalidToken(await app().request('/p/me', withCookie(padded(500, 0, [mine]))))
  })

  it('only junk copies: 401 invalid_token', async () => {
    await expectInvalidToken(await app().request('/p/me', withCookie('token=a; token=b')))
  })
})
