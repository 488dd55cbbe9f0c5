export { type RequestTimeoutOptions, requestTimeout } from './request-timeout'

declare module 'hono' {
  interface ContextVariableMap {
    /** Aborted when `requestTimeout()`'s timer fires; pass it to work the handler starts. */
    timeoutSignal: AbortSignal
  }
}
