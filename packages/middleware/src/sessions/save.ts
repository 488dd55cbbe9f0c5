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
import { type SessionStore, updateSession } from './store'

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

  if (oldId === null) {
    if (empty) return
    const newId = session.boundId() as string
    await activeStore.set(newId, data, ttl)
    await setCookie(newId)
    return
  }

  if (session.replacesId) {
    // regenerate() keeps the data: the request's changes merged onto the data as stored now.
    let next = data
    if (!session.cleared) {
      const current = await activeStore.get(oldId)
      if (current !== null) next = applyChanges(current, changes)
    }
    // The old ID dies first: if saving the new one then fails, nobody keeps a fixated session.
    await activeStore.destroy(oldId)
    if (isEmptyData(next)) {
      clearCookie()
      return
    }
    const newId = session.boundId() ?? randomToken(32)
    await activeStore.set(newId, next, ttl)
    await setCookie(newId)
    return
  }

  if (session.cleared) {
    // clear() replaces the whole session rather than merging into it.
    if (!changed) return
    if (empty) {
      await activeStore.destroy(oldId)
      clearCookie()
    } else {
      await activeStore.set(oldId, data, ttl)
      await setCookie(oldId)
    }
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
