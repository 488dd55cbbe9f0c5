/**
 * Saving a session after the handler: a new session, a regenerated ID, a cleared session, or a
 * per-key merge onto the data as stored now, and the cookie that goes with each.
 */
import type { Context } from 'hono'
import { appendDeleteCookie, appendSetCookie } from '../internal/cookie'
import { cookieOptions } from '../internal/cookie-settings'
import { randomToken } from '../internal/crypto'
import { type SessionsConfig, sessionLifetime } from './options'
import { applyChanges, isEmptyData } from './session-data'
import type { SessionState } from './session-state'
import { type SessionData, type SessionStore, updateSession } from './store'

/** What {@link SessionState.serialize} returns: the data, its changes, and whether to store it. */
export type SerializedSession = ReturnType<SessionState['serialize']>

export async function saveSession(
  c: Context,
  config: SessionsConfig,
  activeStore: SessionStore,
  session: SessionState,
  { data, changes, changed, empty }: SerializedSession,
): Promise<void> {
  const { cookieName, settings, signer, rolling } = config
  const oldId = session.loadedId
  const ttl = sessionLifetime(config, session.created, Date.now())
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
