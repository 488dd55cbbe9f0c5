/**
 * The HMAC side of JWTs, shared by `jwtAuth` (verify) and `signJwt` (sign): the accepted
 * algorithms, their hashes and the minimum key length of each (RFC 7518 §3.2).
 */
import type { HmacHash } from '../internal/crypto'
import { optionError } from '../internal/options'

/**
 * The HMAC algorithms `jwtAuth` and `signJwt` accept.
 *
 * @example
 * const algorithms: JwtAlgorithm[] = ['HS256', 'HS512']
 * app.use('/api/*', jwtAuth({ secret: process.env.JWT_SECRET!, algorithms }))
 */
export type JwtAlgorithm = 'HS256' | 'HS384' | 'HS512'

/** The WebCrypto hash of each HMAC algorithm. */
export const HMAC_HASHES: Readonly<Record<JwtAlgorithm, HmacHash>> = {
  HS256: 'SHA-256',
  HS384: 'SHA-384',
  HS512: 'SHA-512',
}

/** Shortest HMAC key per algorithm, in bytes: the hash output size (RFC 7518 §3.2). */
export const MIN_SECRET_BYTES: Readonly<Record<JwtAlgorithm, number>> = {
  HS256: 32,
  HS384: 48,
  HS512: 64,
}

const encoder = new TextEncoder()

/** Whether `text` is a JWK (`kty`) or a JWKS (`keys`) as JSON text. */
function isJwkText(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false
  try {
    const value = JSON.parse(text) as { kty?: unknown; keys?: unknown }
    return typeof value.kty === 'string' || Array.isArray(value.keys)
  } catch {
    return false
  }
}

/**
 * Validates a secret once: non-empty and at least `minBytes` long (as UTF-8 for a string). The
 * bytes are copied so later changes by the caller do not count.
 */
export function secretBytes(factory: string, value: unknown, minBytes: number): Uint8Array {
  let bytes: Uint8Array
  if (typeof value === 'string' && value.trimStart().startsWith('-----BEGIN')) {
    // A PEM as an HMAC secret is the algorithm-confusion attack: HS256 keyed with public bytes.
    throw optionError(factory, '"secret" is a PEM key: public keys go in "publicKey"')
  }
  if (typeof value === 'string' && isJwkText(value)) {
    // The same attack with a JWK or a JWKS pasted as JSON text: its public members are no secret.
    throw optionError(factory, '"secret" is a JWK as JSON: public keys go in "publicKey" or "jwks"')
  }
  if (typeof value === 'string') bytes = encoder.encode(value)
  // A copy through the constructor: a Buffer's own `slice()` is a view of the caller's memory,
  // so zeroing the secret after construction would key the (lazily imported) HMAC with zeros.
  else if (value instanceof Uint8Array) bytes = new Uint8Array(value)
  else throw optionError(factory, '"secret" must be a Uint8Array or a string')
  if (bytes.length === 0) throw optionError(factory, '"secret" must not be empty')
  if (bytes.length < minBytes) {
    throw optionError(
      factory,
      `"secret" must be at least ${minBytes} bytes for the chosen algorithm (RFC 7518 §3.2), got ${bytes.length}`,
    )
  }
  return bytes
}

/** Narrows an algorithm name to the HMAC family; asymmetric algorithms and `none` throw. */
export function assertHmacAlgorithm(factory: string, name: string, value: unknown): JwtAlgorithm {
  if (typeof value !== 'string' || !Object.hasOwn(HMAC_HASHES, value)) {
    throw optionError(
      factory,
      `"${name}" must be 'HS256', 'HS384' or 'HS512' (HMAC only), got ${JSON.stringify(String(value)).slice(0, 40)}`,
    )
  }
  return value as JwtAlgorithm
}
