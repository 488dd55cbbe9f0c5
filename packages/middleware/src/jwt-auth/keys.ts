import type { JWK } from 'jose'
import { createLocalJWKSet } from 'jose/jwks/local'
import { importJWK } from 'jose/key/import'
import { lazy } from '../internal/crypto'
import { isJoseError, type KeySource } from '../internal/keys/key-source'
import { formatValue, optionError } from '../internal/options'

/**
 * The public-key algorithms `jwtAuth` verifies and `signJwt` signs with: RSA PKCS#1 v1.5, RSA-PSS,
 * ECDSA on P-256 / P-384 / P-521, and EdDSA (Ed25519).
 *
 * @example
 * const algorithms: AsymmetricAlgorithm[] = ['RS256', 'ES256']
 * app.use('/api/*', jwtAuth({ jwks: 'https://auth.example.com/.well-known/jwks.json', algorithms }))
 */
export type AsymmetricAlgorithm =
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'EdDSA'

/** Every public-key algorithm, the default allow-list of a JWKS (each key still has to fit). */
export const ASYMMETRIC_ALGORITHMS: readonly AsymmetricAlgorithm[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
]

const RSA_ALGORITHMS = ASYMMETRIC_ALGORITHMS.slice(0, 6)
const EC_CURVES: Readonly<Record<string, AsymmetricAlgorithm>> = {
  'P-256': 'ES256',
  'P-384': 'ES384',
  'P-521': 'ES512',
}
const HASH_BITS: Readonly<Record<string, string>> = {
  'SHA-256': '256',
  'SHA-384': '384',
  'SHA-512': '512',
}
/** JWK members that only a private or secret key has. */
export const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const

/** Narrows an algorithm name to the public-key family; HMAC and `none` throw. */
export function assertAsymmetricAlgorithm(
  factory: string,
  name: string,
  value: unknown,
): AsymmetricAlgorithm {
  if (typeof value !== 'string' || !ASYMMETRIC_ALGORITHMS.includes(value as AsymmetricAlgorithm)) {
    throw optionError(
      factory,
      `"${name}" must be one of RS256/384/512, PS256/384/512, ES256/384/512 or EdDSA with a public key (HMAC needs "secret"), got ${formatValue(value)}`,
    )
  }
  return value as AsymmetricAlgorithm
}

export function isCryptoKey(value: unknown): value is CryptoKey {
  return (
    typeof value === 'object' &&
    value !== null &&
    'algorithm' in value &&
    'type' in value &&
    'usages' in value
  )
}

/** The algorithms a WebCrypto key was imported for (WebCrypto binds the hash and the curve). */
export function cryptoKeyAlgorithms(key: CryptoKey): AsymmetricAlgorithm[] {
  const algorithm = key.algorithm as { name: string; hash?: { name: string }; namedCurve?: string }
  const bits = algorithm.hash === undefined ? undefined : HASH_BITS[algorithm.hash.name]
  switch (algorithm.name) {
    case 'RSASSA-PKCS1-v1_5':
      return bits ? [`RS${bits}` as AsymmetricAlgorithm] : []
    case 'RSA-PSS':
      return bits ? [`PS${bits}` as AsymmetricAlgorithm] : []
    case 'ECDSA': {
      const alg = EC_CURVES[algorithm.namedCurve ?? '']
      return alg ? [alg] : []
    }
    case 'Ed25519':
      return ['EdDSA']
    default:
      return []
  }
}

/** The algorithms a JWK's key type fits (without looking at `alg`); `[]` for other types. */
export function jwkTypeAlgorithms(jwk: JWK): AsymmetricAlgorithm[] {
  if (jwk.kty === 'RSA') return RSA_ALGORITHMS
  const curve = jwk.kty === 'EC' ? EC_CURVES[jwk.crv ?? ''] : undefined
  if (curve !== undefined) return [curve]
  return jwk.kty === 'OKP' && jwk.crv === 'Ed25519' ? ['EdDSA'] : []
}

/** The algorithms a public JWK can verify, refusing private, secret and non-signing keys. */
function jwkAlgorithms(factory: string, jwk: JWK): AsymmetricAlgorithm[] {
  if (jwk.kty === 'oct') {
    throw optionError(factory, '"publicKey" is a symmetric JWK: an HMAC key goes in "secret"')
  }
  if (PRIVATE_MEMBERS.some((m) => m in jwk)) {
    throw optionError(factory, '"publicKey" must be a public key, got a private JWK')
  }
  if (jwk.use !== undefined && jwk.use !== 'sig') {
    throw optionError(factory, `"publicKey" has use ${formatValue(jwk.use)}, not "sig"`)
  }
  if (
    jwk.key_ops !== undefined &&
    !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify'))
  ) {
    throw optionError(factory, '"publicKey" key_ops does not allow "verify"')
  }
  const fits = jwkTypeAlgorithms(jwk)
  if (fits.length === 0) {
    throw optionError(
      factory,
      `"publicKey" is a JWK of an unsupported type ${formatValue(jwk.kty)}`,
    )
  }
  if (jwk.alg !== undefined) {
    if (!fits.includes(jwk.alg as AsymmetricAlgorithm)) {
      throw optionError(
        factory,
        `"publicKey" has alg ${formatValue(jwk.alg)}, which does not fit its key type`,
      )
    }
    return [jwk.alg as AsymmetricAlgorithm]
  }
  return fits
}

// DER of the AlgorithmIdentifier OIDs (and curve OIDs) as hex: enough to know the key type of
// a PEM at construction without importing it (WebCrypto import is async).
const OID_RSA = '06092a864886f70d010101'
const OID_EC = '06072a8648ce3d0201'
const OID_CURVES: Readonly<Record<string, AsymmetricAlgorithm>> = {
  '06082a8648ce3d030107': 'ES256',
  '06052b81040022': 'ES384',
  '06052b81040023': 'ES512',
}
const OID_ED25519 = '06032b6570'

/** A PEM key (SPKI for `PUBLIC`, PKCS#8 for `PRIVATE`): its DER and the algorithms it fits. */
export interface PemKey {
  kind: 'PUBLIC' | 'PRIVATE'
  der: Uint8Array<ArrayBuffer>
  fits: AsymmetricAlgorithm[]
}

/** Parses a PEM key at construction, refusing the other kind and unsupported key types. */
export function parsePem(
  factory: string,
  name: string,
  pem: string,
  kind: 'PUBLIC' | 'PRIVATE',
): PemKey {
  const body = new RegExp(
    `^-----BEGIN ${kind} KEY-----([A-Za-z0-9+/=\\s]+)-----END ${kind} KEY-----$`,
  ).exec(pem.trim())?.[1]
  if (body === undefined) {
    const other = kind === 'PUBLIC' ? /PRIVATE KEY/.test(pem) : /PUBLIC KEY/.test(pem)
    throw optionError(
      factory,
      other
        ? `"${name}" must be a ${kind.toLowerCase()} key, got a ${kind === 'PUBLIC' ? 'private' : 'public'} key PEM`
        : `"${name}" as a string must be a PEM ("-----BEGIN ${kind} KEY-----")`,
    )
  }
  let der: Uint8Array<ArrayBuffer>
  try {
    der = Uint8Array.from(atob(body.replace(/\s+/g, '')), (c) => c.charCodeAt(0))
  } catch {
    throw optionError(factory, `"${name}" PEM is not valid base64`)
  }
  let hex = ''
  for (const byte of der.subarray(0, 40)) hex += byte.toString(16).padStart(2, '0')
  let fits: AsymmetricAlgorithm[] = []
  if (hex.includes(OID_RSA)) fits = RSA_ALGORITHMS
  else if (hex.includes(OID_ED25519)) fits = ['EdDSA']
  else if (hex.includes(OID_EC)) {
    for (const [oid, alg] of Object.entries(OID_CURVES)) if (hex.includes(oid)) fits = [alg]
  }
  if (fits.length === 0) throw optionError(factory, `"${name}" PEM holds an unsupported key type`)
  return { kind, der, fits }
}

/** The WebCrypto import parameters of an algorithm (the hash and curve bound to the key). */
function subtleParams(
  alg: AsymmetricAlgorithm,
): RsaHashedImportParams | EcKeyImportParams | Algorithm {
  if (alg === 'EdDSA') return { name: 'Ed25519' }
  const bits = alg.slice(2)
  if (alg.startsWith('ES'))
    return { name: 'ECDSA', namedCurve: `P-${bits === '512' ? '521' : bits}` }
  return { name: alg.startsWith('PS') ? 'RSA-PSS' : 'RSASSA-PKCS1-v1_5', hash: `SHA-${bits}` }
}

/** Imports a parsed PEM for one algorithm: `verify` for a public key, `sign` for a private one. */
export function importPem(pem: PemKey, alg: AsymmetricAlgorithm): Promise<CryptoKey> {
  const [format, usage] = pem.kind === 'PUBLIC' ? ['spki', 'verify'] : ['pkcs8', 'sign']
  return crypto.subtle.importKey(format as 'spki', pem.der, subtleParams(alg), false, [
    usage as KeyUsage,
  ])
}

/**
 * What one `publicKey` option can verify: `fits` (every algorithm of its key type) and the
 * default allow-list (the one algorithm its JWK names, else the most common of its type).
 */
export function publicKeyAlgorithms(
  factory: string,
  key: unknown,
): { fits: AsymmetricAlgorithm[]; defaults: AsymmetricAlgorithm[] } {
  let fits: AsymmetricAlgorithm[]
  if (isCryptoKey(key)) {
    if (key.type !== 'public') {
      throw optionError(
        factory,
        `"publicKey" must be a public CryptoKey, got a ${key.type} key${key.type === 'secret' ? ' (HMAC keys go in "secret")' : ''}`,
      )
    }
    fits = cryptoKeyAlgorithms(key)
  } else if (typeof key === 'string') {
    fits = parsePem(factory, 'publicKey', key, 'PUBLIC').fits
  } else if (typeof key === 'object' && key !== null && typeof (key as JWK).kty === 'string') {
    fits = jwkAlgorithms(factory, key as JWK)
  } else {
    throw optionError(
      factory,
      `"publicKey" must be a CryptoKey, a JWK or an SPKI PEM, got ${formatValue(key)}`,
    )
  }
  if (fits.length === 0)
    throw optionError(factory, '"publicKey" is a CryptoKey of an unsupported algorithm')
  return { fits, defaults: [fits[0] as AsymmetricAlgorithm] }
}

/** A key source over one public key, imported on first use once per allowed algorithm. */
export function publicKeySource(
  key: CryptoKey | JWK | string,
  algorithms: readonly AsymmetricAlgorithm[],
): KeySource {
  const copy =
    typeof key === 'string'
      ? parsePem('jwtAuth', 'publicKey', key, 'PUBLIC')
      : isCryptoKey(key)
        ? key
        : structuredClone(key)
  const keys = new Map(
    algorithms.map((alg) => {
      const load = isCryptoKey(copy)
        ? () => Promise.resolve(copy)
        : 'der' in copy
          ? () => importPem(copy, alg)
          : () => importJWK(copy, alg) as Promise<CryptoKey>
      return [alg as string, lazy(load)] as const
    }),
  )
  return {
    key: (header) => {
      const load = header.alg === undefined ? undefined : keys.get(header.alg)
      return load ? load() : Promise.reject(new Error('algorithm not allowed'))
    },
    generation: () => 0,
  }
}

/** A key source over a JWKS given as an object (`{ keys: [...] }`), checked at construction. */
export function localJwksSource(factory: string, jwks: unknown): KeySource {
  const keys = (jwks as { keys?: unknown } | null)?.keys
  // A member that is no object is left to jose's check below (`in` would throw on it).
  const secretOrPrivate = (k: unknown) =>
    typeof k === 'object' &&
    k !== null &&
    ((k as JWK).kty === 'oct' || PRIVATE_MEMBERS.some((m) => m in k))
  if (Array.isArray(keys) && keys.some(secretOrPrivate)) {
    throw optionError(factory, '"jwks" must hold public keys only (no private or symmetric JWK)')
  }
  let set: ReturnType<typeof createLocalJWKSet>
  try {
    set = createLocalJWKSet(jwks as { keys: JWK[] })
  } catch {
    throw optionError(factory, '"jwks" must be a URL or a JWKS object ({ keys: [...] })')
  }
  return { key: set as KeySource['key'], generation: () => 0 }
}

export { isJoseError, type KeySource }
