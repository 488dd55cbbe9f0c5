/**
 * The compact JWS of a JWT, verified the way jose's `jwtVerify` does it, in one pass: the token
 * is split and decoded once, the key comes from the middleware's key source (jose still imports
 * keys and picks JWKS members), and the signature is one `crypto.subtle.verify` with that key.
 * jose's general path re-validates its options, copies headers and keys and re-checks the key
 * on every call; on a token seen for the first time that was a good share of the middleware's
 * cost beside the verify itself.
 */
import { fromBase64url } from '../internal/crypto'
import { HMAC_HASHES, type JwtAlgorithm } from './hmac'
import { type AsymmetricAlgorithm, cryptoKeyAlgorithms, isCryptoKey } from './keys'

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const ascii = new TextEncoder()

/** A compact JWS whose form and header passed, its signature not yet checked. */
export interface CompactJws {
  /** The protected header (a JSON object). */
  header: Record<string, unknown>
  /** `header.alg`, one of the allowed algorithms. */
  alg: JwtAlgorithm | AsymmetricAlgorithm
  /** The decoded payload bytes, parsed only once the signature holds. */
  payload: Uint8Array<ArrayBuffer>
  signature: Uint8Array<ArrayBuffer>
  /** `<header>.<payload>` as bytes: what the signature covers. */
  signingInput: Uint8Array<ArrayBuffer>
}

/** `bytes` as strict UTF-8 (invalid sequences refused, as jose refuses them), or `null`. */
export function utf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    return null
  }
}

/** The JSON object in `text`, or `null` for anything else. */
export function jsonObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  // JSON.parse makes plain objects only: arrays and null are the non-objects left to refuse.
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null
}

/** A media type as jose compares `typ`: lower case, `application/` added when no `/`. */
export function normalizeTyp(value: string): string {
  const lower = value.toLowerCase()
  return value.includes('/') ? lower : `application/${lower}`
}

/**
 * Parses a compact JWS (`header.payload.signature`) and checks what needs no key: three
 * canonical base64url segments, a JSON object header, an allowed `alg` (never `none`: it is
 * never allowed), and `crit` as jose reads it for a JWT. `b64` is the only extension understood,
 * and only as `true`: an unencoded payload is not a JWT. `null` for anything else.
 */
export function parseCompact(token: string, allowed: ReadonlySet<string>): CompactJws | null {
  const first = token.indexOf('.')
  const second = first < 0 ? -1 : token.indexOf('.', first + 1)
  if (second < 0 || token.indexOf('.', second + 1) >= 0) return null
  const headerBytes = fromBase64url(token.slice(0, first))
  const payload = fromBase64url(token.slice(first + 1, second))
  const signature = fromBase64url(token.slice(second + 1))
  if (headerBytes === null || payload === null || signature === null) return null
  const header = jsonObject(utf8(headerBytes))
  if (header === null) return null
  const { alg, crit } = header
  if (typeof alg !== 'string' || !allowed.has(alg)) return null
  if (crit !== undefined) {
    if (!Array.isArray(crit) || crit.length === 0 || crit.some((name) => name !== 'b64')) {
      return null
    }
    if (header.b64 !== true) return null
  }
  return {
    header,
    alg: alg as CompactJws['alg'],
    payload,
    signature,
    // Every segment is base64url, so the text is ASCII and its UTF-8 bytes are its characters.
    signingInput: ascii.encode(token.slice(0, second)),
  }
}

/** The `crypto.subtle.verify` parameters of each algorithm (hash and curve are bound to keys). */
const VERIFY_PARAMS: Readonly<Record<string, AlgorithmIdentifier | RsaPssParams | EcdsaParams>> = {
  HS256: 'HMAC',
  HS384: 'HMAC',
  HS512: 'HMAC',
  RS256: 'RSASSA-PKCS1-v1_5',
  RS384: 'RSASSA-PKCS1-v1_5',
  RS512: 'RSASSA-PKCS1-v1_5',
  // RFC 7518 §3.5: the salt is as long as the hash output.
  PS256: { name: 'RSA-PSS', saltLength: 32 },
  PS384: { name: 'RSA-PSS', saltLength: 48 },
  PS512: { name: 'RSA-PSS', saltLength: 64 },
  // JOSE's ECDSA signature is r || s, the same IEEE P1363 form WebCrypto verifies.
  ES256: { name: 'ECDSA', hash: 'SHA-256' },
  ES384: { name: 'ECDSA', hash: 'SHA-384' },
  ES512: { name: 'ECDSA', hash: 'SHA-512' },
  EdDSA: 'Ed25519',
}

/** RSA keys below this size are refused for RS* and PS* (RFC 7518 §3.3, as jose refuses them). */
export const MIN_RSA_BITS = 2048

/**
 * Whether `key` may verify `alg`: a verify key of the algorithm's own type, hash and curve (an
 * HMAC secret only for HS*, a public key only for the rest, RSA of at least 2048 bits), as jose
 * checks a key before using it. WebCrypto would catch most mismatches itself; this refuses them
 * before any work.
 */
export function keyFits(key: unknown, alg: string): key is CryptoKey {
  if (!isCryptoKey(key) || !key.usages.includes('verify')) return false
  const algorithm = key.algorithm as { name: string; hash?: { name: string } }
  if (Object.hasOwn(HMAC_HASHES, alg)) {
    return (
      key.type === 'secret' &&
      algorithm.name === 'HMAC' &&
      algorithm.hash?.name === HMAC_HASHES[alg as JwtAlgorithm]
    )
  }
  if (key.type !== 'public' || !cryptoKeyAlgorithms(key).includes(alg as AsymmetricAlgorithm)) {
    return false
  }
  return !alg.startsWith('RS') && !alg.startsWith('PS')
    ? true
    : (key.algorithm as RsaHashedKeyAlgorithm).modulusLength >= MIN_RSA_BITS
}

/** Whether `key` verifies the signature of `jws`: `false` for a key that does not fit `alg`. */
export async function signatureValid(jws: CompactJws, key: unknown): Promise<boolean> {
  if (!keyFits(key, jws.alg)) return false
  try {
    return await crypto.subtle.verify(
      VERIFY_PARAMS[jws.alg] as AlgorithmIdentifier,
      key,
      jws.signature,
      jws.signingInput,
    )
  } catch {
    // A signature WebCrypto cannot even read (wrong length for the curve, …) is simply invalid.
    return false
  }
}
