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
  // Only ASCII letters lower-case to the scheme, so a match here is one the split would make.
  if (authorization.length > n && authorization.slice(0, n).toLowerCase() === `${scheme} `) {
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
