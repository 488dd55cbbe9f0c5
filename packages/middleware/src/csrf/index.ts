export { type CsrfOptions, csrf } from './csrf'

declare module 'hono' {
  interface ContextVariableMap {
    /** The CSRF token to echo back (header or body field), set by `csrf`. */
    csrfToken: string
  }
}
