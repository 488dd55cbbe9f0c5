export type { Decision, DecisionOutcome, StoreTiming } from '../internal/outcomes/decisions'
export {
  type OtelApi,
  type OtelAttributes,
  type OtelMeter,
  type OtelOptions,
  type OtelSpan,
  type OtelTracer,
  otel,
} from './otel'
