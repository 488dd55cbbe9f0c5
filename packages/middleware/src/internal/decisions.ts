import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { optionError } from './options'
import { reject } from './reject'
import { codeForStatus, type RejectionCode } from './rejection'

// Every middleware records what it decided about a request; logger({ format: 'json' }) and otel()
// read it. Nothing is recorded unless a consumer installed a record in the context first: then
// `begin` is one c.get() that finds nothing, and every later call sees `undefined` and returns.
// No allocation, no clock read.
//
// The record lives in the context under a string key, not in a module-level WeakMap or Symbol():
// each subpath is built on its own and gets its own copy of this file, and a record installed by
// the logger entry must still be found by the rate-limit entry.

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
}

/** A decision still being made. Only exists while a consumer is installed. */
export interface Pending {
  readonly decision: Decision
  readonly start: number
  /** performance.now() when the decision was made; 0 while open. */
  end: number
}

/** The per-request record a consumer installs. */
export interface DecisionRecord {
  readonly decisions: Decision[]
  readonly pending: Pending[]
}

const KEY = 'palisade.decisions'

type Get = (key: string) => unknown

/** For consumers (logger, otel): the request's record, created on first call. */
export function installDecisions(c: Context): DecisionRecord {
  const existing = (c.get as Get)(KEY) as DecisionRecord | undefined
  if (existing) return existing
  const record: DecisionRecord = { decisions: [], pending: [] }
  ;(c.set as (key: string, value: unknown) => void)(KEY, record)
  return record
}

/** The record of this request, when a consumer installed one. */
export function decisionsOf(c: Context): DecisionRecord | undefined {
  return (c.get as Get)(KEY) as DecisionRecord | undefined
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
  const p: Pending = { decision, start: performance.now(), end: 0 }
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
  p.end = performance.now()
  const d = p.decision
  d.outcome = outcome
  if (code !== undefined) d.code = code
  if (status !== undefined) d.status = status
  d.ms = round(p.end - p.start)
}

/** Turns a decision already made into a rejection (requestTimeout's deadline passing). */
export function overrule(p: Pending | undefined, code: string, status: number): void {
  if (p === undefined) return
  p.end = performance.now()
  Object.assign(p.decision, { outcome: 'reject', code, status, ms: round(p.end - p.start) })
}

/** A clock reading for {@link storeTime}, taken only while a decision is being recorded. */
export function clock(p: Pending | undefined): number {
  return p === undefined ? 0 : performance.now()
}

/** Records how long a store call that started at `since` (from {@link clock}) took. */
export function storeTime(p: Pending | undefined, op: string, since: number): void {
  if (p !== undefined) p.decision.store = { op, ms: round(performance.now() - since) }
}

/**
 * The one place a guard refuses: throws the rejection and records it, or, in dry run, records
 * `dry-run` with the code the request would have got and returns so the request passes.
 */
export function refuse(
  p: Pending | undefined,
  dryRun: boolean,
  status: ContentfulStatusCode,
  message: string,
  code: RejectionCode,
  headers?: Record<string, string>,
): void {
  decide(p, dryRun ? 'dry-run' : 'reject', code, status)
  if (!dryRun) reject(status, message, code, headers)
}

/**
 * For consumers, once the chain returned: a decision still open when the chain ended in an error
 * was made by the middleware that threw it (middleware close their decision before calling
 * next(), so only the thrower is still open). This is where rejections thrown with a plain
 * `reject()` are recorded, with the code and status of the error. Open decisions of a chain that
 * ended well allowed.
 */
export function settle(record: DecisionRecord, error: unknown): void {
  const pending = record.pending
  for (let i = pending.length - 1; i >= 0; i--) {
    const p = pending[i] as Pending
    if (p.end !== 0) continue
    if (error === undefined) {
      decide(p, 'allow')
      continue
    }
    const status = error instanceof HTTPException ? error.status : 500
    // Duck-typed: every subpath build has its own copy of the Rejection class.
    const own = (error as { code?: unknown } | null)?.code
    const code =
      error instanceof HTTPException && typeof own === 'string' ? own : codeForStatus(status)
    decide(p, 'reject', code, status)
    error = undefined
  }
}

/** The end of the last decision made, for the handler's Server-Timing entry. */
export function lastDecisionEnd(record: DecisionRecord): number {
  let last = 0
  for (const p of record.pending) if (p.end > last) last = p.end
  return last
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000
}

/**
 * Auth middleware take no `dryRun`: a handler must never run without the identity it relies on.
 * Named here so the error says why instead of "unknown option".
 */
export function assertNoDryRun(factory: string, options: unknown): void {
  if (options !== null && typeof options === 'object' && Object.hasOwn(options, 'dryRun')) {
    throw optionError(
      factory,
      '"dryRun" is not available on authentication middleware: a handler must never run without the identity it relies on',
    )
  }
}
