export type { Decision, DecisionOutcome, StoreTiming } from '../internal/outcomes/decisions'
export { type LoggerOptions, type LogTarget, logger, type RequestLogger } from './logger'

import type { RequestLogger } from './logger'

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's logger, set by `logger()`: its lines carry the request's `reqId`. */
    log: RequestLogger
  }
}
