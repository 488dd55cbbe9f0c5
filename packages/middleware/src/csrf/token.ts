/**
 * csrf's layer 3, the double-submit token: making a token, finding ours among the copies of
 * the cookie, and comparing what the request sent with them.
 */
import type { CookieSigner } from '../internal/cookies/cookie-signing'
import { timingSafeEqual } from '../internal/crypto'

/** Printable ASCII without separators: survives the cookie, `document.cookie` and a header. */
const TOKEN = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]{1,256}$/
/** Longer cookie or header values are not ours and are not compared. */
export const MAX_TOKEN_LENGTH = 512

/** A new token from `generateToken`, signed for `binding` (the session ID, or '') with a signer. */
export async function newToken(
  generateToken: () => string,
  signer: CookieSigner | undefined,
  binding: string,
): Promise<string> {
  const raw = generateToken()
  if (typeof raw !== 'string' || !TOKEN.test(raw)) {
    throw new TypeError(
      'csrf: generateToken must return 1–256 printable ASCII characters without ";", ",", quotes, backslashes or spaces',
    )
  }
  return signer ? signer.sign(raw, binding) : raw
}

/**
 * Every copy of the cookie that is ours: signed by us for this session (with a secret), or
 * any well-formed value (without one; an attacker who can write cookies wins then anyway).
 */
export async function signedTokens(
  signer: CookieSigner,
  copies: string[],
  binding: string,
): Promise<string[]> {
  const out: string[] = []
  for (const copy of copies) {
    if (copy.length === 0 || copy.length > MAX_TOKEN_LENGTH) continue
    if ((await signer.unsign(copy, binding)) !== null) out.push(copy)
  }
  return out
}

/** Without a secret: every copy of a length a token of ours can have. */
export const plainTokens = (copies: string[]): string[] =>
  copies.filter((copy) => copy.length > 0 && copy.length <= MAX_TOKEN_LENGTH)

/** Whether `sent` equals one of `tokens`: every copy is compared (no early exit), each in constant time. */
export function matchesAny(sent: string, tokens: string[]): boolean {
  let match = false
  for (const token of tokens) match = timingSafeEqual(sent, token) || match
  return match
}
