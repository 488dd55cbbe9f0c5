/**
 * Saving a session after the handler: a new session, a regenerated ID, a cleared session, or a
 * per-key merge onto the data as stored now, and the cookie that goes with each.
 */
import type { Context } from 'hono'
import { appendDeleteCookie, appendSetCookie } from '../internal/cookies/cookie'
import { cookieOptions } from '../internal/cookies/cookie-settings'
import { randomToken } from '../internal/crypto'
import { type SessionsConfig, sessionLifetime } from './options'
import { applyChanges, isEmptyData } from './session-data'
import type { SessionState } from './session-state'
import { type SessionData, type SessionStore, updateSession } from './store'

/** What {@link SessionState.serialize} returns: the data, its changes, and whether to store it. */
export type SerializedSession = ReturnType<SessionState['serialize']>

/**
 * Whether {@link saveSession} has anything to do: not for a session read and left unchanged
 * (without `rolling`), nor for a new session that stayed empty.
 */
export function needsSave(
  { rolling }: SessionsConfig,
  session: SessionState,
  { changed, empty }: Pick<SerializedSession, 'changed' | 'empty'>,
): boolean {
  if (session.loadedId === null) return !empty
  return changed || rolling || session.replacesId
}

export async function saveSession(
  c: Context,
  config: SessionsConfig,
  activeStore: SessionStore,
  session: SessionState,
  { data, changes, changed, empty }: SerializedSession,
): Promise<void> {
  const oldId = session.loadedId
  if (!needsSave(config, session, { changed, empty })) return
  const ttl = sessionLifetime(config, session.created, Date.now())

  if (oldId === null) {
    const newId = session.boundId() as string
    await activeStore.set(newId, data, ttl)
    await setCookie(c, config, newId, ttl)
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
        clearCookie(c, config)
        return
      }
      return renew(c, config, activeStore, session, applyChanges(taken.data, changes), ttl)
    }
    // destroy(), or clear() then regenerate(): nothing of the old session is kept, so the old
    // ID just dies first (if saving the new one then fails, nobody keeps a fixated session).
    await activeStore.destroy(oldId)
    return renew(c, config, activeStore, session, data, ttl)
  }

  if (session.cleared) {
    // clear() replaces the whole session rather than merging into it.
    if (!changed) return
    if (empty) {
      await activeStore.destroy(oldId)
      clearCookie(c, config)
      return
    }
    // Written only if the session still exists: a logout landing meanwhile stays a logout.
    const written = await updateSession(
      activeStore,
      oldId,
      (stored) => (stored === null ? null : data),
      ttl,
    )
    if (written === null) clearCookie(c, config)
    else await setCookie(c, config, oldId, ttl)
    return
  }

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
  if (Object.keys(written).length === 0) clearCookie(c, config)
  else await setCookie(c, config, oldId, ttl)
}

/** Stores `next` under the session's new ID, or clears the cookie when it is empty. */
async function renew(
  c: Context,
  config: SessionsConfig,
  activeStore: SessionStore,
  session: SessionState,
  next: SessionData,
  ttl: number,
): Promise<void> {
  if (isEmptyData(next)) {
    clearCookie(c, config)
    return
  }
  const newId = session.boundId() ?? randomToken(32)
  await activeStore.set(newId, next, ttl)
  await setCookie(c, config, newId, ttl)
}

async function setCookie(c: Context, config: SessionsConfig, id: string, ttl: number) {
  const { cookieName, settings } = config
  const signed = await config.signer.sign(id)
  appendSetCookie(
    c,
    cookieName,
    signed,
    cookieOptions(c, cookieName, settings, { httpOnly: true, maxAge: ttl }),
  )
}

function clearCookie(c: Context, { cookieName, settings }: SessionsConfig): void {
  appendDeleteCookie(c, cookieName, cookieOptions(c, cookieName, settings, { httpOnly: true }))
}
