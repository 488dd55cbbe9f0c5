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

/** The time claims of a verified token, each a finite number or absent. */
export interface TimeClaims {
  exp: number | undefined
  nbf: number | undefined
  iat: number | undefined
}

/**
 * The time claims of a payload, or `null` when one is present but not a finite number: `exp:
 * 1e400` parses as Infinity, which jose would accept as "never expires".
 */
export function timeClaims(payload: JWTPayload): TimeClaims | null {
  const out: TimeClaims = { exp: undefined, nbf: undefined, iat: undefined }
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    const value: unknown = payload[claim]
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isFinite(value)) return null
    out[claim] = value
  }
  return out
}

/**
 * A JSON Web Key (RFC 7517): the members a signing or verifying key uses; other members are
 * allowed. Declared here, as {@link JWTPayload} is, so the published declarations never import
 * jose (a CommonJS consumer cannot `require` its ES module types).
 */
export interface JWK {
  kty?: string
  alg?: string
  use?: string
  key_ops?: string[]
  ext?: boolean
  kid?: string
  crv?: string
  x?: string
  y?: string
  d?: string
  n?: string
  e?: string
  k?: string
  p?: string
  q?: string
  dp?: string
  dq?: string
  qi?: string
  x5c?: string[]
  x5t?: string
  'x5t#S256'?: string
  x5u?: string
  [member: string]: unknown
}
