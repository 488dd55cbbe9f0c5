// diff(old, new): the paths and operations of two OpenAPI 3.0/3.1 documents matched up, each
// change classified by the rule table. Never throws on any JSON value: what is not an OpenAPI
// document reads as an empty one (see `openapiProblem` for the check the CLI runs first).
import { compareCallbacks } from './callbacks'
import { compareOperation } from './operations'
import { DIFF_RULES } from './rules'
import { compareSecurity, compareServers } from './security'
import {
  type Change,
  type Context,
  child,
  isObject,
  keys,
  type Node,
  own,
  report,
  show,
} from './walk'

export interface DiffOptions {
  /** Rule ids whose breaking changes are allowed (kept in the result, marked `allowed`). */
  allow?: readonly string[]
  /** A new enum value in a response is breaking (clients that reject unknown values), not info. */
  strictEnums?: boolean
  /** The time `x-sunset` dates are compared with (default: now). */
  now?: Date
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** `/users/{id}` and `/users/{userId}` are the same path. */
const normalise = (path: string) => path.replace(/\{[^}]*\}/g, '{}')

function pathIndex(doc: unknown): Map<string, { path: string; item: Node }> {
  const paths: Node = { value: own(doc, 'paths'), ptr: '/paths' }
  const out = new Map<string, { path: string; item: Node }>()
  for (const path of keys(paths.value)) {
    const key = normalise(path)
    const item = child(paths, path)
    if (!out.has(key) && isObject(item.value)) out.set(key, { path, item })
  }
  return out
}

function removal(ctx: Context, op: Node, whole: boolean, now: Date): void {
  const prefix = whole ? 'api-path-removed' : 'api-removed'
  const what = whole ? 'path removed' : 'operation removed'
  if (own(op.value, 'deprecated') !== true) {
    report(ctx, `${prefix}-without-deprecation`, `${what} without deprecation`, op, undefined)
    return
  }
  const sunset = own(op.value, 'x-sunset')
  const date = typeof sunset === 'string' ? Date.parse(sunset) : Number.NaN
  if (!Number.isNaN(date) && date > now.getTime())
    report(ctx, `${prefix}-before-sunset`, `${what} before its sunset (${sunset})`, op, undefined)
  else report(ctx, `${prefix}-with-deprecation`, `deprecated ${what}`, op, undefined)
}

/** `x-sunset` as a time, or NaN (absent, or not a date). */
function sunsetOf(op: Node): number {
  const sunset = own(op.value, 'x-sunset')
  return typeof sunset === 'string' ? Date.parse(sunset) : Number.NaN
}

/**
 * An operation deprecated or reactivated, and its `x-sunset` removed or moved earlier (a client
 * that planned its migration by the old date has less time).
 */
function compareDeprecation(ctx: Context, oldOp: Node, newOp: Node): void {
  const was = own(oldOp.value, 'deprecated') === true
  const is = own(newOp.value, 'deprecated') === true
  if (!was && is) report(ctx, 'endpoint-deprecated', 'operation deprecated', oldOp, newOp)
  if (was && !is)
    report(ctx, 'endpoint-reactivated', 'operation no longer deprecated', oldOp, newOp)
  if (!was || !is) return
  const before = sunsetOf(oldOp)
  const after = sunsetOf(newOp)
  const oldSunset = child(oldOp, 'x-sunset')
  const newSunset = child(newOp, 'x-sunset')
  if (!Number.isNaN(before) && Number.isNaN(after))
    report(
      ctx,
      'sunset-deleted',
      `x-sunset removed (was ${show(oldSunset.value)})`,
      oldSunset,
      newOp,
    )
  else if (after < before)
    report(
      ctx,
      'api-sunset-date-changed-too-small',
      `x-sunset moved earlier: ${show(oldSunset.value)} -> ${show(newSunset.value)}`,
      oldSunset,
      newSunset,
    )
}

/** `x-palisade-breaking-ok` on the new operation: `true`, a rule id, or a list of them. */
function noteAllows(note: unknown, id: string): boolean {
  if (note === true) return true
  if (typeof note === 'string') return note === id
  return Array.isArray(note) && note.includes(id)
}

function compareOperations(ctx: Context, now: Date): void {
  const before = pathIndex(ctx.old.doc)
  const after = pathIndex(ctx.new.doc)
  for (const [key, o] of before) {
    const n = after.get(key)
    for (const method of METHODS) {
      const oldOp = child(o.item, method)
      if (!isObject(oldOp.value)) continue
      ctx.operation = `${method.toUpperCase()} ${n?.path ?? o.path}`
      ctx.seen = new Set()
      const newOp = n === undefined ? undefined : child(n.item, method)
      if (n === undefined || newOp === undefined || !isObject(newOp.value)) {
        removal(ctx, oldOp, n === undefined, now)
        continue
      }
      const start = ctx.out.length
      const pair = {
        oldPath: o.path,
        newPath: n.path,
        oldItem: o.item,
        newItem: n.item,
        oldOp,
        newOp,
      }
      compareOperation(ctx, pair)
      compareDeprecation(ctx, oldOp, newOp)
      compareSecurity(ctx, oldOp, newOp)
      compareCallbacks(ctx, oldOp, newOp)
      const note = own(newOp.value, 'x-palisade-breaking-ok')
      for (const change of ctx.out.slice(start))
        if (change.level === 'breaking' && noteAllows(note, change.id)) change.allowed = 'note'
    }
  }
  for (const [key, n] of after) {
    const o = before.get(key)
    for (const method of METHODS) {
      const newOp = child(n.item, method)
      if (!isObject(newOp.value) || (o !== undefined && isObject(own(o.item.value, method))))
        continue
      ctx.operation = `${method.toUpperCase()} ${n.path}`
      report(ctx, 'endpoint-added', 'operation added', undefined, newOp)
    }
  }
  ctx.operation = undefined
}

const ORDER = { breaking: 0, info: 1, 'non-breaking': 2 } as const

/**
 * The changes from `oldDoc` to `newDoc`, breaking first. A breaking change whose rule is in
 * `options.allow`, or that an `x-palisade-breaking-ok` note on the new operation names, is kept
 * with `allowed` set; {@link blockingChanges} leaves it out.
 */
export function diff(oldDoc: unknown, newDoc: unknown, options: DiffOptions = {}): Change[] {
  const ctx: Context = {
    old: { doc: oldDoc, facets: new Map() },
    new: { doc: newDoc, facets: new Map() },
    out: [],
    strictEnums: options.strictEnums === true,
    seen: new Set(),
  }
  compareServers(ctx)
  compareOperations(ctx, options.now ?? new Date())
  const allow = new Set(options.allow ?? [])
  for (const change of ctx.out)
    if (change.level === 'breaking' && change.allowed === undefined && allow.has(change.id))
      change.allowed = 'option'
  return ctx.out
    .map((change, i) => ({ change, i }))
    .sort((a, b) => ORDER[a.change.level] - ORDER[b.change.level] || a.i - b.i)
    .map(({ change }) => change)
}

/** The breaking changes nothing allows: what makes `palisade diff` exit 1. */
export function blockingChanges(changes: readonly Change[]): Change[] {
  return changes.filter((c) => c.level === 'breaking' && c.allowed === undefined)
}

/** Rule ids of `ids` that no rule has (an `--allow` typo). */
export function unknownRules(ids: readonly string[]): string[] {
  return ids.filter((id) => !DIFF_RULES.has(id))
}

/** Why `doc` is not an OpenAPI 3.0/3.1 document `diff` can read, or undefined when it is one. */
export function openapiProblem(doc: unknown): string | undefined {
  if (!isObject(doc)) return 'not a JSON object'
  const version = own(doc, 'openapi')
  if (typeof version !== 'string') {
    return own(doc, 'swagger') !== undefined
      ? 'a Swagger 2.0 document: diff reads OpenAPI 3.0 and 3.1'
      : 'not an OpenAPI document (no "openapi" version field)'
  }
  if (!/^3\.[01]\.\d+/.test(version)) return `OpenAPI ${version}: diff reads OpenAPI 3.0 and 3.1`
  const paths = own(doc, 'paths')
  if (paths !== undefined && !isObject(paths)) return '"paths" is not an object'
  return undefined
}
