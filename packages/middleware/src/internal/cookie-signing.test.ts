import { describe, expect, it } from 'vitest'
import { assertSecretList, createCookieSigner } from './cookie-signing'
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
