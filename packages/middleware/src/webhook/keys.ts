// Webhook secrets: read once at construction (format and length checked), imported as WebCrypto
// keys on first use (Workers forbid crypto at module scope).
import { fromBase64, type HmacHash, importHmacKey } from '../internal/crypto'

/**
 * A webhook secret: the string the provider shows (`whsec_…` for Standard Webhooks, the signing
 * secret for Stripe, GitHub and Slack), raw key bytes, or, for Standard Webhooks' `v1a` scheme,
 * an Ed25519 `CryptoKey` (public to verify, private to sign).
 *
 * @example
 * const secret: WebhookSecret = process.env.BILLING_WEBHOOK_SECRET ?? '' // 'whsec_…'
 */
export type WebhookSecret = string | Uint8Array | CryptoKey

/** One secret, read. */
export type ReadSecret =
  | { kind: 'hmac'; raw: Uint8Array }
  | { kind: 'ed25519-public'; key: CryptoKey | Uint8Array }
  | { kind: 'ed25519-private'; key: CryptoKey | Uint8Array }

const encoder = new TextEncoder()
/** The spec's floor for Standard Webhooks secrets (24 to 64 bytes). */
const MIN_STANDARD = 24
/** Provider secrets are chosen by the provider; shorter than this is a mistake, not a secret. */
const MIN_OTHER = 16
/** PKCS#8 wrapping of a 32-byte Ed25519 seed (RFC 8410): this prefix, then the seed. */
const PKCS8_ED25519 = [
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]

function decode(where: string, value: string, prefix: string): Uint8Array {
  const bytes = fromBase64(value.slice(prefix.length))
  if (bytes === null || bytes.length === 0)
    throw new TypeError(`${where}: a "${prefix}" secret must be followed by base64`)
  return bytes
}

function checkLength(where: string, raw: Uint8Array, min: number): Uint8Array {
  if (raw.length < min)
    throw new TypeError(`${where}: a secret must be at least ${min} bytes, got ${raw.length}`)
  return raw
}

/**
 * Reads `secret` for `preset`. Standard Webhooks: `whsec_<base64>` (HMAC), `whpk_<base64>` (an
 * Ed25519 public key, 32 bytes), `whsk_<base64>` (an Ed25519 private key: the 32-byte seed, or
 * the 64 bytes of seed and public key); other presets take the secret's UTF-8 bytes, as the
 * providers' SDKs do (Stripe's `whsec_` included: Stripe signs with the whole string).
 */
export function readSecret(where: string, preset: string, secret: unknown): ReadSecret {
  if (typeof CryptoKey !== 'undefined' && secret instanceof CryptoKey) {
    if (preset !== 'standardWebhooks' || secret.algorithm.name !== 'Ed25519')
      throw new TypeError(`${where}: a CryptoKey secret must be an Ed25519 key (standardWebhooks)`)
    return secret.type === 'private'
      ? { kind: 'ed25519-private', key: secret }
      : { kind: 'ed25519-public', key: secret }
  }
  const min = preset === 'standardWebhooks' ? MIN_STANDARD : MIN_OTHER
  // A copy: the HMAC key is imported on first use, and a Buffer's `slice()` is a view of the
  // caller's memory, so a secret wiped after construction would otherwise key it with zeros.
  if (secret instanceof Uint8Array)
    return { kind: 'hmac', raw: checkLength(where, new Uint8Array(secret), min) }
  if (typeof secret !== 'string' || secret === '')
    throw new TypeError(`${where}: a secret must be a non-empty string, bytes or a CryptoKey`)
  if (preset !== 'standardWebhooks') {
    return { kind: 'hmac', raw: checkLength(where, encoder.encode(secret), min) }
  }
  if (secret.startsWith('whsec_'))
    return { kind: 'hmac', raw: checkLength(where, decode(where, secret, 'whsec_'), min) }
  if (secret.startsWith('whpk_')) {
    const key = decode(where, secret, 'whpk_')
    if (key.length !== 32) throw new TypeError(`${where}: a "whpk_" key must be 32 bytes`)
    return { kind: 'ed25519-public', key }
  }
  if (secret.startsWith('whsk_')) {
    const key = decode(where, secret, 'whsk_')
    if (key.length !== 32 && key.length !== 64)
      throw new TypeError(`${where}: a "whsk_" key must be 32 or 64 bytes`)
    return { kind: 'ed25519-private', key: key.slice(0, 32) }
  }
  throw new TypeError(
    `${where}: a Standard Webhooks secret starts with "whsec_" (or "whpk_" / "whsk_" for v1a)`,
  )
}

/** The HMAC key of `raw`. */
export function hmacKey(raw: Uint8Array, hash: HmacHash): Promise<CryptoKey> {
  return importHmacKey(raw, hash)
}

/** An Ed25519 key usable for `use`, from a CryptoKey or raw bytes (public key or seed). */
export function ed25519Key(
  key: CryptoKey | Uint8Array,
  use: 'verify' | 'sign',
): Promise<CryptoKey> {
  if (!(key instanceof Uint8Array)) return Promise.resolve(key)
  if (use === 'verify') {
    return crypto.subtle.importKey('raw', key as BufferSource, { name: 'Ed25519' }, false, [
      'verify',
    ])
  }
  const pkcs8 = new Uint8Array(PKCS8_ED25519.length + 32)
  pkcs8.set(PKCS8_ED25519)
  pkcs8.set(key, PKCS8_ED25519.length)
  return crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, false, ['sign'])
}
