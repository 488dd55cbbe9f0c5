import type { Context } from 'hono'

// Every middleware records what it decided about a request; logger({ format: 'json' }) and otel()
// read it. Nothing is recorded unless a consumer installed a record in the context first: then
// `begin` is one c.get() that finds nothing, and every later call sees `undefined` and returns.
// No allocation, no clock read.
// A consumer that reads outcomes only (the text log line's dry-run marker) installs an untimed
// record: the decisions are kept, with no clock read (five middleware in a micro loop on a
// loaded host: 0.2 to 0.9 µs a request more than no record, against 1.6 to 2.6 µs timed).
//
// The record lives in the context under a string key, not in a module-level WeakMap or Symbol():
// each subpath is built on its own and gets its own copy of this file, and a record installed by
// the logger entry must still be found by the rate-limit entry.
//
// This file imports nothing at run time, so a middleware that only records (cors) pays a few
// hundred bytes for it; rejecting or recording a dry run (reject-or-record.ts) and settling
// (settle.ts) live beside it.

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

const KEY = 'palisade.decisions'

type Get = (key: string) => unknown

/**
 * For consumers (logger, otel): the request's record, created on first call. `timed: false` when
 * the consumer reads outcomes only; one consumer asking for timings is enough to get them.
 */
export function installDecisions(c: Context, timed = true): DecisionRecord {
  const existing = (c.get as Get)(KEY) as DecisionRecord | undefined
  if (existing) {
    if (timed) existing.timed = true
    return existing
  }
  const record: DecisionRecord = { decisions: [], pending: [], timed }
  ;(c.set as (key: string, value: unknown) => void)(KEY, record)
  return record
}

/**
 * Opens `middleware`'s decision. Returns `undefined`, at the cost of one context lookup, when no
 * consumer is installed; every other function here takes that `undefined` and does nothing.
 */
export function begin(c: Context, middleware: string): Pending | undefined {
  const record = (c.get as Get)(KEY) as DecisionRecord | undefined
  if (record === undefined) return undefined
  // 'allow' until decided: a decision left open when the chain returns without an error allowed.
  // Every key from the start: one object shape, and the JSON always lists them in this order.
  const decision: Decision = {
    middleware,
    outcome: 'allow',
    code: undefined,
    status: undefined,
    ms: undefined,
    store: undefined,
  }
  const timed = record.timed
  const p: Pending = { decision, start: timed ? performance.now() : 0, end: 0, timed }
  record.decisions.push(decision)
  record.pending.push(p)
  return p
}

/** Closes a decision; the first one made stands. */
export function decide(
  p: Pending | undefined,
  outcome: DecisionOutcome,
  code?: string,
  status?: number,
): void {
  if (p === undefined || p.end !== 0) return
  p.end = p.timed ? performance.now() : 1
  const d = p.decision
  d.outcome = outcome
  if (code !== undefined) d.code = code
  if (status !== undefined) d.status = status
  if (p.timed) d.ms = round(p.end - p.start)
}

/** Turns a decision already made into a rejection (requestTimeout's deadline passing). */
export function overrule(p: Pending | undefined, code: string, status: number): void {
  if (p === undefined) return
  p.end = p.timed ? performance.now() : 1
  Object.assign(p.decision, { outcome: 'reject', code, status })
  if (p.timed) p.decision.ms = round(p.end - p.start)
}

/** A clock reading for {@link storeTime}, taken only while a decision is being recorded. */
export function clock(p: Pending | undefined): number {
  return p === undefined || !p.timed ? 0 : performance.now()
}

/** Records how long a store call that started at `since` (from {@link clock}) took. */
export function storeTime(p: Pending | undefined, op: string, since: number): void {
  if (p?.timed) p.decision.store = { op, ms: round(performance.now() - since) }
}

/** The end of the last decision made, for the handler's Server-Timing entry. */
export function lastDecisionEnd(record: DecisionRecord): number {
  let last = 0
  for (const p of record.pending) if (p.end > last) last = p.end
  return last
}

/** Milliseconds to three decimals. */
export function round(ms: number): number {
  return Math.round(ms * 1000) / 1000
}
