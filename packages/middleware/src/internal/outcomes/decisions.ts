import {
  DECISIONS_KEY,
  type Decision,
  type DecisionOutcome,
  type DecisionRecord,
  type Pending,
} from '@palisade/shared/decisions'
import type { Context } from 'hono'

// The types and the context key are @palisade/shared's: @palisade/openapi records into the same
// record (a call to a deprecated operation).
export type {
  Decision,
  DecisionOutcome,
  DecisionRecord,
  Pending,
  StoreTiming,
} from '@palisade/shared/decisions'

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
// This file imports nothing at run time but the key's string, so a middleware that only records (cors) pays a few
// hundred bytes for it; rejecting or recording a dry run (reject-or-record.ts) and settling
// (settle.ts) live beside it.

const KEY = DECISIONS_KEY

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
