import type { Session } from './session'

export { MemorySessionStore, type MemorySessionStoreOptions } from './memory-store'
export type { Session } from './session'
export { type SessionsOptions, sessions } from './sessions'
export type { SessionData, SessionStore } from './store'

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's session, set by `sessions` (default `contextKey`). */
    session: Session
  }
}
