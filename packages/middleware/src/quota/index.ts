export {
  type PeriodSpan,
  type QuotaMiddleware,
  type QuotaOptions,
  type QuotaPeriod,
  type QuotaUsage,
  quota,
} from './quota'
