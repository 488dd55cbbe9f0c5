import type { Session } from './session-state'

export { MemorySessionStore, type MemorySessionStoreOptions } from './memory-store'
export type { SessionsOptions } from './options'
export type { Session } from './session-state'
export { sessions } from './sessions'
export type { SessionData, SessionStore } from './store'

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's session, set by `sessions` (default `contextKey`). */
    session: Session
  }
}
