/**
 * Finding the request's session: the signed IDs among the cookie's copies, and the one live
 * session they point at.
 */
import type { CookieSigner } from '../internal/cookies/cookie-signing'
import { MemorySessionStore, readNow } from './memory-store'
import type { SessionData, SessionStore } from './store'

/** `randomToken(32)`: 256 random bits as 43 base64url characters. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/
/** An id, a dot and an HMAC-SHA256 (43 chars): anything much longer is not ours. */
const MAX_COOKIE_LENGTH = 128

/** The one live session the request's cookies point at. */
export type LoadedSession = { id: string; data: SessionData } | null

/**
 * The session the cookies point at. Every copy is looked at (cookie tossing puts a junk or a
 * foreign copy first); only signed IDs reach the store. Exactly one live session → that one;
 * none or several → none.
 *
 * Without a promise when nothing needs waiting for: every copy's signature is one the signer
 * remembers and the store is the memory store (the common request on one process); an `await`
 * per request costs a turn of the microtask queue each. Anything else takes the same steps
 * asynchronously.
 */
export function loadSession(
  signer: CookieSigner,
  activeStore: SessionStore,
  copies: string[],
): LoadedSession | Promise<LoadedSession> {
  if (!(activeStore instanceof MemorySessionStore)) return loadAsync(signer, activeStore, copies)
  const ids: string[] = []
  for (const raw of copies) {
    if (raw.length > MAX_COOKIE_LENGTH) continue
    const id = signer.remembered(raw)
    if (id === undefined) return loadAsync(signer, activeStore, copies)
    addId(ids, id)
  }
  if (ids.length === 0) return null
  const search = new LiveSearch()
  for (const id of ids) {
    const stored = readNow(activeStore, id)
    if (stored === undefined) return findLive(activeStore, ids)
    if (search.ambiguousWith(id, stored)) return null
  }
  return search.found
}

async function loadAsync(
  signer: CookieSigner,
  activeStore: SessionStore,
  copies: string[],
): Promise<LoadedSession> {
  const ids: string[] = []
  for (const raw of copies) {
    if (raw.length > MAX_COOKIE_LENGTH) continue
    addId(ids, signer.remembered(raw) ?? (await signer.unsign(raw)))
  }
  return ids.length === 0 ? null : findLive(activeStore, ids)
}

/** Adds a signed ID of the right shape, once. */
function addId(ids: string[], id: string | null): void {
  if (id !== null && SESSION_ID.test(id) && !ids.includes(id)) ids.push(id)
}

/**
 * The one rule of the search, whichever way the store is read: a stored value that is not a
 * session object is skipped; the first live session is kept; a second one makes the request
 * ambiguous.
 */
class LiveSearch {
  found: LoadedSession = null

  /** Adds what the store holds for `id`; `true` when that makes two live sessions. */
  ambiguousWith(id: string, stored: unknown): boolean {
    if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return false
    // Two live sessions in one request: one may be an attacker's, planted from a sibling
    // subdomain. There is no telling which, so neither is adopted.
    if (this.found !== null) return true
    this.found = { id, data: stored as SessionData }
    return false
  }
}

async function findLive(activeStore: SessionStore, ids: string[]): Promise<LoadedSession> {
  const search = new LiveSearch()
  for (const id of ids) {
    if (search.ambiguousWith(id, await activeStore.get(id))) return null
  }
  return search.found
}
