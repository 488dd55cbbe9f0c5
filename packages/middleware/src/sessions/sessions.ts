import type { MiddlewareHandler } from 'hono'
import {
  appendDeleteCookie,
  appendSetCookie,
  type CookieSettings,
  getCookie,
} from '../internal/cookie'
import {
  assertCookieName,
  assertCookieSettings,
  cookieOptions,
  MAX_COOKIE_AGE,
} from '../internal/cookie-settings'
import { assertSecretList, createCookieSigner } from '../internal/cookie-signing'
import { randomToken } from '../internal/crypto'
import { described } from '../internal/described'
import {
  assertKnownKeys,
  assertNonEmptyString,
  assertPositiveInteger,
  optionError,
} from '../internal/options'
import { reject } from '../internal/reject'
import { sessionsDescription } from './description'
import { MemorySessionStore } from './memory-store'
import { SessionState } from './session'
import type { SessionData, SessionStore } from './store'

/**
 * Options of {@link sessions}.
 *
 * @example
 * const options: SessionsOptions = {
 *   secret: process.env.SESSION_SECRET!,
 *   maxAge: 3600,
 *   cookieName: '__Host-sid',
 * }
 * app.use(sessions(options))
 */
export interface SessionsOptions {
  /** HMAC secret(s) for the cookie signature (required). With a list, the first signs, all verify. */
  secret: string | string[]
  /** Cookie name. Default `'sid'`. */
  cookieName?: string
  /** Lifetime in seconds, counted from the last change (store entry and cookie). Default `86400`. */
  maxAge?: number
  /** Session store. Default: a `MemorySessionStore` per middleware, created on first use. */
  store?: SessionStore
  /** Context key of the {@link Session}. Default `'session'`. */
  contextKey?: string
  /** Cookie attributes. Defaults: `HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` on https. */
  cookie?: Pick<CookieSettings, 'httpOnly' | 'secure' | 'sameSite' | 'path' | 'domain'>
}

const KNOWN = ['secret', 'cookieName', 'maxAge', 'store', 'contextKey', 'cookie'] as const
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
 * @param options.secret required; a list rotates secrets (first signs, all verify)
 * @param options.cookieName default `'sid'`
 * @param options.maxAge default `86400` seconds
 * @param options.store default `new MemorySessionStore()` (created lazily)
 * @param options.contextKey default `'session'`
 * @example
 * ```ts
 * app.use(sessions({ secret: process.env.SESSION_SECRET! }))
 * app.post('/login', async (c) => {
 *   const session = c.get('session')
 *   session.regenerate()
 *   session.set('userId', user.id)
 *   return c.text('welcome')
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
  const contextKey = assertNonEmptyString(factory, 'contextKey', options.contextKey ?? 'session')
  const settings = assertCookieSettings(factory, cookieName, options.cookie, [
    'httpOnly',
    'secure',
    'sameSite',
    'path',
    'domain',
  ])
  let store = options.store
  if (
    store !== undefined &&
    (store === null ||
      typeof store !== 'object' ||
      typeof store.get !== 'function' ||
      typeof store.set !== 'function' ||
      typeof store.destroy !== 'function')
  ) {
    throw optionError(factory, '"store" must be a SessionStore with get, set and destroy')
  }
  const signer = createCookieSigner(secrets)

  const unavailable = (): never => reject(503, 'Session store unavailable', 'store_unavailable')

  const description = sessionsDescription(store)
  return described(description, async function sessions(c, next) {
    store ??= new MemorySessionStore()
    const activeStore = store

    let id: string | null = null
    let data: SessionData = {}
    const raw = getCookie(c, cookieName)
    if (raw && raw.length <= MAX_COOKIE_LENGTH) {
      const unsigned = await signer.unsign(raw)
      // Only a correctly signed ID reaches the store: forged cookies cost no store round trip.
      if (unsigned !== null && SESSION_ID.test(unsigned)) {
        let stored: SessionData | null
        try {
          stored = await activeStore.get(unsigned)
        } catch {
          return unavailable()
        }
        if (stored !== null && typeof stored === 'object' && !Array.isArray(stored)) {
          id = unsigned
          data = stored
        }
      }
    }

    const session = new SessionState(id, data)
    c.set(contextKey as 'session', session)

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
    const { empty, changed, data: current } = saved
    const oldId = session.loadedId
    const replaceId = session.destroyed || session.regenerated
    try {
      // The old ID dies first: if saving the new one then fails, nobody keeps a fixated session.
      if (oldId !== null && (replaceId || (empty && changed))) await activeStore.destroy(oldId)
      if (empty) {
        if (oldId !== null && (replaceId || changed)) {
          appendDeleteCookie(
            c,
            cookieName,
            cookieOptions(c, cookieName, settings, { httpOnly: true }),
          )
        }
      } else if (oldId === null || replaceId || changed) {
        const newId = oldId === null || replaceId ? randomToken(32) : oldId
        await activeStore.set(newId, current, maxAge)
        appendSetCookie(
          c,
          cookieName,
          await signer.sign(newId),
          cookieOptions(c, cookieName, settings, { httpOnly: true, maxAge }),
        )
      }
    } catch {
      return unavailable()
    }
    if (failed) throw error
  })
}
