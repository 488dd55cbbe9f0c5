/** An Authorization header with the Bearer (or DPoP) scheme and not exactly one token after it. */
export const INVALID_REQUEST = Symbol('invalid_request')

/** Any character `\s` matches (JavaScript whitespace, as `trim()` and `split(/\s+/)` see it). */
const WHITESPACE = /\s/

/** The schemes whose token jwtAuth reads: RFC 6750's and RFC 9449's. */
export type TokenScheme = 'bearer' | 'dpop'

/**
 * The token of an `Authorization: <scheme> <token>` header: the header trimmed and split at runs
 * of whitespace, the first part the scheme (any case). `undefined` for another scheme,
 * {@link INVALID_REQUEST} for the scheme with no token or more than one part after it.
 *
 * The usual header (`Bearer `, one space, then a token with no whitespace) is sliced without
 * building the split's array; anything else takes the split, so both give the same answer
 * (bearer.property.test.ts checks that on generated headers).
 */
export function schemeToken(
  authorization: string,
  scheme: TokenScheme,
): string | undefined | typeof INVALID_REQUEST {
  const n = scheme.length + 1
  if (authorization.length > n && startsWithScheme(authorization, scheme)) {
    const token = authorization.slice(n)
    if (!WHITESPACE.test(token)) return token
  }
  const parts = authorization.trim().split(/\s+/)
  if ((parts[0] as string).toLowerCase() !== scheme) return undefined
  return parts.length === 2 ? (parts[1] as string) : INVALID_REQUEST
}

/** {@link schemeToken} for `Bearer`. */
export function bearerToken(authorization: string): string | undefined | typeof INVALID_REQUEST {
  return schemeToken(authorization, 'bearer')
}

/**
 * Whether `authorization` starts with `<scheme> ` (the scheme in any case, then one space),
 * compared code by code: no slice, lower-cased copy or template per request. `code | 0x20` is a
 * letter's lower case, and only an ASCII letter gives a lower-case letter that way (the schemes
 * are letters only), so this matches exactly what `slice(0, n).toLowerCase() === 'bearer '` did.
 */
function startsWithScheme(authorization: string, scheme: TokenScheme): boolean {
  const n = scheme.length
  for (let i = 0; i < n; i++) {
    if ((authorization.charCodeAt(i) | 0x20) !== scheme.charCodeAt(i)) return false
  }
  return authorization.charCodeAt(n) === 32
}

/**
 * The text after `Bearer ` (any case, one space) as it stands, whitespace not yet looked for, or
 * `undefined` for any other header: the key jwtAuth looks up among tokens it has parsed before.
 * Those are base64url segments and dots, so a hit has no whitespace, and the \s scan
 * `bearerToken` makes (about 0.2 µs over a 180-character token) is left to a miss, which takes
 * the full path through `bearerToken`.
 */
export function bearerCandidate(authorization: string): string | undefined {
  return authorization.length > 7 && startsWithScheme(authorization, 'bearer')
    ? authorization.slice(7)
    : undefined
}
