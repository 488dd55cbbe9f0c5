/** Data of one session: plain JSON-serialisable values. */
export type SessionData = Record<string, unknown>

/**
 * Storage behind `sessions`. `maxAge` is in seconds; an entry must not be returned by `get` once
 * it is older than the `maxAge` it was last `set` with.
 */
export interface SessionStore {
  get(id: string): Promise<SessionData | null>
  set(id: string, data: SessionData, maxAge: number): Promise<void>
  destroy(id: string): Promise<void>
}
