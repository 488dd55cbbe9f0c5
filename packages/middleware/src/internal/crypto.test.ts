import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import {
  base64url,
  digestHex,
  fromBase64url,
  hmacSign,
  hmacVerify,
  importHmacKey,
  lazy,
  randomToken,
  sha256Hex,
  sha256HexSync,
  sha256HexSyncBytes,
  timingSafeEqual,
  toHex,
} from './crypto'

const bytes = (...b: number[]) => new Uint8Array(b)

describe('base64url / fromBase64url', () => {
  it.each<[Uint8Array, string]>([
    [bytes(), ''],
    [bytes(0), 'AA'],
    [bytes(0, 0), 'AAA'],
    [bytes(0, 0, 0), 'AAAA'],
    [bytes(0xfb, 0xff), '-_8'],
    [bytes(0xff, 0xff, 0xff), '____'],
    [new TextEncoder().encode('hello'), 'aGVsbG8'],
  ])('encodes %s as %j without padding, and back', (input, encoded) => {
    expect(base64url(input)).toBe(encoded)
    expect(fromBase64url(encoded)).toEqual(input)
  })

  it('round-trips every byte value', () => {
    const all = new Uint8Array(256).map((_, i) => i)
    const encoded = base64url(all)
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(fromBase64url(encoded)).toEqual(all)
  })

  it.each([
    ['padding', 'aGVsbG8='],
    ['standard alphabet +', 'a+b/'],
    ['whitespace', 'aGVs bG8'],
    ['a newline', 'aGVs\nbG8'],
    ['an impossible length', 'aGVsb'],
    ['a dot', 'aGVs.bG8'],
    ['non-ASCII', 'aGVsbG8é'],
    ['unused low bits set in the last character', 'AB'],
    ['unused low bits set after two bytes', 'AAB'],
  ])('rejects %s', (_, value) => {
    expect(fromBase64url(value)).toBeNull()
  })

  it('accepts exactly the canonical spelling of every tail (2 and 3 characters, all of them)', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    // 266,240 values: compared by hand and the wrong ones collected, so one `expect` at the end
    // (an `expect` per value took a minute on a loaded machine and timed out).
    const wrong: string[] = []
    let canonical = 0
    for (const a of alphabet) {
      for (const b of alphabet) {
        for (const tail of [`${a}${b}`, ...Array.from(alphabet, (c) => `${a}${b}${c}`)]) {
          const value = `AAAA${tail}`
          const decoded = fromBase64url(value)
          // Canonical: the bytes it stands for encode back to the very same text.
          const lenient = Uint8Array.from(atob(value.replace(/-/g, '+').replace(/_/g, '/')), (ch) =>
            ch.charCodeAt(0),
          )
          if (base64url(lenient) === value) {
            canonical++
            const same =
              decoded !== null &&
              decoded.length === lenient.length &&
              decoded.every((byte, i) => byte === lenient[i])
            if (!same) wrong.push(`${value} decoded wrongly`)
          } else if (decoded !== null) wrong.push(`${value} accepted`)
        }
      }
    }
    expect(wrong).toEqual([])
    // The canonical spellings: a 2-character tail's second character keeps its 4 low bits zero
    // (64 × 4), a 3-character tail's third keeps its 2 low bits zero (64 × 64 × 16).
    expect(canonical).toBe(64 * 4 + 64 * 64 * 16)
  })
})

describe('randomToken', () => {
  it('returns 32 random bytes as 43 base64url characters by default', () => {
    const token = randomToken()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(fromBase64url(token)).toHaveLength(32)
  })

  it('honours the byte count', () => {
    expect(fromBase64url(randomToken(16))).toHaveLength(16)
    expect(randomToken(0)).toBe('')
  })

  it('does not repeat', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomToken(16)))
    expect(seen.size).toBe(200)
  })
})

describe('timingSafeEqual', () => {
  it.each<[string, string, boolean]>([
    ['', '', true],
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    ['abc', 'ab', false],
    ['ab', 'abc', false],
    ['', 'a', false],
    ['a', '', false],
    ['abc', 'ABC', false],
    ['é', 'é', true],
    ['é', 'e\u0301', false],
    ['\u0000', '', false],
    ['a\u0000', 'a', false],
    ['🙂', '🙂', true],
    ['🙂', '🙃', false],
  ])('timingSafeEqual(%j, %j) is %s', (a, b, expected) => {
    expect(timingSafeEqual(a, b)).toBe(expected)
  })

  it.each<[string, string]>([
    // Different lone surrogates both encode to U+FFFD in UTF-8: comparing bytes called them equal.
    ['a\ud800', 'a\ud801'],
    ['\udc00', '\ufffd'],
    ['\ud83d', '\ud83e'],
  ])('tells apart %j and %j, which UTF-8 encoding would merge', (a, b) => {
    expect(timingSafeEqual(a, b)).toBe(false)
    expect(timingSafeEqual(a, a)).toBe(true)
  })

  it('agrees with === on random strings and their one-unit mutations', () => {
    for (let i = 0; i < 500; i++) {
      const a = Array.from({ length: i % 40 }, () =>
        String.fromCharCode(Math.floor(Math.random() * 0x10000)),
      ).join('')
      const at = Math.floor(Math.random() * Math.max(1, a.length))
      const b =
        a.length === 0
          ? 'x'
          : `${a.slice(0, at)}${String.fromCharCode((a.charCodeAt(at) + 1) % 0x10000)}${a.slice(at + 1)}`
      expect(timingSafeEqual(a, a.slice())).toBe(true)
      expect(timingSafeEqual(a, b)).toBe(a === b)
    }
  })

  it('allocates no encoded copy of its inputs', () => {
    const encode = vi.spyOn(TextEncoder.prototype, 'encode')
    expect(timingSafeEqual('token-value', 'token-value')).toBe(true)
    expect(timingSafeEqual('token-value', 'token-valuf')).toBe(false)
    expect(encode).not.toHaveBeenCalled()
    encode.mockRestore()
  })

  it('does not treat a prefix as equal however long', () => {
    const long = 'x'.repeat(10_000)
    expect(timingSafeEqual(long, `${long}y`)).toBe(false)
    expect(timingSafeEqual(long, long)).toBe(true)
  })
})

describe('HMAC', () => {
  it('matches the RFC 4231 test case 2 for HMAC-SHA256', async () => {
    const key = await importHmacKey('Jefe')
    const sig = await hmacSign(key, 'what do ya want for nothing?')
    const hex = Array.from(fromBase64url(sig) as Uint8Array, (b) =>
      b.toString(16).padStart(2, '0'),
    ).join('')
    expect(hex).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843')
  })

  it('gives the same key from a string and from its UTF-8 bytes', async () => {
    const a = await hmacSign(await importHmacKey('sécret'), 'data')
    const b = await hmacSign(await importHmacKey(new TextEncoder().encode('sécret')), 'data')
    expect(a).toBe(b)
  })

  it('uses the requested hash', async () => {
    const key = await importHmacKey('k', 'SHA-512')
    expect(fromBase64url(await hmacSign(key, 'd'))).toHaveLength(64)
  })

  it('verifies its own signature', async () => {
    const key = await importHmacKey('secret')
    expect(await hmacVerify(key, 'data', await hmacSign(key, 'data'))).toBe(true)
  })

  it('rejects tampered data, a wrong key and a tampered signature', async () => {
    const key = await importHmacKey('secret')
    const other = await importHmacKey('secret2')
    const sig = await hmacSign(key, 'data')
    expect(await hmacVerify(key, 'datA', sig)).toBe(false)
    expect(await hmacVerify(other, 'data', sig)).toBe(false)
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`
    expect(await hmacVerify(key, 'data', flipped)).toBe(false)
  })

  it.each(['', 'not base64!', 'AA==', 'A'])('rejects the malformed signature %j', async (sig) => {
    const key = await importHmacKey('secret')
    expect(await hmacVerify(key, 'data', sig)).toBe(false)
  })

  it('rejects a truncated signature', async () => {
    const key = await importHmacKey('secret')
    const sig = await hmacSign(key, 'data')
    expect(await hmacVerify(key, 'data', sig.slice(0, 20))).toBe(false)
  })
})

describe('toHex', () => {
  /** The encoding the table replaced: each byte's toString(16), padded to two digits. */
  const reference = (b: Uint8Array) =>
    Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')

  it('writes every byte value as its two lowercase digits', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i)
    expect(toHex(all)).toBe(reference(all))
    expect(toHex(bytes(0, 9, 10, 255))).toBe('00090aff')
    expect(toHex(new Uint8Array(0))).toBe('')
  })

  it('agrees with the toString(16) encoding on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        expect(toHex(b)).toBe(reference(b))
      }),
    )
  })
})

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ])('hashes %j', async (input, hex) => {
    expect(await sha256Hex(input)).toBe(hex)
  })

  it('hashes text as UTF-8', async () => {
    expect(await sha256Hex('é')).toBe(
      await crypto.subtle
        .digest('SHA-256', new Uint8Array([0xc3, 0xa9]))
        .then((d) =>
          Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join(''),
        ),
    )
  })
})

describe('sha256HexSync', () => {
  const subtleHex = async (text: string) =>
    Array.from(
      new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))),
      (b) => b.toString(16).padStart(2, '0'),
    ).join('')

  // FIPS 180-4 / NIST CAVP examples, plus the one-million-"a" vector.
  it.each([
    ['the empty string', '', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['"abc"', 'abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'the 448-bit message',
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'the 896-bit message',
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
    [
      'one million "a"',
      'a'.repeat(1_000_000),
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    ],
  ])('matches the standard vector for %s', async (_, input, hex) => {
    expect(sha256HexSync(input)).toBe(hex)
    expect(await sha256Hex(input)).toBe(hex)
  })

  it('matches crypto.subtle for every byte length from 0 to 200 (the 55/56/64-byte edges)', async () => {
    for (let n = 0; n <= 200; n++) {
      const ascii = 'x'.repeat(n)
      expect(sha256HexSync(ascii), `${n} bytes`).toBe(await subtleHex(ascii))
    }
  })

  it('hashes a view into a larger buffer by its own bytes (sha256HexSyncBytes)', async () => {
    const buffer = new TextEncoder().encode(`head|${'z'.repeat(150)}|tail`)
    for (const [from, to] of [
      [5, 155],
      [5, 69],
      [1, 57],
      [0, buffer.length],
    ] as const) {
      const view = buffer.subarray(from, to)
      const expected = new Uint8Array(await crypto.subtle.digest('SHA-256', view.slice()))
      const hex = Array.from(expected, (b) => b.toString(16).padStart(2, '0')).join('')
      expect(sha256HexSyncBytes(view), `${from}..${to}`).toBe(hex)
    }
  })

  it('matches crypto.subtle when multi-byte characters land on the block edges', async () => {
    // é is 2 UTF-8 bytes, € 3, 😀 4: each lands the total on 54–66 and 118–130 bytes.
    for (const wide of ['é', '€', '😀', '\ud800']) {
      for (let n = 50; n <= 130; n++) {
        const text = wide + 'y'.repeat(n) + wide
        expect(sha256HexSync(text), JSON.stringify(text)).toBe(await subtleHex(text))
      }
    }
  })

  it('matches crypto.subtle on 1,500 random strings of random lengths, non-ASCII included', async () => {
    // A seeded generator, so a failure names an input that can be rebuilt.
    let seed = 0x5eed
    const next = () => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
    const pools = [
      () => String.fromCharCode(0x20 + Math.floor(next() * 95)), // printable ASCII
      () => String.fromCharCode(Math.floor(next() * 0x80)), // any ASCII, controls and NUL too
      () => String.fromCharCode(0x80 + Math.floor(next() * 0x780)), // 2 UTF-8 bytes
      () => String.fromCharCode(0x800 + Math.floor(next() * 0xd000)), // 3 bytes (and lone surrogates)
      () => String.fromCodePoint(0x10000 + Math.floor(next() * 0xfffff)), // 4 bytes
    ]
    for (let i = 0; i < 1500; i++) {
      const length = i % 3 === 0 ? 40 + Math.floor(next() * 40) : Math.floor(next() * 300)
      let text = ''
      for (let j = 0; j < length; j++)
        text += (pools[Math.floor(next() * pools.length)] as () => string)()
      expect(sha256HexSync(text), `string #${i}`).toBe(await subtleHex(text))
    }
  })
})

describe('lazy', () => {
  it('does not run the initialiser until first use', () => {
    const init = vi.fn(async () => 1)
    lazy(init)
    expect(init).not.toHaveBeenCalled()
  })

  it('runs once and shares the result, also between concurrent callers', async () => {
    const init = vi.fn(async () => ({ key: 1 }))
    const get = lazy(init)
    const [a, b] = await Promise.all([get(), get()])
    expect(a).toBe(b)
    expect(await get()).toBe(a)
    expect(init).toHaveBeenCalledOnce()
  })

  it('retries after a failed attempt', async () => {
    const init = vi.fn().mockRejectedValueOnce(new Error('first')).mockResolvedValueOnce('ok')
    const get = lazy(init as () => Promise<string>)
    await expect(get()).rejects.toThrow('first')
    expect(await get()).toBe('ok')
    expect(init).toHaveBeenCalledTimes(2)
  })

  it('does not leave an unhandled rejection behind when a caller handles the failure', async () => {
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      const get = lazy(() => Promise.reject(new Error('nope')))
      await expect(get()).rejects.toThrow('nope')
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(unhandled).not.toHaveBeenCalled()
    } finally {
      process.off('unhandledRejection', unhandled)
    }
  })
})

describe('digestHex', () => {
  it('gives the lowercase hex SHA-1 and SHA-256 of the UTF-8 bytes', async () => {
    expect(await digestHex('SHA-1', 'abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d')
    expect(await digestHex('SHA-256', 'abc')).toBe(await sha256Hex('abc'))
  })
})
