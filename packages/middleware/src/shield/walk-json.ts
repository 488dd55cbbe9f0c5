import { MAX_JSON_DEPTH } from '@palisade/shared/json'
import { escapeSegment, inspectBelow, markOf, NONE, type PointerTrie, step } from './pointers'
import { CleanKeys, type Scan, safeName } from './scan'

/**
 * One walk of a body: the scan, and the keys from the root to the node being read (array indices
 * as numbers, turned into text only for a location). A location is built from them only when
 * something fires: the two location functions are made once per walk, not once per value.
 */
class Walk {
  readonly path: (string | number)[] = []
  /** The last keys found clean: the shield instance's, or this walk's without remembered verdicts. */
  readonly clean: CleanKeys
  constructor(readonly scan: Scan) {
    this.clean = scan.verdicts?.cleanKeys ?? new CleanKeys()
  }
  /** Where the string being checked is: `body:/a/0/b`. */
  readonly valueAt = (): string => `body:${this.pointer()}`
  /** Where the keys being checked are: `body-name:/a` (the object holding them). */
  readonly nameAt = (): string => `body-name:${this.pointer()}`

  /** The JSON pointer of the node being read (`/a/0/b`), names cut and cleaned for a log. */
  private pointer(): string {
    let out = ''
    for (const key of this.path) out += `/${escapeSegment(safeName(String(key)))}`
    return out
  }
}

/** Numbers, booleans and null: nothing in them to read. */
const carriesText = (value: unknown) =>
  typeof value === 'string' || (typeof value === 'object' && value !== null)

/**
 * Walks a parsed JSON body: every string value as `body`, every object key as a `name` (keys
 * carry attacks too: `__proto__`, or a key a handler copies into a query). Each node is visited
 * once, in the body's order (the budget covers its start): linear in the body. Recursive, to
 * {@link MAX_JSON_DEPTH} levels at most: the body comes from `readJsonText`, which refuses a
 * deeper one before it parses, so a deeper value here is a caller's bug (a RangeError), never a
 * stack overflow. Numbers, booleans and null carry no text. Locations are JSON pointers
 * (`body:/comment`, and `body-name:/user` for a key of the object at `/user`). True when
 * inspection should stop.
 */
export function scanJson(root: unknown, scan: Scan, states: readonly PointerTrie[]): boolean {
  const mark = markOf(states)
  const forced = mark === 'inspect'
  const skipped = mark === 'skip'
  if (skipped && !inspectBelow(states)) return false
  return walk(new Walk(scan), root, '', states, forced, skipped, 0)
}

/**
 * Reads `value` (under `key`, given to the engine as the name a string came under) at `depth`
 * containers below the root. `states`: the pointer trie nodes it reached (`NONE` without
 * pointers); `forced`: an ancestor or the node is marked `inspect`, everything below is read;
 * `skipped`: one is marked `skip` and nothing forces it, only `inspect` marks below are read.
 */
function walk(
  w: Walk,
  value: unknown,
  key: string,
  states: readonly PointerTrie[],
  forced: boolean,
  skipped: boolean,
  depth: number,
): boolean {
  if (typeof value === 'string') return !skipped && w.scan.body(value, 'body', w.valueAt, key)
  if (typeof value !== 'object' || value === null) return false
  if (depth >= MAX_JSON_DEPTH) throw new RangeError(`JSON nests deeper than ${MAX_JSON_DEPTH}`)
  const path = w.path
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      if (!carriesText(item)) continue
      path.push(i)
      const stop =
        states === NONE
          ? walk(
              w,
              item,
              typeof item === 'string' ? String(i) : '',
              NONE,
              forced,
              skipped,
              depth + 1,
            )
          : below(w, item, String(i), states, forced, skipped, depth + 1)
      path.pop()
      if (stop) return true
    }
    return false
  }
  const keys = Object.keys(value)
  if (!skipped && checkKeys(w, keys)) return true
  for (const name of keys) {
    const item = (value as Record<string, unknown>)[name]
    if (!carriesText(item)) continue
    path.push(name)
    const stop =
      states === NONE
        ? walk(w, item, name, NONE, forced, skipped, depth + 1)
        : below(w, item, name, states, forced, skipped, depth + 1)
    path.pop()
    if (stop) return true
  }
  return false
}

/**
 * Checks an object's keys as names (each within the budget, as `scan.body` does); true when
 * inspection should stop. The same keys as the last object's found clean (in this body or an
 * earlier one), with the budget still above their length, are clean again: only the budget is
 * spent, as checking them would.
 */
function checkKeys(w: Walk, keys: string[]): boolean {
  const scan = w.scan
  const clean = w.clean
  if (sameKeys(keys, clean.keys) && scan.budget > clean.length) {
    scan.budget -= clean.length
    return false
  }
  const before = scan.budget
  for (const name of keys) if (scan.body(name, 'name', w.nameAt)) return true
  // Nothing fired and the budget held every key whole (it stays above zero, or body() stops).
  clean.keys = keys
  clean.length = before - scan.budget
  return false
}

/** Whether `a` and `b` hold the same strings in the same order. */
function sameKeys(a: readonly string[], b: readonly string[] | undefined): boolean {
  if (b === undefined || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** {@link walk} of the child `key` of a node that reached `states`, unless the pointers skip its whole subtree. */
function below(
  w: Walk,
  value: unknown,
  key: string,
  parentStates: readonly PointerTrie[],
  parentForced: boolean,
  parentSkipped: boolean,
  depth: number,
): boolean {
  const states = step(parentStates, key)
  const mark = markOf(states)
  const forced = parentForced || mark === 'inspect'
  const skipped = !forced && (parentSkipped || mark === 'skip')
  if (skipped && !inspectBelow(states)) return false
  return walk(w, value, key, states, forced, skipped, depth)
}
