/** An Authorization header with the Bearer scheme and not exactly one token after it. */
export const INVALID_REQUEST = Symbol('invalid_request')

/** Any character `\s` matches (JavaScript whitespace, as `trim()` and `split(/\s+/)` see it). */
const WHITESPACE = /\s/

/**
 * The token of an `Authorization: Bearer <token>` header: the header trimmed and split at runs
 * of whitespace, the first part the scheme (any case). `undefined` for another scheme,
 * {@link INVALID_REQUEST} for Bearer with no token or more than one part after it.
 *
 * The usual header (`Bearer `, one space, then a token with no whitespace) is sliced without
 * building the split's array; anything else takes the split, so both give the same answer
 * (bearer.property.test.ts checks that on generated headers).
 */
export function bearerToken(authorization: string): string | undefined | typeof INVALID_REQUEST {
  // Only ASCII letters lower-case to "bearer", so a match here is one the split would make.
  if (authorization.length > 7 && authorization.slice(0, 7).toLowerCase() === 'bearer ') {
    const token = authorization.slice(7)
    if (!WHITESPACE.test(token)) return token
  }
  const parts = authorization.trim().split(/\s+/)
  if ((parts[0] as string).toLowerCase() !== 'bearer') return undefined
  return parts.length === 2 ? (parts[1] as string) : INVALID_REQUEST
}
