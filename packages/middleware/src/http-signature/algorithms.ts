/**
 * The five algorithms of RFC 9421 §3.3 and their WebCrypto forms. The key decides the algorithm
 * (§3.3.7): a `CryptoKey` carries it (WebCrypto binds the hash, the curve and the padding to the
 * key), a JWK names it with `alg` or implies it by its type; a signature's `alg` parameter can
 * only agree with the key, never choose for it.
 */
import type { Jwk as JWK } from '../internal/keys/jwk'

/**
 * An algorithm of the HTTP Signature Algorithms registry (RFC 9421 §6.2) that `httpSignature`
 * verifies and `signRequest` signs with.
 *
 * @example
 * const alg: SignatureAlgorithm = 'ed25519'
 */
export type SignatureAlgorithm =
  | 'ed25519'
  | 'ecdsa-p256-sha256'
  | 'rsa-pss-sha512'
  | 'rsa-v1_5-sha256'
  | 'hmac-sha256'

/** Every algorithm, in the registry's order of preference for new deployments. */
export const SIGNATURE_ALGORITHMS: readonly SignatureAlgorithm[] = [
  'ed25519',
  'ecdsa-p256-sha256',
  'rsa-pss-sha512',
  'rsa-v1_5-sha256',
  'hmac-sha256',
]

type ImportParams =
  | AlgorithmIdentifier
  | RsaHashedImportParams
  | EcKeyImportParams
  | HmacImportParams
type SignParams = AlgorithmIdentifier | RsaPssParams | EcdsaParams

/** How WebCrypto imports a key of each algorithm, and signs or verifies with it. */
const WEBCRYPTO: Readonly<Record<SignatureAlgorithm, { key: ImportParams; sign: SignParams }>> = {
  ed25519: { key: { name: 'Ed25519' }, sign: { name: 'Ed25519' } },
  'ecdsa-p256-sha256': {
    key: { name: 'ECDSA', namedCurve: 'P-256' },
    sign: { name: 'ECDSA', hash: 'SHA-256' },
  },
  // §3.3.1: the salt is as long as the hash output, 64 bytes.
  'rsa-pss-sha512': {
    key: { name: 'RSA-PSS', hash: 'SHA-512' },
    sign: { name: 'RSA-PSS', saltLength: 64 },
  },
  'rsa-v1_5-sha256': {
    key: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    sign: { name: 'RSASSA-PKCS1-v1_5' },
  },
  'hmac-sha256': { key: { name: 'HMAC', hash: 'SHA-256' }, sign: { name: 'HMAC' } },
}

/** True for a WebCrypto key (any realm: checked by shape, not `instanceof`). */
export function isCryptoKey(value: unknown): value is CryptoKey {
  return (
    typeof value === 'object' &&
    value !== null &&
    'algorithm' in value &&
    'type' in value &&
    'usages' in value
  )
}

/** The algorithm a WebCrypto key was imported for, or `undefined` when it fits none of the five. */
export function algorithmOfCryptoKey(key: CryptoKey): SignatureAlgorithm | undefined {
  const a = key.algorithm as { name: string; hash?: { name: string }; namedCurve?: string }
  const hash = a.hash?.name
  switch (a.name) {
    case 'Ed25519':
      return 'ed25519'
    case 'ECDSA':
      return a.namedCurve === 'P-256' ? 'ecdsa-p256-sha256' : undefined
    case 'RSA-PSS':
      return hash === 'SHA-512' ? 'rsa-pss-sha512' : undefined
    case 'RSASSA-PKCS1-v1_5':
      return hash === 'SHA-256' ? 'rsa-v1_5-sha256' : undefined
    case 'HMAC':
      return hash === 'SHA-256' ? 'hmac-sha256' : undefined
    default:
      return undefined
  }
}

/** JWA names (and the registry's own names) of a JWK's `alg`, for the algorithms above. */
const JWK_ALG: Readonly<Record<string, SignatureAlgorithm>> = {
  EdDSA: 'ed25519',
  Ed25519: 'ed25519',
  ES256: 'ecdsa-p256-sha256',
  PS512: 'rsa-pss-sha512',
  RS256: 'rsa-v1_5-sha256',
  HS256: 'hmac-sha256',
  ed25519: 'ed25519',
  'ecdsa-p256-sha256': 'ecdsa-p256-sha256',
  'rsa-pss-sha512': 'rsa-pss-sha512',
  'rsa-v1_5-sha256': 'rsa-v1_5-sha256',
  'hmac-sha256': 'hmac-sha256',
}

/** The key type (and curve) each algorithm needs. */
const KTY: Readonly<Record<SignatureAlgorithm, { kty: string; crv?: string }>> = {
  ed25519: { kty: 'OKP', crv: 'Ed25519' },
  'ecdsa-p256-sha256': { kty: 'EC', crv: 'P-256' },
  'rsa-pss-sha512': { kty: 'RSA' },
  'rsa-v1_5-sha256': { kty: 'RSA' },
  'hmac-sha256': { kty: 'oct' },
}

/**
 * The algorithm a JWK is for: its `alg` when it names one of the five (and its type fits),
 * else what its type implies (OKP Ed25519, EC P-256, oct). An RSA key without `alg` is
 * ambiguous (PSS or v1.5) and gets `undefined`: the header never picks.
 */
export function algorithmOfJwk(jwk: JWK): SignatureAlgorithm | undefined {
  let alg: SignatureAlgorithm | undefined
  if (jwk.alg !== undefined) alg = Object.hasOwn(JWK_ALG, jwk.alg) ? JWK_ALG[jwk.alg] : undefined
  else if (jwk.kty === 'OKP') alg = 'ed25519'
  else if (jwk.kty === 'EC') alg = 'ecdsa-p256-sha256'
  else if (jwk.kty === 'oct') alg = 'hmac-sha256'
  if (alg === undefined) return undefined
  const need = KTY[alg]
  if (jwk.kty !== need.kty || (need.crv !== undefined && jwk.crv !== need.crv)) return undefined
  return alg
}

/** The members of a JWK WebCrypto needs to import its public half (or, for `oct`, the secret). */
const PUBLIC_MEMBERS = ['kty', 'crv', 'x', 'y', 'n', 'e', 'k'] as const
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const

/**
 * Imports a JWK for `alg`: its public half to verify, the whole key to sign. `alg`, `use` and
 * `key_ops` are left out (WebCrypto would refuse `EdDSA` or a registry name as `alg`); the
 * caller has already matched the key to `alg`.
 */
export function importJwk(
  jwk: JWK,
  alg: SignatureAlgorithm,
  usage: 'sign' | 'verify',
): Promise<CryptoKey> {
  const members: readonly string[] =
    usage === 'sign' || alg === 'hmac-sha256'
      ? [...PUBLIC_MEMBERS, ...PRIVATE_MEMBERS]
      : PUBLIC_MEMBERS
  const bare: Record<string, unknown> = {}
  for (const m of members)
    if ((jwk as Record<string, unknown>)[m] !== undefined)
      bare[m] = (jwk as Record<string, unknown>)[m]
  return crypto.subtle.importKey('jwk', bare as JsonWebKey, WEBCRYPTO[alg].key, false, [usage])
}

/** Verifies `signature` over `data` with `key`, which was imported for `alg`. */
export function verifyBytes(
  alg: SignatureAlgorithm,
  key: CryptoKey,
  signature: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  return crypto.subtle.verify(WEBCRYPTO[alg].sign, key, signature, data)
}

/** Signs `data` with `key`, which was imported for `alg`. */
export async function signBytes(
  alg: SignatureAlgorithm,
  key: CryptoKey,
  data: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.sign(WEBCRYPTO[alg].sign, key, data))
}
