import type { Context, MiddlewareHandler, Next } from 'hono'
import { getCookieCopies } from '../internal/cookies/cookie'
import { SESSION_BINDING } from '../internal/cookies/cookie-signing'
import { begin, clock, decide, type Pending, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { storeFor } from '../internal/stores/store-binding'
import { reject, type SessionsRejects } from './answers'
import { sessionsDescription } from './description'
import { type LoadedSession, loadSession } from './load'
import { MemorySessionStore } from './memory-store'
import {
  isPastAbsolute,
  type SessionsConfig,
  type SessionsOptions,
  sessionsConfig,
} from './options'
import { needsSave, type SerializedSession, saveSession } from './save'
import { SessionState } from './session-state'
import type { SessionStore } from './store'

const unavailable = (): never => reject(503, 'Session store unavailable', 'store_unavailable')

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
export function sessions(options: SessionsOptions): MiddlewareHandler & SessionsRejects {
  const config = sessionsConfig(options)
  const trackCreated = config.absoluteTimeout !== undefined

  /**
   * The session for this request, then the handler, then the save. Without an async frame: the
   * handler's outcome is chained on `next()`'s own promise, and the save (a promise) only where
   * there is one; a thrown error, the handler's or the 503, is a rejected promise.
   */
  const run = (
    c: Context,
    next: Next,
    d: Pending | undefined,
    activeStore: SessionStore,
    loaded: LoadedSession,
    now: number,
  ): Promise<void> => {
    const session =
      loaded === null
        ? new SessionState(null, {}, trackCreated)
        : new SessionState(loaded.id, loaded.data, trackCreated)
    // A session from before absoluteTimeout was turned on starts its clock now (saved below).
    if (session.created === undefined) session.markCreated(now)
    c.set(config.contextKey as 'session', session)
    // The session is its own SessionBinding (current and next IDs) for csrf.
    c.set(SESSION_BINDING as never, session as never)
    decide(d, 'allow')
    let handled: Promise<void>
    try {
      handled = next()
    } catch (e) {
      handled = Promise.reject(e)
    }
    return handled.then(
      () => after(c, activeStore, session, false, undefined),
      // Hono normally turns handler errors into responses before they reach us; a custom
      // composition may not. Save first, then let the error continue.
      (e: unknown) => after(c, activeStore, session, true, e),
    )
  }

  /** After the handler (`failed`: it threw `error`): saves what changed, then rethrows. */
  const after = (
    c: Context,
    activeStore: SessionStore,
    session: SessionState,
    failed: boolean,
    error: unknown,
  ): undefined | Promise<void> => {
    let saved: SerializedSession | undefined
    let unstorable: unknown
    try {
      saved = session.serialize()
    } catch (e) {
      // A value mutated in place into something JSON cannot store (a BigInt pushed into a stored
      // array, a cycle). Nothing is written, so the stored session stays as it was.
      unstorable = e
    }
    // The common request, a session read and left alone, has nothing to save: it returns here
    // without asking about the timeout (c.var builds an object of every context variable).
    if (saved !== undefined && !needsSave(config, session, saved)) {
      if (failed) throw error
      return undefined
    }

    // requestTimeout() has already answered: nobody will see this response's cookie, so saving
    // now (a late regenerate() destroying the old ID) would only log the user out.
    const timeout = (c.var as { timeoutSignal?: AbortSignal }).timeoutSignal
    if (timeout?.aborted) {
      if (failed) throw error
      return undefined
    }

    if (saved === undefined) {
      // The handler's own error, if any, is the one worth reporting.
      if (failed) throw error
      throw new TypeError(
        `sessions: the session data is not JSON-serialisable, nothing was saved (${unstorable instanceof Error ? unstorable.message : String(unstorable)})`,
      )
    }
    return saveSession(c, config, activeStore, session, saved).then(() => {
      if (failed) throw error
    }, unavailable)
  }

  const description = sessionsDescription(config.store)
  return described(description, function sessions(c, next) {
    try {
      const d = begin(c, 'sessions')
      config.store ??= new MemorySessionStore()
      let activeStore: SessionStore
      try {
        activeStore = storeFor(config.store, c)
      } catch {
        return unavailable()
      }
      const now = Date.now()
      // More copies than are examined (padding): ambiguous, so no session is adopted.
      const copies = getCookieCopies(c, config.cookieName)
      if (copies === null || copies.length === 0) return run(c, next, d, activeStore, null, now)
      const t = clock(d)
      let pending: LoadedSession | Promise<LoadedSession>
      try {
        pending = loadSession(config.signer, activeStore, copies)
      } catch {
        return unavailable()
      }
      // The common request: a remembered signature on the memory store, within its lifetime.
      if (
        !(pending instanceof Promise) &&
        !(pending !== null && isPastAbsolute(config, pending.data, now))
      ) {
        storeTime(d, 'get', t)
        return run(c, next, d, activeStore, pending, now)
      }
      return settle(config, activeStore, pending, d, t, now).then((loaded) =>
        run(c, next, d, activeStore, loaded, now),
      )
    } catch (e) {
      return Promise.reject(e)
    }
  })
}

/**
 * A session being loaded, or one past `absoluteTimeout` (destroyed now): the loaded session, or
 * `null`; any failure of the store is the 503.
 */
async function settle(
  config: SessionsConfig,
  activeStore: SessionStore,
  pending: LoadedSession | Promise<LoadedSession>,
  d: Pending | undefined,
  t: number,
  now: number,
): Promise<LoadedSession> {
  try {
    const loaded = pending instanceof Promise ? await pending : pending
    storeTime(d, 'get', t)
    if (loaded !== null && isPastAbsolute(config, loaded.data, now)) {
      await activeStore.destroy(loaded.id)
      return null
    }
    return loaded
  } catch {
    return unavailable()
  }
}
