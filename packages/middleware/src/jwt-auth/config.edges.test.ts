// jwtAuth's options at their edges (issue 37, point 7): every refused option with its exact
// message, the order in which problems are reported, every default, and the `dpop` option's
// checks and server nonces (dpop-config.ts).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryNonceStore, type NonceStore } from '../internal/stores/nonce-store'
import { type JwtAuthOptions, jwtAuthConfig, MAX_CLOCK_TOLERANCE } from './config'
import { DPOP_DEFAULT_ALGORITHMS, type DpopOptions, dpopConfig } from './dpop-config'
import { jwtAuth } from './jwt-auth'

const SECRET = 'a-test-secret-that-is-at-least-64-bytes-long-for-hs512-0123456789'
const JWKS_URL = 'https://auth.example/jwks.json'
const config = (options: Record<string, unknown>) =>
  jwtAuthConfig({ secret: SECRET, ...options } as JwtAuthOptions)
const refusal = (options: unknown) => {
  try {
    jwtAuthConfig(options as JwtAuthOptions)
  } catch (err) {
    expect(err).toBeInstanceOf(TypeError)
    return (err as Error).message
  }
  return 'accepted'
}

afterEach(() => {
  vi.useRealTimers()
})

describe('jwtAuthConfig: defaults', () => {
  it('fills in every default, frozen, with a secret alone', () => {
    const c = jwtAuthConfig({ secret: SECRET })
    expect(Object.isFrozen(c)).toBe(true)
    expect({ ...c, keys: undefined }).toEqual({
      keys: undefined,
      allowed: new Set(['HS256']),
      cookieName: undefined,
      realm: 'api',
      issuers: undefined,
      audiences: undefined,
      typ: undefined,
      azp: undefined,
      claimChecks: [],
      scopes: [],
      tolerance: 0,
      requireExp: true,
      maxTokenAge: undefined,
      cacheSettings: {
        maxAgeMs: 600_000,
        cooldownMs: 30_000,
        maxStaleMs: 3_600_000,
        timeoutMs: 5_000,
      },
      onKeySetError: undefined,
      dpop: undefined,
    })
    expect(c.keys.algorithms).toEqual(['HS256'])
  })

  it('keeps what each option says, lists as lists', () => {
    const hook = () => {}
    const c = jwtAuthConfig({
      jwks: JWKS_URL,
      algorithms: ['ES256', 'PS256'],
      onKeySetError: hook,
      cookie: 'at',
      realm: 'my realm',
      issuer: 'https://a.example',
      audience: ['x', 'y'],
      typ: 'at+JWT',
      azp: 'client-1',
      claims: { role: 'admin', groups: ['a', 'b'] },
      scopes: ['read:items', 'write'],
      clockTolerance: MAX_CLOCK_TOLERANCE,
      requireExp: false,
      maxTokenAge: 1,
      jwksCache: { cooldownMs: 1_500 },
    } as JwtAuthOptions)
    expect(c).toMatchObject({
      cookieName: 'at',
      realm: 'my realm',
      issuers: ['https://a.example'],
      audiences: ['x', 'y'],
      typ: 'application/at+jwt',
      azp: ['client-1'],
      claimChecks: [
        ['role', ['admin']],
        ['groups', ['a', 'b']],
      ],
      scopes: ['read:items', 'write'],
      tolerance: 300,
      requireExp: false,
      maxTokenAge: 1,
      onKeySetError: hook,
    })
    expect(c.allowed).toEqual(new Set(['ES256', 'PS256']))
    expect(c.cacheSettings.cooldownMs).toBe(1_500)
    expect(MAX_CLOCK_TOLERANCE).toBe(300)
  })

  it('copies the scopes: changing the array afterwards changes nothing', () => {
    const scopes = ['a']
    const c = config({ scopes })
    scopes.push('b')
    scopes[0] = 'z'
    expect(c.scopes).toEqual(['a'])
  })

  it('takes an empty scopes list and an empty realm', () => {
    expect(config({ scopes: [] }).scopes).toEqual([])
    expect(config({ realm: '' }).realm).toBe('')
  })
})

describe('jwtAuthConfig: refusals, each with its message', () => {
  it.each([
    [
      'no options',
      undefined,
      'jwtAuth: "secret" is required (or "publicKey", "jwks", "issuer" + "discovery")',
    ],
    [
      'dryRun',
      { secret: SECRET, dryRun: true },
      'jwtAuth: "dryRun" is not available on authentication middleware: a handler must never run without the identity it relies on',
    ],
    [
      'an unknown option',
      { secret: SECRET, scope: ['a'] },
      'jwtAuth: unknown option "scope" (known: secret, publicKey, jwks, discovery, jwksCache, fetch, onKeySetError, typ, azp, scopes, claims, algorithms, cookie, issuer, audience, clockTolerance, realm, requireExp, maxTokenAge, dpop)',
    ],
    [
      'algorithms not a list',
      { secret: SECRET, algorithms: 'HS256' },
      'jwtAuth: "algorithms" must be an array of non-empty strings',
    ],
    [
      'an empty algorithms list',
      { secret: SECRET, algorithms: [] },
      'jwtAuth: "algorithms" must not be empty',
    ],
    [
      'an onKeySetError that is no function',
      { jwks: JWKS_URL, onKeySetError: 'log' },
      'jwtAuth: "onKeySetError" must be a function, got "log"',
    ],
    [
      'a cookie name with a space',
      { secret: SECRET, cookie: 'a b' },
      'jwtAuth: "cookie" must be a valid cookie name (RFC 6265 token)',
    ],
    [
      'a realm that is no string',
      { secret: SECRET, realm: 5 },
      'jwtAuth: "realm" must be printable ASCII without quotes or backslashes',
    ],
    [
      'an empty issuer',
      { secret: SECRET, issuer: '' },
      'jwtAuth: "issuer" must be a non-empty string, got ""',
    ],
    ['an empty issuer list', { secret: SECRET, issuer: [] }, 'jwtAuth: "issuer" must not be empty'],
    [
      'an issuer that is a number',
      { secret: SECRET, issuer: 5 },
      'jwtAuth: "issuer" must be an array of non-empty strings',
    ],
    [
      'an audience list with an empty entry',
      { secret: SECRET, audience: ['a', ''] },
      'jwtAuth: "audience" must be an array of non-empty strings',
    ],
    [
      'an empty typ',
      { secret: SECRET, typ: '' },
      'jwtAuth: "typ" must be a non-empty string, got ""',
    ],
    [
      'a typ list',
      { secret: SECRET, typ: ['JWT'] },
      'jwtAuth: "typ" must be a non-empty string, got an array',
    ],
    ['an empty azp list', { secret: SECRET, azp: [] }, 'jwtAuth: "azp" must not be empty'],
    [
      'claims as a list',
      { secret: SECRET, claims: [['role', 'admin']] },
      'jwtAuth: "claims" must be an object of claim names to values',
    ],
    [
      'claims as null',
      { secret: SECRET, claims: null },
      'jwtAuth: "claims" must be an object of claim names to values',
    ],
    [
      'claims as a string',
      { secret: SECRET, claims: 'role=admin' },
      'jwtAuth: "claims" must be an object of claim names to values',
    ],
    [
      'a claim with an empty value',
      { secret: SECRET, claims: { role: '' } },
      'jwtAuth: "claims.role" must be a non-empty string, got ""',
    ],
    [
      'a claim with an empty list',
      { secret: SECRET, claims: { role: [] } },
      'jwtAuth: "claims.role" must not be empty',
    ],
    [
      'a claim with a number',
      { secret: SECRET, claims: { level: 3 } },
      'jwtAuth: "claims.level" must be an array of non-empty strings',
    ],
    [
      'scopes as a string',
      { secret: SECRET, scopes: 'read write' },
      'jwtAuth: "scopes" must be an array of non-empty strings',
    ],
    [
      'a negative clockTolerance',
      { secret: SECRET, clockTolerance: -1 },
      'jwtAuth: "clockTolerance" must be a non-negative integer, got -1',
    ],
    [
      'a clockTolerance one second too long',
      { secret: SECRET, clockTolerance: 301 },
      'jwtAuth: "clockTolerance" must be at most 300 seconds, got 301',
    ],
    [
      'a fractional clockTolerance',
      { secret: SECRET, clockTolerance: 1.5 },
      'jwtAuth: "clockTolerance" must be a non-negative integer, got 1.5',
    ],
    [
      'a requireExp string',
      { secret: SECRET, requireExp: 'false' },
      'jwtAuth: "requireExp" must be a boolean, got "false"',
    ],
    [
      'a requireExp null',
      { secret: SECRET, requireExp: null },
      'jwtAuth: "requireExp" must be a boolean, got null',
    ],
    [
      'a zero maxTokenAge',
      { secret: SECRET, maxTokenAge: 0 },
      'jwtAuth: "maxTokenAge" must be a positive integer, got 0',
    ],
  ])('refuses %s', (_, options, message) => {
    expect(refusal(options)).toBe(message)
  })

  it.each(['iss', 'aud', 'azp', 'exp', 'nbf', 'iat', 'scope', 'scp'])(
    'refuses the claim %s in "claims": it has an option of its own',
    (name) => {
      expect(refusal({ secret: SECRET, claims: { [name]: 'x' } })).toBe(
        `jwtAuth: "claims.${name}": use the option of that claim instead`,
      )
    },
  )

  it('takes other claims, even ones named like the dedicated ones', () => {
    expect(config({ claims: { sub: 'u', scopes: 'x', Iss: 'y' } }).claimChecks).toEqual([
      ['sub', ['u']],
      ['scopes', ['x']],
      ['Iss', ['y']],
    ])
  })

  it('reports the first problem in a fixed order: the key source (its cache too), request options, claims, times, dpop', () => {
    const bad: Record<string, unknown> = {
      jwks: JWKS_URL,
      jwksCache: { maxAgeMs: -1 },
      onKeySetError: 1,
      cookie: 'a b',
      realm: '"',
      issuer: '',
      audience: '',
      typ: '',
      azp: '',
      claims: [],
      scopes: ['a b'],
      clockTolerance: -1,
      requireExp: 1,
      maxTokenAge: -1,
      dpop: 'sometimes',
    }
    const seen: string[] = []
    for (const name of Object.keys(bad).slice(1)) {
      const message = refusal(bad)
      expect(message, name).toContain(name === 'jwksCache' ? 'maxAgeMs' : name)
      seen.push(name)
      delete bad[name]
    }
    expect(refusal(bad)).toBe('accepted')
    expect(seen).toHaveLength(14)
  })
})

describe('jwtAuthConfig: realm and scope characters', () => {
  it.each([' ', '!', '#', '[', ']', '~', 'api v2', 'a!#[]~'])('takes the realm %j', (realm) => {
    expect(config({ realm }).realm).toBe(realm)
  })

  it.each(['"', '\\', '\x7f', '\x1f', '\t', 'é', 'a"b', '"a', 'a\\'])(
    'refuses the realm %j',
    (realm) => {
      expect(refusal({ secret: SECRET, realm })).toBe(
        'jwtAuth: "realm" must be printable ASCII without quotes or backslashes',
      )
    },
  )

  it.each(['!', '#', '[', ']', '~', 'read:items', 'a.b/c-d_e'])('takes the scope %j', (scope) => {
    expect(config({ scopes: [scope] }).scopes).toEqual([scope])
  })

  it.each([' ', '"', '\\', '\x7f', 'é', 'a b', '"a', 'a"', 'ok\n'])(
    'refuses the scope %j',
    (scope) => {
      expect(refusal({ secret: SECRET, scopes: ['fine', scope] })).toBe(
        `jwtAuth: "scopes" entries must be RFC 6749 scope tokens, got ${JSON.stringify(scope)}`,
      )
    },
  )
})

describe('dpopConfig: the dpop option', () => {
  const dpop = (value: unknown, cookie?: string) => dpopConfig('jwtAuth', value, cookie)
  const dpopRefusal = (value: unknown, cookie?: string) => {
    try {
      dpop(value, cookie)
    } catch (err) {
      expect(err).toBeInstanceOf(TypeError)
      return (err as Error).message
    }
    return 'accepted'
  }

  it('is undefined without the option', () => {
    expect(dpop(undefined)).toBeUndefined()
    expect(config({}).dpop).toBeUndefined()
  })

  it('fills in every default for a mode string, frozen', () => {
    for (const mode of ['required', 'allowed'] as const) {
      const c = dpop(mode)
      expect(Object.isFrozen(c)).toBe(true)
      expect({ ...c, nonceStore: undefined }).toEqual({
        mode,
        nonceStore: undefined,
        storeCanFail: false,
        maxAgeSeconds: 300,
        algorithms: ['ES256', 'EdDSA', 'PS256', 'RS256'],
        allowed: new Set(['ES256', 'EdDSA', 'PS256', 'RS256']),
        nonce: undefined,
        url: undefined,
      })
      expect(c?.nonceStore).toBeInstanceOf(MemoryNonceStore)
    }
    expect(DPOP_DEFAULT_ALGORITHMS).toEqual(['ES256', 'EdDSA', 'PS256', 'RS256'])
    // Each instance has a store of its own.
    expect(dpop('required')?.nonceStore).not.toBe(dpop('required')?.nonceStore)
  })

  it('keeps what the object form says', () => {
    const url = () => 'https://api.example/x'
    const store: NonceStore = { claim: async () => true }
    const c = dpop({
      mode: 'allowed',
      nonceStore: store,
      maxAgeSeconds: 3600,
      algorithms: ['EdDSA', 'RS512'],
      url,
    })
    expect(c).toMatchObject({
      mode: 'allowed',
      maxAgeSeconds: 3600,
      algorithms: ['EdDSA', 'RS512'],
      url,
    })
    expect(c?.nonceStore).toBe(store)
    expect(c?.allowed).toEqual(new Set(['EdDSA', 'RS512']))
    expect(dpop({ mode: 'required', maxAgeSeconds: 1 })?.maxAgeSeconds).toBe(1)
  })

  it('says a store can fail unless it is a memory store', () => {
    expect(dpop({ mode: 'required', nonceStore: { claim: async () => true } })?.storeCanFail).toBe(
      true,
    )
    const memory = new MemoryNonceStore()
    const c = dpop({ mode: 'required', nonceStore: memory })
    expect(c?.storeCanFail).toBe(false)
    expect(c?.nonceStore).toBe(memory)
  })

  it('takes a cookie with "allowed", not with "required"', () => {
    expect(dpop('allowed', 'at')?.mode).toBe('allowed')
    expect(dpop({ mode: 'allowed' }, 'at')?.mode).toBe('allowed')
    const message =
      'jwtAuth: "cookie" cannot carry a DPoP-bound token: with dpop "required" tokens come from Authorization: DPoP only'
    expect(dpopRefusal('required', 'at')).toBe(message)
    expect(refusal({ secret: SECRET, cookie: 'at', dpop: { mode: 'required' } })).toBe(message)
  })

  it.each([
    [5, `jwtAuth: "dpop" must be 'required', 'allowed' or an object`],
    [null, `jwtAuth: "dpop" must be 'required', 'allowed' or an object`],
    [true, `jwtAuth: "dpop" must be 'required', 'allowed' or an object`],
    ['sometimes', `jwtAuth: "dpop.mode" must be one of 'required', 'allowed', got "sometimes"`],
    ['Required', `jwtAuth: "dpop.mode" must be one of 'required', 'allowed', got "Required"`],
    [{}, `jwtAuth: "dpop.mode" must be one of 'required', 'allowed', got undefined`],
    [
      { mode: 'required', typo: 1 },
      'jwtAuth dpop: unknown option "typo" (known: mode, nonceStore, maxAgeSeconds, algorithms, nonce, url)',
    ],
    [
      { mode: 'required', nonceStore: null },
      'jwtAuth: "dpop.nonceStore" must be a NonceStore (with claim(nonce, ttlMs))',
    ],
    [
      { mode: 'required', nonceStore: {} },
      'jwtAuth: "dpop.nonceStore" must be a NonceStore (with claim(nonce, ttlMs))',
    ],
    [
      { mode: 'required', nonceStore: { claim: 'yes' } },
      'jwtAuth: "dpop.nonceStore" must be a NonceStore (with claim(nonce, ttlMs))',
    ],
    [
      { mode: 'required', maxAgeSeconds: 0 },
      'jwtAuth: "dpop.maxAgeSeconds" must be a positive integer, got 0',
    ],
    [
      { mode: 'required', maxAgeSeconds: 3601 },
      'jwtAuth: "dpop.maxAgeSeconds" must be at most 3600, got 3601',
    ],
    [{ mode: 'required', algorithms: [] }, 'jwtAuth: "dpop.algorithms" must not be empty'],
    [
      { mode: 'required', algorithms: 'ES256' },
      'jwtAuth: "dpop.algorithms" must be an array of non-empty strings',
    ],
    [
      { mode: 'required', algorithms: ['ES256', 'HS256'] },
      'jwtAuth: "dpop.algorithms" must be one of RS256/384/512, PS256/384/512, ES256/384/512 or EdDSA with a public key (HMAC needs "secret"), got "HS256"',
    ],
    [
      { mode: 'required', url: 'https://api.example' },
      'jwtAuth: "dpop.url" must be a function, got "https://api.example"',
    ],
    [{ mode: 'required', nonce: null }, 'jwtAuth: "dpop.nonce" must be an object, got null'],
    [{ mode: 'required', nonce: 'n' }, 'jwtAuth: "dpop.nonce" must be an object, got "n"'],
    [
      { mode: 'required', nonce: { lifetime: 60 } },
      'jwtAuth dpop.nonce: unknown option "lifetime" (known: secret, lifetimeSeconds)',
    ],
    [
      { mode: 'required', nonce: { lifetimeSeconds: 0 } },
      'jwtAuth: "dpop.nonce.lifetimeSeconds" must be a positive integer, got 0',
    ],
    [
      { mode: 'required', nonce: { secret: 'x'.repeat(31) } },
      'jwtAuth: "dpop.nonce.secret" must be at least 32 bytes',
    ],
    [
      { mode: 'required', nonce: { secret: new Uint8Array(31) } },
      'jwtAuth: "dpop.nonce.secret" must be at least 32 bytes',
    ],
    [
      { mode: 'required', nonce: { secret: 12345 } },
      'jwtAuth: "dpop.nonce.secret" must be at least 32 bytes',
    ],
  ])('refuses %j', (value, message) => {
    expect(dpopRefusal(value)).toBe(message)
  })

  it('names the factory it is given', () => {
    expect(() => dpopConfig('other', 5, undefined)).toThrow(/^other: "dpop" must be/)
    expect(() => dpopConfig('other', { mode: 'x' }, undefined)).toThrow(/^other: "dpop.mode"/)
    expect(() => dpopConfig('other', { mode: 'required', x: 1 }, undefined)).toThrow(
      /^other dpop: unknown option "x"/,
    )
  })

  it('counts a nonce secret in UTF-8 bytes, and takes 32 bytes', () => {
    expect(dpop({ mode: 'required', nonce: { secret: 'é'.repeat(16) } })?.nonce).toBeDefined()
    expect(dpop({ mode: 'required', nonce: { secret: new Uint8Array(32) } })?.nonce).toBeDefined()
    expect(dpop({ mode: 'required', nonce: { secret: 'x'.repeat(32) } })?.nonce).toBeDefined()
    expect(dpop({ mode: 'required', nonce: {} })?.nonce).toBeDefined()
  })
})

/** The nonce of `window` as RFC 9449 §8 leaves it to the server: base64url(HMAC-SHA-256). */
async function expectedNonce(secret: string, window: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`dpop:${window}`)),
  )
  return btoa(String.fromCharCode(...mac))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

describe('dpopConfig: server nonces', () => {
  const SECRET32 = 'n'.repeat(32)
  const issuer = (nonce: DpopOptions['nonce']) => {
    const n = dpopConfig('jwtAuth', { mode: 'required', nonce }, undefined)?.nonce
    if (n === undefined) throw new Error('no nonce issuer')
    return n
  }

  it('is the HMAC of the window number, windows of lifetimeSeconds', async () => {
    const n = issuer({ secret: SECRET32, lifetimeSeconds: 60 })
    // 60 s windows: 59.999 s is window 0, 60 s window 1, 119.999 s window 1, 120 s window 2.
    expect(await n.current(0)).toBe(await expectedNonce(SECRET32, 0))
    expect(await n.current(59_999)).toBe(await expectedNonce(SECRET32, 0))
    expect(await n.current(60_000)).toBe(await expectedNonce(SECRET32, 1))
    expect(await n.current(119_999)).toBe(await expectedNonce(SECRET32, 1))
    expect(await n.current(120_000)).toBe(await expectedNonce(SECRET32, 2))
    const t = 1_767_225_600_000
    expect(await n.current(t)).toBe(await expectedNonce(SECRET32, Math.floor(t / 60_000)))
  })

  it('uses windows of 300 seconds by default', async () => {
    const n = issuer({ secret: SECRET32 })
    expect(await n.current(299_999)).toBe(await expectedNonce(SECRET32, 0))
    expect(await n.current(300_000)).toBe(await expectedNonce(SECRET32, 1))
  })

  it('takes the secret as bytes too, the same nonces as its text', async () => {
    const text = issuer({ secret: SECRET32 })
    const bytes = issuer({ secret: new TextEncoder().encode(SECRET32) })
    expect(await bytes.current(5_000_000)).toBe(await text.current(5_000_000))
  })

  it('accepts the current and the previous window, not an older or a later one', async () => {
    const n = issuer({ secret: SECRET32, lifetimeSeconds: 10 })
    const now = 1_000_000 // window 100
    const of = (w: number) => expectedNonce(SECRET32, w)
    expect(await n.valid(await of(100), now)).toBe(true)
    expect(await n.valid(await of(99), now)).toBe(true)
    expect(await n.valid(await of(98), now)).toBe(false)
    expect(await n.valid(await of(101), now)).toBe(false)
    expect(await n.valid('', now)).toBe(false)
    // Later, the same nonces age out; asked again for an earlier time, they are computed again.
    expect(await n.valid(await of(100), now + 10_000)).toBe(true)
    expect(await n.valid(await of(100), now + 20_000)).toBe(false)
    expect(await n.valid(await of(98), now - 10_000)).toBe(true)
    expect(await n.current(now - 20_000)).toBe(await of(98))
  })

  it('draws a random secret per instance when none is given', async () => {
    const a = issuer({})
    const b = issuer({})
    expect(await a.current(0)).not.toBe(await b.current(0))
    expect(await a.current(0)).toMatch(/^[\w-]{43}$/)
    expect(await a.current(0)).toBe(await a.current(1))
  })
})

describe('jwtAuth: the config reaches the middleware', () => {
  it('refuses bad options at construction, as jwtAuthConfig does', () => {
    expect(() => jwtAuth({ secret: SECRET, realm: '"' })).toThrow(
      'jwtAuth: "realm" must be printable ASCII without quotes or backslashes',
    )
  })
})

describe('dpopConfig: a nonce secret given as bytes and wiped after construction', () => {
  it('keeps issuing the nonces of the bytes it was given, never those of zeros', async () => {
    const given = new TextEncoder().encode('n'.repeat(32))
    const secret = Buffer.from(given)
    const wiped = dpopConfig('jwtAuth', { mode: 'required', nonce: { secret } }, undefined)
    secret.fill(0)
    const kept = dpopConfig('jwtAuth', { mode: 'required', nonce: { secret: given } }, undefined)
    const zeros = dpopConfig(
      'jwtAuth',
      { mode: 'required', nonce: { secret: new Uint8Array(32) } },
      undefined,
    )
    const now = 1_700_000_000_000
    const nonce = await wiped?.nonce?.current(now)
    expect(nonce).toBe(await kept?.nonce?.current(now))
    expect(nonce).not.toBe(await zeros?.nonce?.current(now))
  })
})
