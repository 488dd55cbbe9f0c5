/**
 * fast-check arbitraries shared by the `*.property.test.ts` files. Test support lives in test/,
 * outside src/, so it is never built or published.
 */
import fc from 'fast-check'

/** Characters a header value can carry: tab, visible ASCII, obs-text (no CR, LF or NUL). */
const headerChar = fc.oneof(
  fc.constant('\t'),
  fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n)),
  fc.integer({ min: 0x80, max: 0xff }).map((n) => String.fromCharCode(n)),
)

/** Any value `new Headers()` accepts, biased towards the characters parsers split on. */
export const headerValue = (maxLength = 200): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.oneof(
      { weight: 3, arbitrary: headerChar },
      { weight: 1, arbitrary: fc.constantFrom(';', ',', '=', '"', ' ', '.', '/', '%', '\\') },
    ),
    maxLength,
  })

/** base64url text, the alphabet of signed cookies and JWT segments. */
export const base64urlText = (maxLength = 80): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split(''),
    ),
    maxLength,
  })

/** An IPv4 address as its 32-bit value. */
export const ipv4Value = fc.integer({ min: 0, max: 0xffffffff })

/** An IPv6 address as its 128-bit value. */
export const ipv6Value = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n })

/** The eight-group, uncompressed text of a 128-bit value. */
export function ipv6Text(value: bigint): string {
  const groups: string[] = []
  for (let i = 7; i >= 0; i--) groups.push(((value >> BigInt(i * 16)) & 0xffffn).toString(16))
  return groups.join(':')
}

/** The `::`-compressed text of a 128-bit value (longest run of zero groups, RFC 5952). */
export function ipv6Compressed(value: bigint): string {
  const groups = ipv6Text(value).split(':')
  let best = -1
  let bestLength = 1
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === '0') j++
    if (j - i > bestLength) [best, bestLength] = [i, j - i]
    i = j
  }
  if (best === -1) return groups.join(':')
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLength).join(':')}`
}
