export {
  checkUrl,
  type SsrfBlockReason,
  type SsrfCheckOptions,
  type SsrfCheckResult,
  type SsrfGuardOptions,
  type SsrfResolver,
  ssrfGuard,
} from './ssrf-guard'
