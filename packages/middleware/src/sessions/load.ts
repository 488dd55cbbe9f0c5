/**
 * Finding the request's session: the signed IDs among the cookie's copies, and the one live
 * session they point at.
 */
import type { CookieSigner } from '../internal/cookie-signing'
import type { SessionData, SessionStore } from './store'

/** `randomToken(32)`: 256 random bits as 43 base64url characters. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/
/** An id, a dot and an HMAC-SHA256 (43 chars): anything much longer is not ours. */
const MAX_COOKIE_LENGTH = 128

/**
 * The session the cookies point at. Every copy is looked at (cookie tossing puts a junk or a
 * foreign copy first); only signed IDs reach the store. Exactly one live session → that one;
 * none or several → none.
 */
export async function loadSession(
  signer: CookieSigner,
  activeStore: SessionStore,
  copies: string[],
): Promise<{ id: string; data: SessionData } | null> {
  const ids: string[] = []
  for (const raw of copies) {
    if (raw.length > MAX_COOKIE_LENGTH) continue
    const id = signer.remembered(raw) ?? (await signer.unsign(raw))
    if (id !== null && SESSION_ID.test(id) && !ids.includes(id)) ids.push(id)
  }
  if (ids.length === 0) return null
  let found: { id: string; data: SessionData } | null = null
  for (const id of ids) {
    const stored = await activeStore.get(id)
    if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) continue
    // Two live sessions in one request: one may be an attacker's, planted from a sibling
    // subdomain. There is no telling which, so neither is adopted.
    if (found !== null) return null
    found = { id, data: stored }
  }
  return found
}
