import { afterEach, describe, expect, it, vi } from 'vitest'
import { assertSecretList, createCookieSigner, VERIFIED_COOKIE_CACHE_SIZE } from './cookie-signing'
import { hmacSign, importHmacKey } from './crypto'

describe('createCookieSigner', () => {
  it('signs as <value>.<base64url HMAC-SHA256 of value>', async () => {
    const signer = createCookieSigner(['secret'])
    const signed = await signer.sign('abc')
    const expected = await hmacSign(await importHmacKey('secret'), 'abc')
    expect(signed).toBe(`abc.${expected}`)
    expect(signed.split('.')[1]).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('unsigns its own value', async () => {
    const signer = createCookieSigner(['secret'])
    expect(await signer.unsign(await signer.sign('session-id-1'))).toBe('session-id-1')
  })

  it('handles values that contain dots', async () => {
    const signer = createCookieSigner(['secret'])
    expect(await signer.unsign(await signer.sign('a.b.c'))).toBe('a.b.c')
  })

  it('verifies with every secret but signs with the first (rotation)', async () => {
    const oldSigner = createCookieSigner(['old'])
    const rotated = createCookieSigner(['new', 'old'])
    const legacy = await oldSigner.sign('v')
    expect(await rotated.unsign(legacy)).toBe('v')
    const fresh = await rotated.sign('v')
    expect(fresh).toBe(await createCookieSigner(['new']).sign('v'))
    expect(await oldSigner.unsign(fresh)).toBeNull()
  })

  it('rejects a value signed with another secret', async () => {
    const signed = await createCookieSigner(['attacker']).sign('admin')
    expect(await createCookieSigner(['secret']).unsign(signed)).toBeNull()
  })

  it('does not import keys at construction', () => {
    // Workers forbid crypto at module scope; an empty secret list would fail on first use only.
    expect(() => createCookieSigner(['s'])).not.toThrow()
  })

  describe('tampering', () => {
    const signer = createCookieSigner(['secret'])

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
    const signer = createCookieSigner(['secret'])
    const signed = await signer.sign('user1')
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(verify).toHaveBeenCalledTimes(1)
  })

  it('never remembers a failure: a bad cookie is verified (and rejected) every time', async () => {
    const signer = createCookieSigner(['secret'])
    const forged = await createCookieSigner(['attacker']).sign('admin')
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await signer.unsign(forged)).toBeNull()
    expect(await signer.unsign(forged)).toBeNull()
    expect(verify).toHaveBeenCalledTimes(2)
  })

  it.each(tampered)('rejects %s after the valid twin was remembered', async (_, tamper) => {
    const signer = createCookieSigner(['secret'])
    const signed = await signer.sign('user1')
    expect(await signer.unsign(signed)).toBe('user1')
    expect(await signer.unsign(tamper(signed))).toBeNull()
    expect(await signer.unsign(signed)).toBe('user1')
  })

  it(`remembers at most ${VERIFIED_COOKIE_CACHE_SIZE} cookies, evicting the least recently used`, async () => {
    const signer = createCookieSigner(['secret'])
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
    const oldSigner = createCookieSigner(['old'])
    const legacy = await oldSigner.sign('v')
    expect(await oldSigner.unsign(legacy)).toBe('v')
    expect(await createCookieSigner(['new']).unsign(legacy)).toBeNull()
    const verify = vi.spyOn(crypto.subtle, 'verify')
    expect(await createCookieSigner(['new', 'old']).unsign(legacy)).toBe('v')
    expect(verify).toHaveBeenCalled()
  })
})

describe('assertSecretList', () => {
  it('turns one secret into a list and copies a list', () => {
    expect(assertSecretList('f', 'a')).toEqual(['a'])
    const list = ['a', 'b']
    const out = assertSecretList('f', list)
    expect(out).toEqual(['a', 'b'])
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
