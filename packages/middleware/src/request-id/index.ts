export { type RequestIdOptions, requestId } from './request-id'

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's ID, set by `requestId()` (under its default `contextKey`). */
    requestId: string
  }
}
