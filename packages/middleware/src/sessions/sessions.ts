import type { Context, MiddlewareHandler } from 'hono'
import {
  appendDeleteCookie,
  appendSetCookie,
  type CookieSettings,
  getCookieCopies,
} from '../internal/cookie'
import {
  assertCookieName,
  assertCookieSettings,
  cookieOptions,
  MAX_COOKIE_AGE,
} from '../internal/cookie-settings'
import { assertSecretList, createCookieSigner, SESSION_BINDING } from '../internal/cookie-signing'
import { randomToken } from '../internal/crypto'
import { described } from '../internal/described'
import {
  assertBoolean,
  assertKnownKeys,
  assertNonEmptyString,
  assertPositiveInteger,
  optionError,
} from '../internal/options'
import { reject } from '../internal/reject'
import { sessionsDescription } from './description'
import { MemorySessionStore } from './memory-store'
import { applyChanges, isEmptyData, META_KEY, SessionState } from './session'
import { type SessionData, type SessionStore, updateSession } from './store'

/**
 * Options of {@link sessions}.
 *
 * @example
 * const options: SessionsOptions = {
 *   secret: process.env.SESSION_SECRET!,
 *   cookieName: '__Host-sid',
 *   maxAge: 30 * 60, // idle timeout with rolling: 30 minutes without a request
 *   rolling: true,
 *   absoluteTimeout: 12 * 3600, // logged out 12 hours after login, however active
 * }
 * app.use(sessions(options))
 */
export interface SessionsOptions {
  /**
   * HMAC secret(s) for the cookie signature (required, at least 32 characters each). With a list,
   * the first signs, all verify.
   */
  secret: string | string[]
  /** Cookie name. Default `'sid'`; `'__Host-sid'` is recommended on https (see the README). */
  cookieName?: string
  /**
   * Lifetime in seconds of the store entry and the cookie, counted from the last save. Without
   * `rolling` a save happens when the data changes; with it, on every request. Default `86400`.
   */
  maxAge?: number
  /**
   * Save on every request that carries a valid session, so `maxAge` becomes an idle timeout.
   * Default `false`.
   */
  rolling?: boolean
  /**
   * Seconds after creation (or `regenerate()`) at which the session ends, however active it is.
   * Unset: no absolute limit.
   */
  absoluteTimeout?: number
  /** Session store. Default: a `MemorySessionStore` per middleware, created on first use. */
  store?: SessionStore
  /** Context key of the {@link Session}. Default `'session'`. */
  contextKey?: string
  /**
   * Cookie attributes. Defaults: `HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` on https.
   * `httpOnly: false` is refused: scripts never need the session ID, and an XSS could steal it.
   */
  cookie?: Pick<CookieSettings, 'httpOnly' | 'secure' | 'sameSite' | 'path' | 'domain'>
}

const KNOWN = [
  'secret',
  'cookieName',
  'maxAge',
  'rolling',
  'absoluteTimeout',
  'store',
  'contextKey',
  'cookie',
] as const
/** `randomToken(32)`: 256 random bits as 43 base64url characters. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/
/** An id, a dot and an HMAC-SHA256 (43 chars): anything much longer is not ours. */
const MAX_COOKIE_LENGTH = 128

/**
 * Cookie sessions with server-side data. The cookie holds only `<id>.<HMAC-SHA256>` of a 256-bit
 * random ID; the data lives in `store`. Handlers get a {@link Session} as `c.get('session')` and
 * change it synchronously; the middleware saves it after the handler (also when the handler
 * throws), and only if something changed. A missing, tampered, unknown or expired cookie gives a
 * fresh empty session; a session that stays empty writes nothing and sets no cookie. A store that
 * fails gives 503 `Session store unavailable`.
 *
 * Saves merge key by key: only the keys this request set or deleted are applied to the session
 * as stored at save time (atomically when the store has `update`), so concurrent requests keep
 * each other's writes. Nothing is saved once `requestTimeout()` has answered. When the request
 * carries several cookies of this name, the one that verifies and exists in the store is used;
 * two such copies are ambiguous and neither is used, and so is a request with more than 8 copies.
 *
 * @param options.secret required, 32+ characters; a list rotates secrets (first signs, all verify)
 * @param options.cookieName default `'sid'`
 * @param options.maxAge default `86400` seconds
 * @param options.rolling default `false`
 * @param options.absoluteTimeout unset
 * @param options.store default `new MemorySessionStore()` (created lazily)
 * @param options.contextKey default `'session'`
 * @example
 * ```ts
 * app.use(sessions({ secret: process.env.SESSION_SECRET!, cookieName: '__Host-sid' }))
 * app.post('/login', async (c) => {
 *   const session = c.get('session')
 *   session.regenerate()
 *   session.set('userId', user.id)
 *   session.flash('notice', 'Welcome back')
 *   return c.redirect('/')
 * })
 * app.post('/logout', (c) => {
 *   c.get('session').destroy()
 *   return c.text('bye')
 * })
 * ```
 */
export function sessions(options: SessionsOptions): MiddlewareHandler {
  const factory = 'sessions'
  if (options === undefined) throw optionError(factory, '"secret" is required')
  assertKnownKeys(factory, options, KNOWN)
  const secrets = assertSecretList(factory, options.secret)
  const cookieName = assertCookieName(factory, 'cookieName', options.cookieName ?? 'sid')
  const maxAge = assertPositiveInteger(factory, 'maxAge', options.maxAge ?? 86_400)
  if (maxAge > MAX_COOKIE_AGE) {
    throw optionError(factory, `"maxAge" must be at most ${MAX_COOKIE_AGE} seconds (400 days)`)
  }
  const rolling =
    options.rolling === undefined ? false : assertBoolean(factory, 'rolling', options.rolling)
  const absoluteTimeout =
    options.absoluteTimeout === undefined
      ? undefined
      : assertPositiveInteger(factory, 'absoluteTimeout', options.absoluteTimeout)
  const contextKey = assertNonEmptyString(factory, 'contextKey', options.contextKey ?? 'session')
  const settings = assertCookieSettings(factory, cookieName, options.cookie, [
    'httpOnly',
    'secure',
    'sameSite',
    'path',
    'domain',
  ])
  if (settings.httpOnly === false) {
    throw optionError(
      factory,
      '"cookie.httpOnly" cannot be false: scripts never need the session ID, and an XSS could steal it',
    )
  }
  let store = options.store
  if (
    store !== undefined &&
    (store === null ||
      typeof store !== 'object' ||
      typeof store.get !== 'function' ||
      typeof store.set !== 'function' ||
      typeof store.destroy !== 'function' ||
      (store.update !== undefined && typeof store.update !== 'function'))
  ) {
    throw optionError(factory, '"store" must be a SessionStore with get, set and destroy')
  }
  const signer = createCookieSigner(secrets, 'sessions')

  const unavailable = (): never => reject(503, 'Session store unavailable', 'store_unavailable')

  /** Seconds the store entry and cookie live from now: `maxAge`, capped by the absolute limit. */
  const lifetime = (created: number | undefined, now: number): number => {
    if (absoluteTimeout === undefined || created === undefined) return maxAge
    const left = Math.ceil((created + absoluteTimeout * 1000 - now) / 1000)
    return Math.max(1, Math.min(maxAge, left))
  }
  const isPastAbsolute = (data: SessionData, now: number): boolean => {
    if (absoluteTimeout === undefined) return false
    const created = (data[META_KEY] as { created?: unknown } | undefined)?.created
    return typeof created === 'number' && now - created >= absoluteTimeout * 1000
  }

  /**
   * The session the cookies point at. Every copy is looked at (cookie tossing puts a junk or a
   * foreign copy first); only signed IDs reach the store. Exactly one live session → that one;
   * none or several → none.
   */
  const load = async (
    activeStore: SessionStore,
    copies: string[],
  ): Promise<{ id: string; data: SessionData } | null> => {
    const ids: string[] = []
    for (const raw of copies) {
      if (raw.length > MAX_COOKIE_LENGTH) continue
      const id = await signer.unsign(raw)
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

  const description = sessionsDescription(store)
  return described(description, async function sessions(c, next) {
    store ??= new MemorySessionStore()
    const activeStore = store
    const now = Date.now()

    let id: string | null = null
    let data: SessionData = {}
    // More copies than are examined (padding): ambiguous, so no session is adopted.
    const copies = getCookieCopies(c, cookieName)
    if (copies !== null && copies.length > 0) {
      let loaded: Awaited<ReturnType<typeof load>>
      try {
        loaded = await load(activeStore, copies)
        if (loaded !== null && isPastAbsolute(loaded.data, now)) {
          await activeStore.destroy(loaded.id)
          loaded = null
        }
      } catch {
        return unavailable()
      }
      if (loaded !== null) {
        id = loaded.id
        data = loaded.data
      }
    }

    const session = new SessionState(id, data, absoluteTimeout !== undefined)
    // A session from before absoluteTimeout was turned on starts its clock now (saved below).
    if (session.created === undefined) session.markCreated(now)
    c.set(contextKey as 'session', session)
    // The session is its own SessionBinding (current and next IDs) for csrf.
    c.set(SESSION_BINDING as never, session as never)

    let failed = false
    let error: unknown
    try {
      await next()
    } catch (e) {
      // Hono normally turns handler errors into responses before they reach us; a custom
      // composition may not. Save first, then let the error continue.
      failed = true
      error = e
    }

    // requestTimeout() has already answered: nobody will see this response's cookie, so saving
    // now (a late regenerate() destroying the old ID) would only log the user out.
    const timeout = (c.var as { timeoutSignal?: AbortSignal }).timeoutSignal
    if (timeout?.aborted) {
      if (failed) throw error
      return
    }

    let saved: ReturnType<SessionState['serialize']>
    try {
      saved = session.serialize()
    } catch (e) {
      // A value mutated in place into something JSON cannot store (a BigInt pushed into a stored
      // array, a cycle). Nothing is written, so the stored session stays as it was; the handler's
      // own error, if any, is the one worth reporting.
      if (failed) throw error
      throw new TypeError(
        `sessions: the session data is not JSON-serialisable, nothing was saved (${e instanceof Error ? e.message : String(e)})`,
      )
    }
    try {
      await save(c, activeStore, session, saved)
    } catch {
      return unavailable()
    }
    if (failed) throw error
  })

  async function save(
    c: Context,
    activeStore: SessionStore,
    session: SessionState,
    { data, changes, changed, empty }: ReturnType<SessionState['serialize']>,
  ): Promise<void> {
    const oldId = session.loadedId
    const ttl = lifetime(session.created, Date.now())
    const setCookie = (id: string) =>
      signer
        .sign(id)
        .then((signed) =>
          appendSetCookie(
            c,
            cookieName,
            signed,
            cookieOptions(c, cookieName, settings, { httpOnly: true, maxAge: ttl }),
          ),
        )
    const clearCookie = () =>
      appendDeleteCookie(c, cookieName, cookieOptions(c, cookieName, settings, { httpOnly: true }))

    /** Stores `next` under the session's new ID, or clears the cookie when it is empty. */
    const renew = async (next: SessionData): Promise<void> => {
      if (isEmptyData(next)) {
        clearCookie()
        return
      }
      const newId = session.boundId() ?? randomToken(32)
      await activeStore.set(newId, next, ttl)
      await setCookie(newId)
    }

    if (oldId === null) {
      if (empty) return
      const newId = session.boundId() as string
      await activeStore.set(newId, data, ttl)
      await setCookie(newId)
      return
    }

    if (session.replacesId) {
      if (!session.destroyed && !session.cleared) {
        // regenerate() keeps the data: the old entry is taken (read and deleted in one atomic
        // update) and the request's changes merged onto it. If it is gone, a logout in another
        // tab destroyed it meanwhile: that destroy wins, and no copy lives on under a new ID.
        const taken: { data: SessionData | null } = { data: null }
        const deleted = await updateSession(
          activeStore,
          oldId,
          (stored) => {
            taken.data = stored
            return stored === null ? null : {}
          },
          ttl,
        )
        if (deleted === null || taken.data === null) {
          clearCookie()
          return
        }
        return renew(applyChanges(taken.data, changes))
      }
      // destroy(), or clear() then regenerate(): nothing of the old session is kept, so the old
      // ID just dies first (if saving the new one then fails, nobody keeps a fixated session).
      await activeStore.destroy(oldId)
      return renew(data)
    }

    if (session.cleared) {
      // clear() replaces the whole session rather than merging into it.
      if (!changed) return
      if (empty) {
        await activeStore.destroy(oldId)
        clearCookie()
        return
      }
      // Written only if the session still exists: a logout landing meanwhile stays a logout.
      const written = await updateSession(
        activeStore,
        oldId,
        (stored) => (stored === null ? null : data),
        ttl,
      )
      if (written === null) clearCookie()
      else await setCookie(oldId)
      return
    }

    if (!changed && !rolling) return
    // Per-key merge onto the stored data; a session that expired or was destroyed meanwhile
    // (logout in another tab) stays gone: neither a change nor a touch revives it.
    const written = await updateSession(
      activeStore,
      oldId,
      (current) => {
        if (current === null) return null
        const merged = changed ? applyChanges(current, changes) : current
        return isEmptyData(merged) ? {} : merged
      },
      ttl,
    )
    if (written === null) return
    if (Object.keys(written).length === 0) clearCookie()
    else await setCookie(oldId)
  }
}
