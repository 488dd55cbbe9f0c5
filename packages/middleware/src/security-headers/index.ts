export {
  type ReferrerPolicyValue,
  type SecurityHeadersOptions,
  securityHeaders,
} from './security-headers'
