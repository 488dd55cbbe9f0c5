// jwtAuth's request path at its edges (issue 37, point 7): each answer's status, code, message and
// challenge, in the Bearer and the DPoP scheme; the remembered-token fast path giving the answers
// of the full path (payload, scopes, decisions); the scopes a token grants; the cookie's copies;
// the 503 of an unreachable key set.
import { Context, Hono, type MiddlewareHandler } from 'hono'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { spyOnNext } from '../../test/next-spy'
import { withRejectionCode } from '../../test/rejection-code'
import { type Decision, installDecisions } from '../internal/outcomes/decisions'
import { accessTokenHash } from './dpop'
import { type JwtAuthOptions, jwtAuth } from './jwt-auth'
import { tokenScopes } from './request'
import { signJwt } from './sign-jwt'
import { MAX_TOKEN_LENGTH } from './verifier'

const SECRET = 'a-test-secret-that-is-at-least-64-bytes-long-for-hs512-0123456789'
const BEARER = 'Bearer realm="api"'
const DPOP = 'DPoP realm="api", algs="ES256 EdDSA PS256 RS256"'
const NO_EXP = 'The token has no exp (expiration time) claim, which is required'

/** An app whose answers show the rejection's code (`x-code`) and whose decisions are kept. */
function appWith(options: Record<string, unknown>, decisions: Decision[][] = []) {
  const app = new Hono()
  app.onError(withRejectionCode)
  app.use('*', async (c, next) => {
    const record = installDecisions(c)
    await next()
    decisions.push(record.decisions.map((d) => ({ ...d })))
  })
  app.use('/p/*', jwtAuth({ secret: SECRET, ...options } as JwtAuthOptions))
  app.get('/p/*', (c) => c.json({ payload: c.get('jwtPayload'), dpop: c.get('dpop') ?? null }))
  return app
}

async function answer(res: Response) {
  return {
    status: res.status,
    code: res.headers.get('x-code'),
    text: res.status === 200 ? '' : await res.text(),
    challenge: res.headers.get('www-authenticate'),
  }
}

const unauthorized = (challenge: string, code = 'token_invalid', text = 'Unauthorized') => ({
  status: 401,
  code,
  text,
  challenge,
})

const sign = (payload: Record<string, unknown>, options: Parameters<typeof signJwt>[2] = {}) =>
  signJwt(payload, SECRET, { expiresIn: '1h', ...options })

/** A valid token of exactly `length` characters (a padded claim). */
async function tokenOfLength(length: number): Promise<string> {
  for (let pad = Math.floor(length * 0.7); ; pad++) {
    const token = await sign({ sub: 'u', pad: 'x'.repeat(pad) })
    if (token.length === length) return token
    if (token.length > length) throw new Error(`no token of ${length} characters`)
  }
}

describe('tokenScopes', () => {
  it('reads scope and scp, as space-separated strings or arrays, skipping empty parts and non-strings', () => {
    expect(tokenScopes({ scope: ' a  b ', scp: ['c', 5, 'a', ''] as never })).toEqual(
      new Set(['a', 'b', 'c', '']),
    )
    expect(tokenScopes({ scope: ['x', null] as never, scp: 'y  z' })).toEqual(
      new Set(['x', 'y', 'z']),
    )
    expect(tokenScopes({ scope: 5 as never, scp: { a: 1 } as never })).toEqual(new Set())
    expect(tokenScopes({})).toEqual(new Set())
    expect(tokenScopes({ scope: '' })).toEqual(new Set())
  })
})

describe('jwtAuth: the Bearer answers', () => {
  it.each([
    ['no Authorization header', undefined, unauthorized(BEARER, 'token_missing')],
    ['another scheme', 'Basic eDp5', unauthorized(BEARER, 'token_missing')],
    ['Bearer and no token', 'Bearer', unauthorized(`${BEARER}, error="invalid_request"`)],
    ['Bearer and two tokens', 'Bearer a b', unauthorized(`${BEARER}, error="invalid_request"`)],
    ['Bearer and junk', 'Bearer a.b.c', unauthorized(`${BEARER}, error="invalid_token"`)],
    ['DPoP without the dpop option', 'DPoP a.b.c', unauthorized(BEARER, 'token_missing')],
  ])('%s', async (_, authorization, expected) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization }
    expect(await answer(await appWith({}).request('/p/x', { headers }))).toEqual(expected)
  })

  it(`refuses a token over ${MAX_TOKEN_LENGTH} characters unread, also once seen`, async () => {
    const app = appWith({})
    const long = `${await sign({ sub: 'u' })}${'A'.repeat(MAX_TOKEN_LENGTH)}`
    for (let i = 0; i < 2; i++) {
      expect(
        await answer(await app.request('/p/x', { headers: { authorization: `Bearer ${long}` } })),
      ).toEqual(unauthorized(`${BEARER}, error="invalid_token"`))
    }
  })

  it(`takes a token of exactly ${MAX_TOKEN_LENGTH} characters`, async () => {
    const token = await tokenOfLength(MAX_TOKEN_LENGTH)
    const app = appWith({})
    for (let i = 0; i < 2; i++) {
      expect(
        (await app.request('/p/x', { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(200)
    }
  })

  it('a token without exp: 401 naming the claim, in the challenge too', async () => {
    const token = await sign({ sub: 'u' }, { expiresIn: false })
    const res = await appWith({}).request('/p/x', { headers: { authorization: `Bearer ${token}` } })
    expect(await answer(res)).toEqual(
      unauthorized(
        `${BEARER}, error="invalid_token", error_description="${NO_EXP}"`,
        'token_invalid',
        NO_EXP,
      ),
    )
  })

  it('a scope missing: 403 with the scopes asked for, in order', async () => {
    const token = await sign({ scope: 'b' })
    const res = await appWith({ scopes: ['b', 'a:x'] }).request('/p/x', {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(await answer(res)).toEqual({
      status: 403,
      code: 'insufficient_scope',
      text: 'Forbidden',
      challenge: `${BEARER}, error="insufficient_scope", scope="b a:x"`,
    })
  })

  it('takes the scopes from scope and scp together', async () => {
    const token = await sign({ scope: 'a', scp: ['b'] })
    const res = await appWith({ scopes: ['a', 'b'] }).request('/p/x', {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
  })

  it('uses the realm in every challenge', async () => {
    const app = appWith({ realm: 'r 1', scopes: ['s'] })
    expect((await app.request('/p/x')).headers.get('www-authenticate')).toBe('Bearer realm="r 1"')
    const token = await sign({})
    const res = await app.request('/p/x', { headers: { authorization: `Bearer ${token}` } })
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="r 1", error="insufficient_scope", scope="s"',
    )
  })
})

describe('jwtAuth: the remembered token gives the answers of the first verify', () => {
  it('the same payload, status and decision, request after request', async () => {
    const decisions: Decision[][] = []
    const app = appWith({ scopes: ['a'] }, decisions)
    const token = await sign({ sub: 'u', scope: 'a b' })
    const bodies: unknown[] = []
    for (let i = 0; i < 3; i++) {
      const res = await app.request('/p/x', { headers: { authorization: `bearer ${token}` } })
      expect(res.status).toBe(200)
      bodies.push(await res.json())
    }
    expect(bodies[1]).toEqual(bodies[0])
    expect(bodies[2]).toEqual(bodies[0])
    expect((bodies[0] as { payload: { sub: string } }).payload.sub).toBe('u')
    // Decided (and timed) by jwtAuth itself, on the fast path as on the full one.
    const allow = {
      middleware: 'jwtAuth',
      outcome: 'allow',
      code: undefined,
      status: undefined,
      ms: expect.any(Number),
      store: undefined,
    }
    expect(decisions).toEqual([[allow], [allow], [allow]])
  })

  it('a scope missing: 403 every time, with the same challenge', async () => {
    const app = appWith({ scopes: ['a', 'c'] })
    const token = await sign({ scope: 'a b' })
    const seen = []
    for (let i = 0; i < 3; i++) {
      seen.push(
        await answer(await app.request('/p/x', { headers: { authorization: `Bearer ${token}` } })),
      )
    }
    expect(seen[1]).toEqual(seen[0])
    expect(seen[2]).toEqual(seen[0])
    expect(seen[0]?.status).toBe(403)
  })

  it('a refused token: 401 every time', async () => {
    const app = appWith({})
    const token = `${await sign({ sub: 'u' })}x`
    for (let i = 0; i < 3; i++) {
      expect(
        await answer(await app.request('/p/x', { headers: { authorization: `Bearer ${token}` } })),
      ).toEqual(unauthorized(`${BEARER}, error="invalid_token"`))
    }
  })

  it('a remembered token with a header the fast path does not read (two spaces) still passes', async () => {
    const app = appWith({})
    const token = await sign({ sub: 'u' })
    expect(
      (await app.request('/p/x', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200)
    expect(
      (await app.request('/p/x', { headers: { authorization: `Bearer  ${token}` } })).status,
    ).toBe(200)
    expect(
      (await app.request('/p/x', { headers: { authorization: `Bearer ${token} x` } })).status,
    ).toBe(401)
  })
})

describe('jwtAuth: the remembered token costs no promise of its own', () => {
  // The fast path hands next()'s promise back with one `then` (its value, the Context, turned
  // into undefined: forgotten-return.test.ts); the full path is an async function.
  const spy = spyOnNext(Promise.resolve())
  const next = () => spy.promise
  /** The middleware's answer, and whether it took the fast path. */
  const call = (mw: MiddlewareHandler, authorization?: string) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization }
    spy.reset()
    const out = mw(new Context(new Request('http://localhost/p/x', { headers })), next)
    const fast = spy.handedOn(out)
    // A full path that refuses rejects its own promise: caught here.
    if (!fast) out.catch(() => {})
    return { out, fast }
  }

  it('hands next() on with one then for a remembered token that passes, never for anything else', async () => {
    const mw = jwtAuth({ secret: SECRET, scopes: ['a'] })
    const token = await sign({ scope: 'a b' })
    const short = await sign({ scope: 'b' })
    // First sight: verified on the full path (a promise of its own), then from memory.
    await call(mw, `Bearer ${token}`).out
    const remembered = call(mw, `Bearer ${token}`)
    expect(remembered.fast).toBe(true)
    expect(await remembered.out).toBeUndefined()
    expect(call(mw, `bearer ${token}`).fast).toBe(true)
    await call(mw, `Bearer ${short}`).out.catch(() => {})
    expect(call(mw, `Bearer ${short}`).fast).toBe(false)
    expect(call(mw, `Bearer ${token}x`).fast).toBe(false)
    expect(call(mw, 'Bearer a b').fast).toBe(false)
    expect(call(mw, 'Basic eDp5').fast).toBe(false)
    expect(call(mw).fast).toBe(false)
  })

  it(`takes the fast path up to ${MAX_TOKEN_LENGTH} characters`, async () => {
    const mw = jwtAuth({ secret: SECRET })
    const token = await tokenOfLength(MAX_TOKEN_LENGTH)
    await call(mw, `Bearer ${token}`).out
    expect(call(mw, `Bearer ${token}`).fast).toBe(true)
  })

  it('never with dpop, even for an unbound token sent as Bearer', async () => {
    const pair = await generateKeyPair('ES256')
    const mw = jwtAuth({ publicKey: pair.publicKey, dpop: 'allowed' })
    const token = await signJwt({ sub: 'u' }, pair.privateKey)
    await call(mw, `Bearer ${token}`).out
    expect(call(mw, `Bearer ${token}`).fast).toBe(false)
  })
})

describe('jwtAuth: the cookie', () => {
  it('reads no cookie without the option, whatever its name', async () => {
    const token = await sign({ sub: 'u' })
    for (const name of ['undefined', 'token', 'jwt']) {
      const res = await appWith({}).request('/p/x', { headers: { cookie: `${name}=${token}` } })
      expect(await answer(res), name).toEqual(unauthorized(BEARER, 'token_missing'))
    }
  })

  it('a token without exp among the copies is named only when no copy is valid', async () => {
    const app = appWith({ cookie: 'at' })
    const valid = await sign({ sub: 'u' })
    const noExp = await sign({ sub: 'u' }, { expiresIn: false })
    for (const cookie of [`at=${noExp}; at=${valid}`, `at=${valid}; at=${noExp}`]) {
      expect((await app.request('/p/x', { headers: { cookie } })).status, cookie).toBe(200)
    }
    const res = await app.request('/p/x', { headers: { cookie: `at=junk; at=${noExp}` } })
    expect(await answer(res)).toEqual(
      unauthorized(
        `${BEARER}, error="invalid_token", error_description="${NO_EXP}"`,
        'token_invalid',
        NO_EXP,
      ),
    )
  })

  it('empty copies are no token; nine copies are ambiguous', async () => {
    const app = appWith({ cookie: 'at' })
    expect(await answer(await app.request('/p/x', { headers: { cookie: 'at=; at=' } }))).toEqual(
      unauthorized(BEARER, 'token_missing'),
    )
    const valid = await sign({ sub: 'u' })
    const nine = Array.from({ length: 8 }, (_, i) => `at=j${i}`)
      .concat(`at=${valid}`)
      .join('; ')
    expect(await answer(await app.request('/p/x', { headers: { cookie: nine } }))).toEqual(
      unauthorized(`${BEARER}, error="invalid_token"`),
    )
  })
})

describe('jwtAuth: an unreachable key set', () => {
  const down = (async () => new Response('no', { status: 500 })) as typeof fetch

  it.each([
    [1_500, '2'],
    [1_000, '1'],
    [30_000, '30'],
  ])(
    'answers 503 jwks_unavailable with Retry-After from cooldownMs %i',
    async (cooldownMs, retry) => {
      const decisions: Decision[][] = []
      const app = new Hono()
      app.onError(withRejectionCode)
      app.use('*', async (c, next) => {
        const record = installDecisions(c)
        await next()
        decisions.push(record.decisions)
      })
      app.use(
        '*',
        jwtAuth({
          jwks: 'https://keys.example/jwks.json',
          fetch: down,
          jwksCache: { cooldownMs },
          onKeySetError: () => {},
        }),
      )
      app.get('/', (c) => c.text('ok'))
      const { privateKey } = await generateKeyPair('ES256')
      const token = await signJwt({ sub: 'u' }, privateKey, { kid: 'k' })
      const res = await app.request('/', { headers: { authorization: `Bearer ${token}` } })
      expect(res.status).toBe(503)
      expect(res.headers.get('x-code')).toBe('jwks_unavailable')
      expect(await res.text()).toBe('Service Unavailable')
      expect(res.headers.get('retry-after')).toBe(retry)
      expect(res.headers.get('www-authenticate')).toBeNull()
      expect(decisions[0]?.[0]).toMatchObject({
        outcome: 'reject',
        code: 'jwks_unavailable',
        status: 503,
      })
      expect(decisions[0]?.[0]?.cause).toMatch(/keys\.example.*500/)
    },
  )
})

describe('jwtAuth with dpop: which scheme an answer speaks', () => {
  let issuer: CryptoKeyPair
  let client: CryptoKeyPair
  let jkt: string
  let jwk: Record<string, unknown>

  beforeAll(async () => {
    issuer = await generateKeyPair('ES256')
    client = await generateKeyPair('ES256', { extractable: true })
    const { kty, crv, x, y } = await exportJWK(client.publicKey)
    jwk = { kty, crv, x, y }
    jkt = await calculateJwkThumbprint(jwk)
  })

  const token = (claims: Record<string, unknown>, exp = true) => {
    const t = new SignJWT({ sub: 'a', ...claims })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuedAt()
    return (exp ? t.setExpirationTime('10m') : t).sign(issuer.privateKey)
  }
  const proofFor = (t: string) =>
    new SignJWT({
      htm: 'GET',
      htu: 'http://localhost/p/x',
      ath: accessTokenHash(t),
      jti: crypto.randomUUID(),
      iat: Math.floor(Date.now() / 1000),
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk } as never)
      .sign(client.privateKey)
  const app = (options: Record<string, unknown>, decisions?: Decision[][]) =>
    appWith({ secret: undefined, publicKey: issuer.publicKey, ...options }, decisions)

  it('a DPoP token without exp: 401 naming the claim, in the DPoP challenge', async () => {
    const t = await token({ cnf: { jkt } }, false)
    const res = await app({ dpop: 'allowed' }).request('/p/x', {
      headers: { authorization: `DPoP ${t}`, dpop: await proofFor(t) },
    })
    expect(await answer(res)).toEqual(
      unauthorized(
        `${DPOP}, error="invalid_token", error_description="${NO_EXP}"`,
        'token_invalid',
        NO_EXP,
      ),
    )
  })

  it('a DPoP token short of a scope: 403 in the DPoP challenge', async () => {
    const t = await token({ cnf: { jkt }, scope: 'a' })
    const res = await app({ dpop: 'required', scopes: ['a', 'b'] }).request('/p/x', {
      headers: { authorization: `DPoP ${t}`, dpop: await proofFor(t) },
    })
    expect(await answer(res)).toEqual({
      status: 403,
      code: 'insufficient_scope',
      text: 'Forbidden',
      challenge: `${DPOP}, error="insufficient_scope", scope="a b"`,
    })
  })

  it('a bound token sent as Bearer is refused as a downgrade before its scopes are read', async () => {
    const t = await token({ cnf: { jkt } })
    const res = await app({ dpop: 'allowed', scopes: ['z'] }).request('/p/x', {
      headers: { authorization: `Bearer ${t}` },
    })
    expect(res.status).toBe(401)
  })

  it('a cookie token is answered as Bearer, whatever other scheme the Authorization header names', async () => {
    const a = app({ dpop: 'allowed', cookie: 'at', scopes: ['s'] })
    for (const authorization of [undefined, 'Basic eDp5']) {
      const headers = (cookie: string): Record<string, string> =>
        authorization === undefined ? { cookie } : { cookie, authorization }
      expect(
        await answer(await a.request('/p/x', { headers: headers('at=a.b.c') })),
        authorization,
      ).toEqual(unauthorized(`${BEARER}, error="invalid_token"`))
      const noScope = await token({})
      expect(
        (await answer(await a.request('/p/x', { headers: headers(`at=${noScope}`) }))).challenge,
      ).toBe(`${BEARER}, error="insufficient_scope", scope="s"`)
      const noExp = await token({ scope: 's' }, false)
      expect(
        (await answer(await a.request('/p/x', { headers: headers(`at=${noExp}`) }))).challenge,
      ).toBe(`${BEARER}, error="invalid_token", error_description="${NO_EXP}"`)
      const ok = await token({ scope: 's' })
      expect((await a.request('/p/x', { headers: headers(`at=${ok}`) })).status).toBe(200)
      // A bound token from the cookie is a downgrade, as in the header.
      const bound = await token({ scope: 's', cnf: { jkt } })
      expect(await answer(await a.request('/p/x', { headers: headers(`at=${bound}`) }))).toEqual(
        unauthorized(
          `${DPOP}, error="invalid_token", error_description="A DPoP-bound token must be sent as DPoP"`,
          'token_invalid',
          'A DPoP-bound token must be sent as DPoP',
        ),
      )
    }
  })

  it('records the replay check as the decision’s store call, the thumbprint for the handler', async () => {
    const decisions: Decision[][] = []
    const t = await token({ cnf: { jkt } })
    const res = await app({ dpop: 'required' }, decisions).request('/p/x', {
      headers: { authorization: `DPoP ${t}`, dpop: await proofFor(t) },
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { dpop: unknown }).dpop).toEqual({ jkt })
    expect(decisions[0]?.[0]).toMatchObject({ middleware: 'jwtAuth', outcome: 'allow' })
    expect(decisions[0]?.[0]?.store).toEqual({ op: 'claim', ms: expect.any(Number) })
  })

  it('"required": another scheme is no token (401 token_missing, the DPoP challenge)', async () => {
    const res = await app({ dpop: 'required' }).request('/p/x', {
      headers: { authorization: 'Basic eDp5' },
    })
    expect(await answer(res)).toEqual(unauthorized(DPOP, 'token_missing'))
  })

  it('without dpop, a token bound to a key is an ordinary bearer token', async () => {
    const t = await token({ cnf: { jkt } })
    const res = await appWith({ secret: undefined, publicKey: issuer.publicKey }).request('/p/x', {
      headers: { authorization: `Bearer ${t}` },
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { dpop: unknown }).dpop).toBeNull()
  })

  it('never takes the fast path with dpop: a remembered unbound token sent as DPoP still needs its proof', async () => {
    const t = await token({})
    const a = app({ dpop: 'allowed' })
    expect((await a.request('/p/x', { headers: { authorization: `Bearer ${t}` } })).status).toBe(
      200,
    )
    const res = await a.request('/p/x', { headers: { authorization: `DPoP ${t}` } })
    expect((await answer(res)).code).toBe('invalid_dpop_proof')
  })
})
