import { escapeSegment, inspectBelow, markOf, NONE, type PointerTrie, step } from './pointers'
import { type Scan, safeName } from './scan'

/** One node of the walk, with what it needs to name its location only when something fires. */
interface Frame {
  readonly value: unknown
  readonly parent: Frame | undefined
  readonly key: string
  /** The pointer trie nodes this node reached (`NONE` without pointers). */
  readonly states: readonly PointerTrie[]
  /** An ancestor (or the node) is marked `inspect`: everything below is read. */
  readonly forced: boolean
  /** An ancestor (or the node) is marked `skip` and nothing forces it: only `inspect` marks below are read. */
  readonly skipped: boolean
}

/** The JSON pointer of `frame` (`/a/0/b`), names cut and cleaned for a log. */
function pointerOf(frame: Frame): string {
  const parts: string[] = []
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) {
    parts.push(escapeSegment(safeName(f.key)))
  }
  return parts.length === 0 ? '' : `/${parts.reverse().join('/')}`
}

/** The frame of `key`'s value below `parent`, or undefined when the pointers skip its whole subtree. */
function child(parent: Frame, key: string, value: unknown): Frame | undefined {
  if (parent.states === NONE) {
    return { value, parent, key, states: NONE, forced: parent.forced, skipped: parent.skipped }
  }
  const states = step(parent.states, key)
  const mark = markOf(states)
  const forced = parent.forced || mark === 'inspect'
  const skipped = !forced && (parent.skipped || mark === 'skip')
  if (skipped && !inspectBelow(states)) return undefined
  return { value, parent, key, states, forced, skipped }
}

/**
 * Walks a parsed JSON body: every string value as `body`, every object key as a `name` (keys
 * carry attacks too: `__proto__`, or a key a handler copies into a query). Iterative, so depth
 * cannot overflow the stack, and each node is visited once: linear in the body. Numbers,
 * booleans and null carry no text. Locations are JSON pointers (`body:/comment`, and
 * `body-name:/user` for a key of the object at `/user`). True when inspection should stop.
 */
export function scanJson(root: unknown, scan: Scan, states: readonly PointerTrie[]): boolean {
  const top: Frame = {
    value: root,
    parent: undefined,
    key: '',
    states,
    forced: markOf(states) === 'inspect',
    skipped: markOf(states) === 'skip',
  }
  if (top.skipped && !inspectBelow(states)) return false
  const stack: Frame[] = [top]
  while (stack.length > 0) {
    const frame = stack.pop() as Frame
    const value = frame.value
    if (typeof value === 'string') {
      if (frame.skipped) continue
      if (scan.body(value, 'body', () => `body:${pointerOf(frame)}`, frame.key)) return true
      continue
    }
    if (value === null || typeof value !== 'object') continue
    if (Array.isArray(value)) {
      // Pushed in reverse, so the walk reads the body in order (the budget covers its start).
      for (let i = value.length - 1; i >= 0; i--) {
        const next = child(frame, String(i), value[i])
        if (next !== undefined) stack.push(next)
      }
      continue
    }
    const keys = Object.keys(value)
    for (const key of keys) {
      if (!frame.skipped && scan.body(key, 'name', () => `body-name:${pointerOf(frame)}`)) {
        return true
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string
      const next = child(frame, key, (value as Record<string, unknown>)[key])
      if (next !== undefined) stack.push(next)
    }
  }
  return false
}
