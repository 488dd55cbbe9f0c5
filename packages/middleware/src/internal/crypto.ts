/**
 * WebCrypto helpers shared by jwtAuth, sessions, csrf and apiKey. Web-standard APIs only, so the
 * same code runs on Node, Bun, Deno and Workers.
 */

const encoder = new TextEncoder()

/** Encodes bytes as base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i] as number)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * Decodes unpadded base64url; returns `null` for anything that is not canonical base64url. JWT
 * signatures and signed cookies are decoded on every request, so canonical form is checked on
 * the last character instead of by encoding the bytes again.
 */
export function fromBase64url(value: string): Uint8Array<ArrayBuffer> | null {
  const rest = value.length % 4
  // The last character may carry unused low bits: `…A` and `…B` can decode to the same bytes.
  // Only the canonical spelling (those bits zero) is accepted, so a signed value has exactly one
  // valid encoding: after 2 characters the last one is a multiple of 16, after 3 of 4.
  if (
    !/^[A-Za-z0-9_-]*$/.test(value) ||
    rest === 1 ||
    (rest > 1 && !(rest === 2 ? 'AQgw' : 'AEIMQUYcgkosw048').includes(value.slice(-1)))
  ) {
    return null
  }
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'))
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}

/** Encodes bytes as standard base64 with padding (RFC 4648 §4). */
export function base64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i] as number)
  return btoa(binary)
}

/** Decodes standard padded base64 (RFC 4648 §4); `null` for anything else. */
export function fromBase64(value: string): Uint8Array<ArrayBuffer> | null {
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null
  const binary = atob(value)
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}

/** The two lowercase hex digits of every byte value, by value. */
const HEX_PAIRS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/**
 * Encodes bytes as lowercase hex. A table of the 256 pairs: a webhook signature is encoded on
 * every request, and `toString(16).padStart(2, '0')` per byte cost about 1 µs for 32 bytes.
 */
export function toHex(bytes: Uint8Array): string {
  let hex = ''
  for (let i = 0; i < bytes.length; i++) hex += HEX_PAIRS[bytes[i] as number]
  return hex
}

/** `bytes` cryptographically random bytes as base64url (default 32 bytes = 256 bits). */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)))
}

/**
 * Compares two strings in time that depends only on their lengths, never on where they differ.
 * Both are compared as UTF-16 code units, which needs no encoding (no allocation) and is exact:
 * two strings are equal exactly when their code units are. A length mismatch still walks the
 * longer input.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const len = Math.max(a.length, b.length)
  let diff = a.length ^ b.length
  // Past the end, charCodeAt gives NaN, and NaN | 0 is 0: no branch on the content.
  for (let i = 0; i < len; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  return diff === 0
}

export type HmacHash = 'SHA-256' | 'SHA-384' | 'SHA-512'

/** Imports an HMAC key usable for both signing and verifying. */
export function importHmacKey(
  secret: string | Uint8Array,
  hash: HmacHash = 'SHA-256',
): Promise<CryptoKey> {
  const raw = typeof secret === 'string' ? encoder.encode(secret) : secret
  return crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash }, false, [
    'sign',
    'verify',
  ])
}

/** HMAC of `data` under `key`, as base64url. */
export async function hmacSign(key: CryptoKey, data: string): Promise<string> {
  const sig = await crypto.subtle.sign('HMAC', key, encoder.encode(data))
  return base64url(new Uint8Array(sig))
}

/** Verifies a base64url HMAC; WebCrypto's verify compares in constant time. */
export async function hmacVerify(
  key: CryptoKey,
  data: string,
  signature: string,
): Promise<boolean> {
  const sig = fromBase64url(signature)
  if (!sig) return false
  return crypto.subtle.verify('HMAC', key, sig as BufferSource, encoder.encode(data))
}

/** SHA-256 of a string, as lowercase hex. */
export async function sha256Hex(data: string): Promise<string> {
  return digestHex('SHA-256', data)
}

/** A WebCrypto digest of a string's UTF-8 bytes, as lowercase hex. */
export async function digestHex(algorithm: 'SHA-1' | 'SHA-256', data: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest(algorithm, encoder.encode(data))))
}

/**
 * Caches a promise-returning initialiser: runs it on first use (never at construction, which
 * Workers forbid for crypto) and shares the result afterwards. A rejected attempt is not cached.
 */
export function lazy<T>(init: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () => {
    if (!pending) {
      pending = init()
      pending.catch(() => {
        pending = undefined
      })
    }
    return pending
  }
}

/** SHA-256 round constants (FIPS 180-4 §4.2.2). */
const K256 = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])
/** The initial hash value (FIPS 180-4 §5.3.3). */
const IV256 = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]
// Scratch state, reused: the hash is synchronous, so calls never overlap.
/** The message schedule. */
const W256 = new Int32Array(64)
/** The running hash value. */
const H256 = new Int32Array(8)
/** The message's last partial block, its 0x80 and its bit length: one or two blocks. */
const TAIL256 = new Uint8Array(128)
/** Two hex digits of each byte value. */
const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** Mixes the 64-byte block of `bytes` at `offset` into {@link H256} (FIPS 180-4 §6.2.2). */
function sha256Block(bytes: Uint8Array, offset: number): void {
  const w = W256
  for (let i = 0, o = offset; i < 16; i++, o += 4) {
    w[i] =
      ((bytes[o] as number) << 24) |
      ((bytes[o + 1] as number) << 16) |
      ((bytes[o + 2] as number) << 8) |
      (bytes[o + 3] as number)
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15] as number
    const y = w[i - 2] as number
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)
    w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0
  }
  const H = H256
  let a = H[0] as number
  let b = H[1] as number
  let c = H[2] as number
  let d = H[3] as number
  let e = H[4] as number
  let f = H[5] as number
  let g = H[6] as number
  let h = H[7] as number
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + (K256[i] as number) + (w[i] as number)) | 0
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
    h = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  // Int32Array stores wrap to 32 bits, as the additions modulo 2^32 require.
  H[0] = (H[0] as number) + a
  H[1] = (H[1] as number) + b
  H[2] = (H[2] as number) + c
  H[3] = (H[3] as number) + d
  H[4] = (H[4] as number) + e
  H[5] = (H[5] as number) + f
  H[6] = (H[6] as number) + g
  H[7] = (H[7] as number) + h
}

/**
 * SHA-256 of a string's UTF-8 bytes, as lowercase hex, computed synchronously in JavaScript.
 * Same result as {@link sha256Hex}; meant for short inputs on a hot path (API keys), where
 * WebCrypto's digest costs a thread-pool job on Node that is dearer than the hash itself. Long
 * inputs block the event loop for their whole length: use {@link sha256Hex} for those.
 *
 * @example
 * sha256HexSync('abc') // 'ba7816bf…f20015ad'
 */
export function sha256HexSync(data: string): string {
  return sha256HexSyncBytes(encoder.encode(data))
}

/**
 * {@link sha256HexSync} of bytes: the same synchronous SHA-256, for short inputs on a hot path
 * (an idempotency fingerprint of a small body).
 *
 * @example
 * sha256HexSyncBytes(new TextEncoder().encode('abc')) // 'ba7816bf…f20015ad'
 */
export function sha256HexSyncBytes(bytes: Uint8Array): string {
  H256.set(IV256)
  const length = bytes.length
  // Whole blocks straight from the input (no padded copy of the message), then the rest in
  // TAIL256: the last bytes, 0x80, zeros, and the 64-bit big-endian bit length.
  const whole = length - (length % 64)
  for (let offset = 0; offset < whole; offset += 64) sha256Block(bytes, offset)
  const rest = length - whole
  const tail = rest < 56 ? 64 : 128
  TAIL256.fill(0)
  TAIL256.set(bytes.subarray(whole))
  TAIL256[rest] = 0x80
  const high = Math.floor(length / 0x20000000)
  const low = (length << 3) >>> 0
  for (let i = 0; i < 4; i++) {
    TAIL256[tail - 8 + i] = high >>> (24 - 8 * i)
    TAIL256[tail - 4 + i] = low >>> (24 - 8 * i)
  }
  sha256Block(TAIL256, 0)
  if (tail === 128) sha256Block(TAIL256, 64)
  let hex = ''
  for (const word of H256) {
    hex +=
      (HEX_BYTE[(word >>> 24) & 0xff] as string) +
      (HEX_BYTE[(word >>> 16) & 0xff] as string) +
      (HEX_BYTE[(word >>> 8) & 0xff] as string) +
      (HEX_BYTE[word & 0xff] as string)
  }
  return hex
}
