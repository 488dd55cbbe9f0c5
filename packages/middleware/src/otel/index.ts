export type { Decision, DecisionOutcome, StoreTiming } from '../internal/decisions'
export { type OtelOptions, otel } from './otel'
