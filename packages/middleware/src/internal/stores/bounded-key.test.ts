import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../crypto'
import { boundKey, MAX_VERBATIM_KEY } from './bounded-key'

describe('boundKey', () => {
  it('keeps keys up to the limit as they are, synchronously', () => {
    for (const key of ['', '203.0.113.7', '2001:db8::/56', 'k'.repeat(MAX_VERBATIM_KEY)]) {
      expect(boundKey(key)).toBe(key)
    }
  })

  it('holds a longer key as its SHA-256, one distinct value per key', async () => {
    const long = 'k'.repeat(MAX_VERBATIM_KEY + 1)
    expect(await boundKey(long)).toBe(`sha256:${await sha256Hex(long)}`)
    const a = await boundKey(`${'x'.repeat(200_000)}a`)
    const b = await boundKey(`${'x'.repeat(200_000)}b`)
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(b).not.toBe(a)
    expect(await boundKey(`${'x'.repeat(200_000)}a`)).toBe(a)
  })

  it('hashes a short key that looks like a hashed one, so no key can name another key', async () => {
    const long = 'y'.repeat(1_000)
    const hashedForm = await boundKey(long)
    // A client that sends the hashed form of someone's long key gets a counter of its own.
    const forged = await boundKey(hashedForm)
    expect(forged).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(forged).not.toBe(hashedForm)
    // Other short keys starting with the prefix stay as they are.
    expect(boundKey('sha256:abc')).toBe('sha256:abc')
  })
})
