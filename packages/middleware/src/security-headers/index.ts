export type { ReferrerPolicyValue } from './option-values'
export { type SecurityHeadersOptions, securityHeaders } from './security-headers'

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's CSP nonce, set by `securityHeaders({ nonce: true })`. */
    cspNonce: string
  }
}
