import { afterEach, describe, expect, it, vi } from 'vitest'
import { hmacSign, importHmacKey } from '../crypto'
import {
  assertSecretList,
  createCookieSigner,
  signingInput,
  VERIFIED_COOKIE_CACHE_SIZE,
} from './cookie-signing'

/** Test secrets, each 32+ characters as assertSecretList requires. */
const S = {
  secret: 'secret-0123456789abcdef0123456789abcdef',
  attacker: 'attacker-0123456789abcdef0123456789abcdef',
  old: 'old-secret-0123456789abcdef0123456789abcdef',
  new: 'new-secret-0123456789abcdef0123456789abcdef',
  s: 's'.repeat(32),
}

describe('createCookieSigner', () => {
  it('signs as <value>.<base64url HMAC-SHA256 of the purpose label and value>', async () => {
    const signer = createCookieSigner([S.secret], 'sessions')
    const signed = await signer.sign('abc')
    const expected = await hmacSign(
      await importHmacKey(S.secret),
      signingInput('sessions', '', 'abc'),
    )
    expect(signed).toBe(`abc.${expected}`)
    expect(signed.split('.')[1]).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('unsigns its own value', async () => {
    const signer = createCookieSigner([S.secret], 'sessions')
    expect(await signer.unsign(await signer.sign('session-id-1'))).toBe('session-id-1')
  })

  it('handles values that contain dots', async () => {
    const signer = createCookieSigner([S.secret], 'sessions')
    expect(await signer.unsign(await signer.sign('a.b.c'))).toBe('a.b.c')
  })

  it('verifies with every secret but signs with the first (rotation)', async () => {
    const oldSigner = createCookieSigner([S.old], 'sessions')
    const rotated = createCookieSigner([S.new, S.old], 'sessions')
    const legacy = await oldSigner.sign('v')
    expect(await rotated.unsign(legacy)).toBe('v')
    const fresh = await rotated.sign('v')
    expect(fresh).toBe(await createCookieSigner([S.new], 'sessions').sign('v'))
    expect(await oldSigner.unsign(fresh)).toBeNull()
  })

  it('signs a value that arrived signed with the first secret to that same string, without an HMAC', async () => {
    const signer = createCookieSigner([S.new, S.old], 'sessions')
    const fresh = await createCookieSigner([S.new], 'sessions').sign('v')
    expect(await signer.unsign(fresh)).toBe('v')
    const sign = vi.spyOn(crypto.subtle, 'sign')
    try {
      expect(await signer.sign('v')).toBe(fresh)
      expect(sign).not.toHaveBeenCalled()
      // Only the exact (context, value) pair is known: another context is signed afresh.
      expect(await signer.sign('v', 'ctx')).toBe(
        await createCookieSigner([S.new], 'sessions').sign('v', 'ctx'),
      )
      expect(sign).toHaveBeenCalled()
    } finally {
      sign.mockRestore()
    }
  })

  it('signs a value that arrived under an older secret with the first one', async () => {
    const signer = createCookieSigner([S.new, S.old], 'sessions')
    const legacy = await createCookieSigner([S.old], 'sessions').sign('v')
    expect(await signer.unsign(legacy)).toBe('v')
    const fresh = await signer.sign('v')
    expect(fresh).not.toBe(legacy)
    expect(fresh).toBe(await createCookieSigner([S.new], 'sessions').sign('v'))
  })

  it('answers remembered() only for a string it verified without a context', async () => {
    const signer = createCookieSigner([S.secret], 'sessions')
    const signed = await signer.sign('v')
    expect(signer.remembered(signed)).toBeUndefined()
    expect(await signer.unsign(signed)).toBe('v')
    expect(signer.remembered(signed)).toBe('v')
    const bound = await signer.sign('w', 'ctx')
    expect(await signer.unsign(bound, 'ctx')).toBe('w')
    expect(signer.remembered(bound)).toBeUndefined()
    expect(await signer.unsign(`${signed.slice(0, -1)}A`)).toBeNull()
    expect(signer.remembered(`${signed.slice(0, -1)}A`)).toBeUndefined()
  })

  it('serves a remembered cookie to that very string only, not to one ending in the same 16 characters', async () => {
    // Verified cookies are filed under their last characters (tailKey); a forgery that shares
    // them finds the valid cookie's entry and must be verified (and refused), not served.
    const signer = createCookieSigner([S.secret], 'sessions')
    const signed = await signer.sign('user1')
    expect(await signer.unsign(signed)).toBe('user1')
    const dot = signed.lastIndexOf('.')
    const i = signed.length - 17
    const twins = [
      `admin${signed.slice(dot)}`,
      `x${signed}`,
      `${signed.slice(0, i)}${signed[i] === 'A' ? 'B' : 'A'}${signed.slice(i + 1)}`,
    ]
    for (const twin of twins) {
      expect(twin.slice(-16)).toBe(signed.slice(-16))
      expect(signer.remembered(twin)).toBeUndefined()
      expect(await signer.unsign(twin)).toBeNull()
      expect(await signer.unsign(twin)).toBeNull()
      expect(signer.remembered(twin)).toBeUndefined()
    }
    // The valid one stays remembered: a lookup, no verify.
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(signer.remembered(signed)).toBe('user1')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(verify).not.toHaveBeenCalled()
    verify.mockRestore()
  })

  it('does not serve a value verified under a context to another context sharing its last characters', async () => {
    const signer = createCookieSigner([S.secret], 'csrf')
    const signed = await signer.sign('token', 'session-a')
    expect(await signer.unsign(signed, 'session-a')).toBe('token')
    expect(await signer.unsign(signed, 'session-b')).toBeNull()
    expect(signer.remembered(signed)).toBeUndefined()
    expect(await signer.unsign(signed)).toBeNull()
    expect(await signer.unsign(signed, 'session-a')).toBe('token')
  })

  it('rejects a value signed with another secret', async () => {
    const signed = await createCookieSigner([S.attacker], 'sessions').sign('admin')
    expect(await createCookieSigner([S.secret], 'sessions').unsign(signed)).toBeNull()
  })

  it('does not import keys at construction', () => {
    // Workers forbid crypto at module scope; an empty secret list would fail on first use only.
    expect(() => createCookieSigner([S.s], 'sessions')).not.toThrow()
  })

  describe('tampering', () => {
    const signer = createCookieSigner([S.secret], 'sessions')

    it.each<[string, (signed: string) => string]>([
      ['a changed value', (s) => s.replace(/^user/, 'admin')],
      ['an appended value part', (s) => s.replace('.', 'x.')],
      ['a flipped signature character', (s) => `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`],
      ['a truncated signature', (s) => s.slice(0, -5)],
      ['an extended signature', (s) => `${s}AAAA`],
      ['a padded signature', (s) => `${s}=`],
      ['the signature of another value', (s) => `other.${s.split('.')[1]}`],
      ['a missing signature', (s) => s.split('.')[0] as string],
      ['an empty signature', (s) => `${s.split('.')[0]}.`],
      ['an empty value', (s) => `.${s.split('.')[1]}`],
      ['an extra dot at the end', (s) => `${s}.`],
      ['no dot at all', () => 'user1'],
      ['an empty string', () => ''],
      ['only a dot', () => '.'],
    ])('rejects %s', async (_, tamper) => {
      const signed = await signer.sign('user1')
      expect(await signer.unsign(tamper(signed))).toBeNull()
    })
  })
})

describe('createCookieSigner: cache of verified cookies', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  const tampered: [string, (signed: string) => string][] = [
    ['a changed value', (s) => s.replace(/^user/, 'admin')],
    ['a flipped signature character', (s) => `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`],
    ['a truncated signature', (s) => s.slice(0, -1)],
    ['an extended signature', (s) => `${s}A`],
    ['a trailing space', (s) => `${s} `],
    ['another case', (s) => s.toUpperCase()],
    ['the signature of another value', (s) => `user2.${s.split('.')[1]}`],
  ]

  it('verifies a returning cookie once: the next unsign is a lookup, not a WebCrypto verify', async () => {
    const signer = createCookieSigner([S.secret], 'sessions')
    const signed = await signer.sign('user1')
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(verify).toHaveBeenCalledTimes(1)
  })

  it('refuses a resent bad cookie from memory: one verify per secret, then a lookup', async () => {
    const signer = createCookieSigner([S.new, S.old], 'sessions')
    const forged = await createCookieSigner([S.attacker], 'sessions').sign('admin')
    const verify = vi.spyOn(crypto.subtle, 'verify')
    for (let i = 0; i < 4; i++) expect(await signer.unsign(forged)).toBeNull()
    expect(verify).toHaveBeenCalledTimes(2)
  })

  it.each(tampered)('still verifies the valid twin after refusing %s', async (_, tamper) => {
    const signer = createCookieSigner([S.secret], 'sessions')
    const signed = await signer.sign('user1')
    expect(await signer.unsign(tamper(signed))).toBeNull()
    expect(await signer.unsign(tamper(signed))).toBeNull()
    expect(await signer.unsign(signed)).toBe('user1')
  })

  it('remembers a refusal for its context only', async () => {
    const signer = createCookieSigner([S.secret], 'csrf')
    const signed = await signer.sign('token', 'session-a')
    expect(await signer.unsign(signed, 'session-b')).toBeNull()
    expect(await signer.unsign(signed, 'session-a')).toBe('token')
    expect(await signer.unsign(signed, 'session-b')).toBeNull()
  })

  it('keeps refusals apart: a flood of bad cookies evicts no verified one', async () => {
    const signer = createCookieSigner([S.secret], 'sessions')
    const attacker = createCookieSigner([S.attacker], 'sessions')
    const signed = await signer.sign('user1')
    expect(await signer.unsign(signed)).toBe('user1')
    for (let i = 0; i <= VERIFIED_COOKIE_CACHE_SIZE; i++) {
      expect(await signer.unsign(await attacker.sign(`x${i}`))).toBeNull()
    }
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(verify).not.toHaveBeenCalled()
  })

  it.each(tampered)('rejects %s after the valid twin was remembered', async (_, tamper) => {
    const signer = createCookieSigner([S.secret], 'sessions')
    const signed = await signer.sign('user1')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(await signer.unsign(tamper(signed))).toBeNull()
    expect(await signer.unsign(signed)).toBe('user1')
  })

  it(`remembers at most ${VERIFIED_COOKIE_CACHE_SIZE} cookies, evicting the least recently used`, async () => {
    const signer = createCookieSigner([S.secret], 'sessions')
    const signed: string[] = []
    for (let i = 0; i <= VERIFIED_COOKIE_CACHE_SIZE; i++) signed.push(await signer.sign(`v${i}`))
    for (const s of signed) await signer.unsign(s)
    const verify = vi.spyOn(crypto.subtle, 'verify')
    // The newest 1,000 are remembered; the first one was evicted and is verified again.
    for (const s of signed.slice(1)) await signer.unsign(s)
    expect(verify).toHaveBeenCalledTimes(0)
    expect(await signer.unsign(signed[0] as string)).toBe('v0')
    expect(verify).toHaveBeenCalledTimes(1)
  })

  it('keeps the cache per signer: rotating to a new secret list does not inherit it', async () => {
    const oldSigner = createCookieSigner([S.old], 'sessions')
    const legacy = await oldSigner.sign('v')
    expect(await oldSigner.unsign(legacy)).toBe('v')
    expect(await createCookieSigner([S.new], 'sessions').unsign(legacy)).toBeNull()
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await createCookieSigner([S.new, S.old], 'sessions').unsign(legacy)).toBe('v')
    expect(verify).toHaveBeenCalled()
  })
})

describe('assertSecretList', () => {
  it('turns one secret into a list and copies a list', () => {
    expect(assertSecretList('f', S.secret)).toEqual([S.secret])
    const list = [S.new, S.old]
    const out = assertSecretList('f', list)
    expect(out).toEqual([S.new, S.old])
    expect(out).not.toBe(list)
  })

  it.each([[''], [[]], [['a', '']], [[1]], [null], [undefined]])(
    'throws a factory-named TypeError for %j',
    (value) => {
      expect(() => assertSecretList('sessions', value)).toThrow(
        /^sessions: "secret" must be a non-empty string or a list of them$/,
      )
    },
  )
})

describe('assertSecretList: length (RFC 7518 §3.2: at least the 32-byte HMAC-SHA256 output)', () => {
  it.each([['a'], ['x'.repeat(31)], [[S.secret, 'short']]])('refuses %j', (value) => {
    expect(() => assertSecretList('csrf', value)).toThrow(
      /^csrf: "secret" must be at least 32 characters/,
    )
  })

  it('accepts exactly 32 characters', () => {
    expect(assertSecretList('csrf', 'x'.repeat(32))).toEqual(['x'.repeat(32)])
  })
})

describe('createCookieSigner: purposes and contexts', () => {
  it('never verifies a value signed for sessions as csrf, with one shared secret (and back)', async () => {
    const sessionsSigner = createCookieSigner([S.secret], 'sessions')
    const csrfSigner = createCookieSigner([S.secret], 'csrf')
    const sid = await sessionsSigner.sign('session-id')
    const token = await csrfSigner.sign('random-token')
    expect(await csrfSigner.unsign(sid)).toBeNull()
    expect(await sessionsSigner.unsign(token)).toBeNull()
    expect(await sessionsSigner.unsign(sid)).toBe('session-id')
    expect(await csrfSigner.unsign(token)).toBe('random-token')
  })

  it('a cached success for one purpose does not leak to the other', async () => {
    const sessionsSigner = createCookieSigner([S.secret], 'sessions')
    const sid = await sessionsSigner.sign('v')
    expect(await sessionsSigner.unsign(sid)).toBe('v')
    expect(await createCookieSigner([S.secret], 'csrf').unsign(sid)).toBeNull()
  })

  it('binds a value to its context: another context (or none) does not verify', async () => {
    const signer = createCookieSigner([S.secret], 'csrf')
    const bound = await signer.sign('tok', 'session-A')
    expect(await signer.unsign(bound, 'session-A')).toBe('tok')
    expect(await signer.unsign(bound, 'session-B')).toBeNull()
    expect(await signer.unsign(bound)).toBeNull()
    // and the cache of the successful pair does not serve another context
    expect(await signer.unsign(bound, 'session-A')).toBe('tok')
    expect(await signer.unsign(bound, 'session-B')).toBeNull()
  })

  it('cannot be confused by moving characters between context and value', async () => {
    const signer = createCookieSigner([S.secret], 'csrf')
    const signed = await signer.sign('b', 'a\n')
    const signature = signed.slice(signed.lastIndexOf('.') + 1)
    expect(await signer.unsign(`\nb.${signature}`, 'a')).toBeNull()
  })
})
