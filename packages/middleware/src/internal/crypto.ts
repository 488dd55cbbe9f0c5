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

/** Decodes unpadded base64url; returns `null` for anything that is not canonical base64url. */
export function fromBase64url(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(value) || value.length % 4 === 1) return null
  const b64 = value.replace(/-/g, '+').replace(/_/g, '/')
  let binary: string
  try {
    binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4))
  } catch {
    return null
  }
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  // The last character may carry unused low bits: `…A` and `…B` can decode to the same bytes.
  // Only the canonical spelling is accepted, so a signed value has exactly one valid encoding.
  if (base64url(out) !== value) return null
  return out
}

/** `bytes` cryptographically random bytes as base64url (default 32 bytes = 256 bits). */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)))
}

/**
 * Compares two strings in time that depends only on their lengths, never on where they differ.
 * Both are compared as UTF-8 bytes; a length mismatch still walks the longer input.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a)
  const y = encoder.encode(b)
  const len = Math.max(x.length, y.length)
  let diff = x.length ^ y.length
  for (let i = 0; i < len; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0)
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
  const digest = new Uint8Array(await crypto.subtle.digest(algorithm, encoder.encode(data)))
  let hex = ''
  for (let i = 0; i < digest.length; i++) hex += (digest[i] as number).toString(16).padStart(2, '0')
  return hex
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
