export {
  checkUrl,
  type SsrfBlockReason,
  type SsrfCheckOptions,
  type SsrfCheckResult,
  type SsrfResolver,
} from './check-url'
export { type SsrfGuardOptions, ssrfGuard } from './ssrf-guard'
