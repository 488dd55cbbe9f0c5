import { SignJWT } from 'jose'
import {
  assertKnownKeys,
  assertNonEmptyString,
  assertStringArray,
  optionError,
} from '../internal/options'
import { assertHmacAlgorithm, type JwtAlgorithm, MIN_SECRET_BYTES, secretBytes } from './hmac'
import type { JWTPayload } from './payload'

/**
 * Options of {@link signJwt}.
 *
 * @example
 * const options: SignJwtOptions = { expiresIn: '2h', issuer: 'https://auth.example.com' }
 * const token = await signJwt({ sub: 'u1' }, process.env.JWT_SECRET!, options)
 */
export interface SignJwtOptions {
  /** Lifetime: a duration string (`'15m'`, `'2h'`, `'7d'`) or a number of seconds. Unset: no `exp`. */
  expiresIn?: string | number
  /** Signing algorithm. Default `'HS256'`. */
  algorithm?: JwtAlgorithm
  /** `iss` claim. */
  issuer?: string
  /** `aud` claim. */
  audience?: string | string[]
  /** Not valid before: a duration string or a number of seconds from now. Unset: no `nbf`. */
  notBefore?: string | number
}

const KNOWN = ['expiresIn', 'algorithm', 'issuer', 'audience', 'notBefore'] as const
// jose's duration grammar, positive amounts only: a token born expired is a bug, not a feature.
const DURATION =
  /^\d+(?:\.\d+)?\s*(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?|y|yrs?|years?)$/i

function lifetime(name: string, value: unknown): string | number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) {
      throw optionError('signJwt', `"${name}" must be a non-negative number of seconds`)
    }
    return Math.floor(value)
  }
  if (typeof value === 'string' && DURATION.test(value.trim())) return value.trim()
  throw optionError('signJwt', `"${name}" must be seconds or a duration such as '2h'`)
}

/**
 * Signs a JWT with an HMAC secret (jose `SignJWT`). Sets `iat`, and `exp` / `nbf` / `iss` / `aud`
 * from the options; the header is `{ alg, typ: 'JWT' }`.
 *
 * @param payload claims, for example `{ sub: 'user-1', role: 'admin' }`
 * @param secret the same secret `jwtAuth` verifies with; at least 32 / 48 / 64 bytes for
 *   HS256 / HS384 / HS512 (RFC 7518 §3.2)
 * @param options.expiresIn unset (no expiry); `'2h'` or `7200` for two hours
 * @param options.algorithm default `'HS256'`
 * @example
 * ```ts
 * const token = await signJwt({ sub: user.id, role: 'admin' }, secret, { expiresIn: '2h' })
 * ```
 */
export async function signJwt(
  payload: JWTPayload,
  secret: Uint8Array | string,
  options: SignJwtOptions = {},
): Promise<string> {
  const factory = 'signJwt'
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw optionError(factory, 'payload must be a claims object')
  }
  assertKnownKeys(factory, options, KNOWN)
  const alg = assertHmacAlgorithm(factory, 'algorithm', options.algorithm ?? 'HS256')
  const key = secretBytes(factory, secret, MIN_SECRET_BYTES[alg])
  const now = Math.floor(Date.now() / 1000)
  const jwt = new SignJWT({ ...payload }).setProtectedHeader({ alg, typ: 'JWT' }).setIssuedAt(now)
  if (options.expiresIn !== undefined) {
    const exp = lifetime('expiresIn', options.expiresIn)
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
  return jwt.sign(key)
}
