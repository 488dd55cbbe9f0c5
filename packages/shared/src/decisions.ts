// The per-request decision record: what each Palisade middleware decided, read by the logger
// (`decisions` in a JSON line) and otel() (span events and the `palisade.decisions` counter).
// The middleware open and close their decisions (middleware's internal/outcomes/decisions.ts);
// @palisade/openapi records one for a call to a deprecated operation (`recordDecision`). Both
// find the record under one string key in the Hono context, installed by the consumer first:
// without a consumer nothing is recorded.

/** What a middleware did with a request. `dry-run`: it would have rejected, but let it pass. */
export type DecisionOutcome = 'allow' | 'reject' | 'skip' | 'dry-run'

/** Time spent in a store call: `op` is the store method (`increment`, `get`, `validate`, …). */
export interface StoreTiming {
  op: string
  ms: number
}

/** One middleware's decision about one request. */
export interface Decision {
  middleware: string
  outcome: DecisionOutcome
  /** The rejection code it gave (or would have given, in dry run). */
  code?: string
  status?: number
  /** Time from the middleware's start to its decision, in milliseconds. */
  ms?: number
  store?: StoreTiming
  /**
   * Why, when the code alone leaves the operator guessing: the failure behind a 503 (jwtAuth's
   * `jwks_unavailable` names the URL and what it answered). Never sent to the client. Set only
   * then, after the other keys, so the decisions without one keep their shape.
   */
  cause?: string
  /**
   * What the guard found or saw, never the payload: shield's attack category (`sqli`, `xss`, …),
   * botGuard's bot category (`spoofed`, `ai-crawler`, …). Set only by such guards, after the
   * other keys.
   */
  category?: string
  /**
   * Where it found it: `path`, `query:q`, `header:referer`, `cookie:sid`, `body:/comment`. Never
   * the value itself.
   */
  location?: string
  /**
   * A metered middleware's count after this request (quota): whose, how many, out of how many.
   * Set only then, after the other keys; otel counts it per key.
   */
  usage?: { key: string; used: number; limit: number }
  /**
   * The operation called (its operationId, else `METHOD /documented/{path}`): set by
   * `@palisade/openapi` on the `deprecation` decision of a call to a deprecated operation, so
   * logs and otel's counter say who still calls what is about to be removed.
   */
  operation?: string
  /** That operation's sunset (RFC 8594), as an ISO 8601 instant, when it has one. */
  sunset?: string
}

/** A decision still being made. Only exists while a consumer is installed. */
export interface Pending {
  readonly decision: Decision
  /** performance.now() when the middleware started; 0 when untimed. */
  readonly start: number
  /** performance.now() when the decision was made (1 when untimed); 0 while open. */
  end: number
  readonly timed: boolean
}

/** The per-request record a consumer installs. */
export interface DecisionRecord {
  readonly decisions: Decision[]
  readonly pending: Pending[]
  /**
   * Whether decisions are timed (and their store calls). Only the text log line's dry-run marker
   * wants them untimed: outcomes and codes without a clock read per middleware.
   */
  timed: boolean
}

/**
 * The context key of the record. A string, not a Symbol() or a module-level WeakMap: each subpath
 * of each package is built on its own with its own copy of this file, and a record installed by
 * the logger entry must still be found by the rate-limit entry and by @palisade/openapi.
 */
export const DECISIONS_KEY = 'palisade.decisions'

/** The request's record, or `undefined` when no consumer (logger, otel) installed one. */
export function decisionRecordOf(c: { get: unknown }): DecisionRecord | undefined {
  return (c.get as (key: string) => unknown)(DECISIONS_KEY) as DecisionRecord | undefined
}

/**
 * Records a decision made at once (nothing to time): for a consumer's span event, it is made now.
 * Does nothing when no consumer is installed.
 */
export function recordDecision(c: { get: unknown }, decision: Decision): void {
  const record = decisionRecordOf(c)
  if (record === undefined) return
  const now = record.timed ? performance.now() : 0
  if (record.timed) decision.ms = 0
  record.decisions.push(decision)
  record.pending.push({ decision, start: now, end: record.timed ? now : 1, timed: record.timed })
}
