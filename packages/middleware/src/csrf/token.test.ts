import { describe, expect, it } from 'vitest'
import { createCookieSigner } from '../internal/cookies/cookie-signing'
import { MAX_TOKEN_LENGTH, matchesAny, newToken, plainTokens, signedTokens } from './token'

const signer = createCookieSigner(['s'.repeat(32)], 'csrf')

describe('csrf token', () => {
  it('newToken refuses what cannot travel in a cookie and a header', async () => {
    for (const bad of ['', 'a b', 'a;b', 'a,b', '"a"', 'a\\b', 'é', 'x'.repeat(257)]) {
      await expect(
        newToken(() => bad, undefined, ''),
        JSON.stringify(bad),
      ).rejects.toThrow(TypeError)
    }
    await expect(newToken(() => 42 as never, undefined, '')).rejects.toThrow(TypeError)
    expect(await newToken(() => 'abc', undefined, '')).toBe('abc')
  })

  it('newToken signs for the binding: only that binding verifies it', async () => {
    const token = await newToken(() => 'abc', signer, 'session-1')
    expect(token.startsWith('abc.')).toBe(true)
    expect(await signedTokens(signer, [token], 'session-1')).toEqual([token])
    expect(await signedTokens(signer, [token], 'session-2')).toEqual([])
  })

  it('signedTokens keeps our copies only, in order, skipping junk planted in front', async () => {
    const ours = await newToken(() => 'mine', signer, '')
    const other = await newToken(() => 'x', createCookieSigner(['o'.repeat(32)], 'csrf'), '')
    const tooLong = `${ours}${'a'.repeat(MAX_TOKEN_LENGTH)}`
    expect(await signedTokens(signer, ['junk', other, '', tooLong, ours], '')).toEqual([ours])
  })

  it('plainTokens drops empty and oversized copies', () => {
    const max = 'a'.repeat(MAX_TOKEN_LENGTH)
    expect(plainTokens(['', 'a', max, `${max}a`])).toEqual(['a', max])
  })

  it('matchesAny finds the sent token among every copy, wherever it is', () => {
    expect(matchesAny('b', ['a', 'b', 'c'])).toBe(true)
    expect(matchesAny('c', ['a', 'b', 'c'])).toBe(true)
    expect(matchesAny('d', ['a', 'b', 'c'])).toBe(false)
    expect(matchesAny('a', [])).toBe(false)
    expect(matchesAny('ab', ['a'])).toBe(false)
  })
})
