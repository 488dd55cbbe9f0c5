import type { JWK as JoseJWK } from 'jose'
import { SignJWT } from 'jose/jwt/sign'
import { importJWK } from 'jose/key/import'
import {
  assertKnownKeys,
  assertNonEmptyString,
  assertStringArray,
  formatValue,
  optionError,
} from '../internal/options'
import { assertHmacAlgorithm, type JwtAlgorithm, MIN_SECRET_BYTES, secretBytes } from './hmac'
import {
  type AsymmetricAlgorithm,
  assertAsymmetricAlgorithm,
  cryptoKeyAlgorithms,
  importPem,
  isCryptoKey,
  jwkTypeAlgorithms,
  parsePem,
} from './keys'
import type { JWK, JWTPayload } from './payload'

/**
 * Options of {@link signJwt}.
 *
 * @example
 * const options: SignJwtOptions = { expiresIn: '2h', issuer: 'https://auth.example.com' }
 * const token = await signJwt({ sub: 'u1' }, process.env.JWT_SECRET!, options)
 */
export interface SignJwtOptions {
  /**
   * Lifetime: a duration string (`'15m'`, `'2h'`, `'7d'`) or a number of seconds. Default
   * 15 minutes, unless the payload sets `exp` itself: a token
   * `jwtAuth` accepts by default (it requires `exp`). `false`: no `exp`, a token that never expires
   * (`jwtAuth` then needs `requireExp: false`).
   */
  expiresIn?: string | number | false
  /**
   * Signing algorithm. Default `'HS256'` for a secret; for a private key, the algorithm its
   * CryptoKey was imported for, its JWK's `alg`, or the usual one of its type (`RS256`,
   * `ES256`/`ES384`/`ES512` by curve, `EdDSA`).
   */
  algorithm?: JwtAlgorithm | AsymmetricAlgorithm
  /** `kid` header: the JWKS entry that verifies the token. Default: the private JWK's `kid`. */
  kid?: string
  /** `typ` header. Default `'JWT'`; `'at+jwt'` for RFC 9068 access tokens. */
  typ?: string
  /** `iss` claim. */
  issuer?: string
  /** `aud` claim. */
  audience?: string | string[]
  /** Not valid before: a duration string or a number of seconds from now. Unset: no `nbf`. */
  notBefore?: string | number
}

/**
 * Seconds a token from {@link signJwt} lives when neither `expiresIn` nor the payload's `exp` says:
 * 15 minutes, a usual access-token lifetime. `jwtAuth` cannot revoke a bearer token, so its
 * lifetime is how long a stolen one works; a client that needs longer sessions refreshes.
 */
export const SIGN_JWT_DEFAULT_LIFETIME = 15 * 60

const KNOWN = ['expiresIn', 'algorithm', 'kid', 'typ', 'issuer', 'audience', 'notBefore'] as const
// jose's duration grammar (at most one space before the unit), positive amounts only: a token
// born expired is a bug, not a feature.
const DURATION =
  /^\d+(?:\.\d+)? ?(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?|y|yrs?|years?)$/i

function lifetime(name: string, value: unknown): string | number {
  if (value === null && name === 'expiresIn') {
    throw optionError(
      'signJwt',
      '"expiresIn" is null: for a token without exp, say expiresIn: false',
    )
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) {
      throw optionError('signJwt', `"${name}" must be a non-negative number of seconds`)
    }
    return Math.floor(value)
  }
  if (typeof value === 'string' && DURATION.test(value.trim())) return value.trim()
  throw optionError('signJwt', `"${name}" must be seconds or a duration such as '2h'`)
}

/** A private key for signing: a `CryptoKey`, a private JWK or a PKCS#8 PEM. */
export type SigningKey = CryptoKey | JWK | string

/** The key and algorithm to sign with, validated: an HMAC secret or a private key. */
async function signingKey(
  factory: string,
  key: Uint8Array | SigningKey,
  option: unknown,
): Promise<{ alg: string; key: CryptoKey | Uint8Array; kid?: string }> {
  const isPem = typeof key === 'string' && key.trimStart().startsWith('-----BEGIN')
  if (typeof key === 'string' && !isPem) {
    const alg = assertHmacAlgorithm(factory, 'algorithm', option ?? 'HS256')
    return { alg, key: secretBytes(factory, key, MIN_SECRET_BYTES[alg]) }
  }
  if (key instanceof Uint8Array) {
    const alg = assertHmacAlgorithm(factory, 'algorithm', option ?? 'HS256')
    return { alg, key: secretBytes(factory, key, MIN_SECRET_BYTES[alg]) }
  }
  const chosen =
    option === undefined ? undefined : assertAsymmetricAlgorithm(factory, 'algorithm', option)
  const pick = (fits: AsymmetricAlgorithm[]): AsymmetricAlgorithm => {
    const alg = chosen ?? fits[0]
    if (alg === undefined || !fits.includes(alg)) {
      throw optionError(
        factory,
        `"algorithm" ${formatValue(alg)} does not fit the private key (it signs ${fits.join(', ') || 'nothing we support'})`,
      )
    }
    return alg
  }
  if (typeof key === 'string') {
    const pem = parsePem(factory, 'key', key, 'PRIVATE')
    const alg = pick(pem.fits)
    return { alg, key: await importPem(pem, alg) }
  }
  if (isCryptoKey(key)) {
    if (key.type !== 'private') {
      throw optionError(factory, `the key must be a private CryptoKey, got a ${key.type} key`)
    }
    return { alg: pick(cryptoKeyAlgorithms(key)), key }
  }
  if (typeof key !== 'object' || key === null || typeof (key as JWK).kty !== 'string') {
    throw optionError(
      factory,
      'the key must be a secret, a private CryptoKey, a private JWK or a PEM',
    )
  }
  const jwk = key as JWK
  if (jwk.kty === 'oct' || typeof jwk.d !== 'string') {
    throw optionError(factory, 'the JWK must be a private RSA, EC or OKP key (with "d")')
  }
  const fits = jwkTypeAlgorithms(jwk).filter((a) => jwk.alg === undefined || a === jwk.alg)
  const alg = pick(fits)
  return { alg, key: (await importJWK(jwk as JoseJWK, alg)) as CryptoKey, kid: jwk.kid }
}

/**
 * Signs a JWT (jose `SignJWT`) with an HMAC secret or a private key. Sets `iat`, `exp` (15 minutes
 * from now unless `expiresIn` or the payload says otherwise, so a default `jwtAuth` accepts the
 * token), and `nbf` / `iss` / `aud` from the options; the header is `{ alg, typ: 'JWT' }`, plus
 * `kid`.
 *
 * @param payload claims, for example `{ sub: 'user-1', role: 'admin' }`
 * @param key the secret `jwtAuth` verifies with (at least 32 / 48 / 64 bytes for HS256 / HS384
 *   / HS512, RFC 7518 §3.2), or a private key (`CryptoKey`, private JWK, PKCS#8 PEM) whose
 *   public half `jwtAuth` verifies with (`publicKey` or a JWKS)
 * @param options.expiresIn default 15 minutes (`'15m'`; the payload's own `exp` when it has one);
 *   `'2h'` or `7200` for two hours; `false` for no `exp`
 * @param options.algorithm default `'HS256'` for a secret, the key's own for a private key
 * @param options.kid default: the private JWK's `kid`, else none
 * @param options.typ default `'JWT'`
 * @example
 * ```ts
 * const token = await signJwt({ sub: user.id, role: 'admin' }, secret, { expiresIn: '2h' })
 * const access = await signJwt({ sub: user.id }, privateKey, { algorithm: 'ES256', kid: 'k1' })
 * ```
 */
export async function signJwt(
  payload: JWTPayload,
  key: Uint8Array | SigningKey,
  options: SignJwtOptions = {},
): Promise<string> {
  const factory = 'signJwt'
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw optionError(factory, 'payload must be a claims object')
  }
  assertKnownKeys(factory, options, KNOWN)
  const signer = await signingKey(factory, key, options.algorithm)
  const kid =
    options.kid === undefined ? signer.kid : assertNonEmptyString(factory, 'kid', options.kid)
  const typ = options.typ === undefined ? 'JWT' : assertNonEmptyString(factory, 'typ', options.typ)
  const now = Math.floor(Date.now() / 1000)
  const jwt = new SignJWT({ ...payload })
    .setProtectedHeader(
      kid === undefined ? { alg: signer.alg, typ } : { alg: signer.alg, typ, kid },
    )
    .setIssuedAt(now)
  // The default lifetime fills in only what nobody chose: an `exp` in the payload stays.
  const expiresIn =
    options.expiresIn === undefined && payload.exp === undefined
      ? SIGN_JWT_DEFAULT_LIFETIME
      : options.expiresIn
  if (expiresIn !== undefined && expiresIn !== false) {
    const exp = lifetime('expiresIn', expiresIn)
    // jose reads a number as an absolute timestamp; ours means "seconds from now".
    jwt.setExpirationTime(typeof exp === 'number' ? now + exp : exp)
  }
  if (options.notBefore !== undefined) {
    const nbf = lifetime('notBefore', options.notBefore)
    jwt.setNotBefore(typeof nbf === 'number' ? now + nbf : nbf)
  }
  if (options.issuer !== undefined) {
    jwt.setIssuer(assertNonEmptyString(factory, 'issuer', options.issuer))
  }
  if (options.audience !== undefined) {
    jwt.setAudience(
      typeof options.audience === 'string'
        ? assertNonEmptyString(factory, 'audience', options.audience)
        : assertStringArray(factory, 'audience', options.audience, { allowEmpty: false }),
    )
  }
  return jwt.sign(signer.key)
}
