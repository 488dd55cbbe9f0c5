import { timingSafeEqual } from '../internal/crypto'

/** Base62 digits, in the order GitHub's token format and most base62 libraries use. */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** Random characters of a key: 30 base62 digits, about 178 bits (GitHub's length). */
export const API_KEY_BODY_LENGTH = 30
/** Characters of the checksum: a CRC32 (32 bits) in base62, zero-padded to 6 digits. */
export const API_KEY_CHECKSUM_LENGTH = 6
/** A prefix: a letter, then letters, digits and single underscores, at most 32 characters. */
const PREFIX = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*$/
const MAX_PREFIX_LENGTH = 32
const TAIL = new RegExp(`^[0-9A-Za-z]{${API_KEY_BODY_LENGTH + API_KEY_CHECKSUM_LENGTH}}$`)

let crcTable: Uint32Array | undefined

/** CRC-32 (IEEE 802.3, the polynomial of zlib and GitHub's tokens) of an ASCII string. */
export function crc32(text: string): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c >>> 0
    }
  }
  let crc = 0xffffffff
  for (let i = 0; i < text.length; i++) {
    crc = (crcTable[(crc ^ text.charCodeAt(i)) & 0xff] as number) ^ (crc >>> 8)
  }
  return (crc ^ 0xffffffff) >>> 0
}

/** `n` (a uint32) in base62, zero-padded to {@link API_KEY_CHECKSUM_LENGTH} digits. */
function base62Checksum(n: number): string {
  let out = ''
  for (let i = 0; i < API_KEY_CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out
    n = Math.floor(n / 62)
  }
  return out
}

/** Whether `prefix` can start a key (see {@link generateApiKey}). */
export function isApiKeyPrefix(prefix: unknown): prefix is string {
  return typeof prefix === 'string' && prefix.length <= MAX_PREFIX_LENGTH && PREFIX.test(prefix)
}

/** Throws a TypeError naming `where` unless `prefix` is a valid key prefix. */
export function checkApiKeyPrefix(where: string, prefix: unknown): string {
  if (!isApiKeyPrefix(prefix)) {
    throw new TypeError(
      `${where}: "prefix" must be a letter followed by letters, digits and single underscores (at most ${MAX_PREFIX_LENGTH} characters)`,
    )
  }
  return prefix
}

/** `length` uniformly random base62 characters (rejection sampling: no modulo bias). */
function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      // 248 = 4 × 62: bytes above it would favour the first digits.
      if (byte < 248) out += BASE62[byte % 62]
      if (out.length === length) break
    }
  }
  return out
}

/**
 * A new API key in the checksummed format: `<prefix>_<30 random base62><6 base62 CRC32 of the
 * random part>`, e.g. `pal_live_2Xk9…q0Lm1a`. Like GitHub's tokens, the prefix lets secret
 * scanners recognise a leaked key, the checksum lets them (and `apiKey({ prefix })`) tell a real
 * key from a typo without a lookup, and the underscore-only alphabet selects with one double click.
 *
 * @param prefix - A letter, then letters, digits and single underscores (`pal_live`, `acme_test`).
 * @example
 * const key = generateApiKey('pal_live') // show it once, store only its hash
 */
export function generateApiKey(prefix: string): string {
  checkApiKeyPrefix('generateApiKey', prefix)
  const body = randomBase62(API_KEY_BODY_LENGTH)
  return `${prefix}_${body}${base62Checksum(crc32(body))}`
}

/**
 * Whether `key` is in the checksummed format with one of `prefixes`: the prefix, an underscore,
 * 36 base62 characters, and a checksum that matches. Pure arithmetic, no store: a typo, a key of
 * another prefix or a random string is refused before any lookup.
 *
 * @example
 * isWellFormedApiKey(key, ['pal_live']) // false for a key with one character changed
 */
export function isWellFormedApiKey(key: string, prefixes: readonly string[]): boolean {
  const cut = key.lastIndexOf('_')
  if (cut <= 0 || !prefixes.includes(key.slice(0, cut))) return false
  const tail = key.slice(cut + 1)
  if (!TAIL.test(tail)) return false
  const body = tail.slice(0, API_KEY_BODY_LENGTH)
  // The checksum is not a secret (anyone can compute it); constant time all the same.
  return timingSafeEqual(tail.slice(API_KEY_BODY_LENGTH), base62Checksum(crc32(body)))
}
