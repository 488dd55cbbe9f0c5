/**
 * The stored form of a session: the middleware's own fields under {@link META_KEY}, the per-key
 * changes a request made, and the merge that applies them to the data as stored at save time.
 */
import type { SessionData } from './store'

/** The key under which the middleware keeps its own fields in the stored data. */
export const META_KEY = '__palisade'

/** The middleware's own fields, stored under {@link META_KEY}. */
export interface Meta {
  /** When the session was created or last regenerated (ms since the epoch). */
  created?: number
  /** Pending flash values. */
  flash?: Record<string, unknown>
}

/** What a request changed, key by key: the unit of the per-key merge. */
export interface SessionChanges {
  /** Keys set or changed, with their new values. */
  set: SessionData
  /** Keys removed. */
  delete: string[]
}

/**
 * The per-key merge: `changes` applied to the data as stored now, so keys another request
 * changed meanwhile survive. The result is a new object.
 */
export function applyChanges(current: SessionData, changes: SessionChanges): SessionData {
  const out: SessionData = {}
  for (const key of Object.keys(current)) define(out, key, current[key])
  for (const key of changes.delete) delete out[key]
  for (const key of Object.keys(changes.set)) define(out, key, changes.set[key])
  return out
}

/** A session with no user keys and no pending flash values is not worth storing. */
export function isEmptyData(data: SessionData): boolean {
  for (const key of Object.keys(data)) {
    if (key !== META_KEY) return false
    const flash = (data[key] as Meta | null)?.flash
    if (flash && typeof flash === 'object' && Object.keys(flash).length > 0) return false
  }
  return true
}

/** defineProperty, not assignment: a key named "__proto__" must stay plain data. */
export function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}
