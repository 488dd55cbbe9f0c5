/**
 * The claims of a JWT: the registered ones typed, any other member `unknown`. The same shape as
 * jose's `JWTPayload` (values of either type are assignable to the other), declared here so the
 * published CommonJS declarations do not import the ESM-only `jose` package (TS1479 in a
 * CommonJS TypeScript project without `skipLibCheck`).
 *
 * @example
 * const payload: JWTPayload = { sub: 'u1', role: 'admin', exp: 1_900_000_000 }
 */
export interface JWTPayload {
  /** "iss" (Issuer) claim. */
  iss?: string
  /** "sub" (Subject) claim. */
  sub?: string
  /** "aud" (Audience) claim. */
  aud?: string | string[]
  /** "jti" (JWT ID) claim. */
  jti?: string
  /** "nbf" (Not Before) claim, seconds since the Unix epoch. */
  nbf?: number
  /** "exp" (Expiration Time) claim, seconds since the Unix epoch. */
  exp?: number
  /** "iat" (Issued At) claim, seconds since the Unix epoch. */
  iat?: number
  /** Any other claim. */
  [claim: string]: unknown
}
