/**
 * JSON pointers into a body, compiled into a trie the body walk descends with: `skip` marks a
 * subtree shield leaves alone, `inspect` one it always reads (and wins over `skip`, at the same
 * node or above it). A segment `*` matches any array index or property name.
 */

/** What a pointer marks at a node. */
export type Mark = 'skip' | 'inspect'

/** One node of the compiled pointers. */
export interface PointerTrie {
  readonly children: Map<string, PointerTrie>
  star: PointerTrie | undefined
  mark: Mark | undefined
  /** Whether some node below this one is marked `inspect` (a skipped subtree must be walked). */
  inspectBelow: boolean
}

const node = (): PointerTrie => ({
  children: new Map(),
  star: undefined,
  mark: undefined,
  inspectBelow: false,
})

/** RFC 6901: `~1` is `/`, `~0` is `~` (in that order). */
export function unescapeSegment(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment
}

/** RFC 6901: `~` becomes `~0`, `/` becomes `~1`. */
export function escapeSegment(segment: string): string {
  return segment.includes('~') || segment.includes('/')
    ? segment.replace(/~/g, '~0').replace(/\//g, '~1')
    : segment
}

/** The trie of `skip` and `inspect` pointers (each starting with `/`; `''` is the whole body). */
export function compilePointers(skip: readonly string[], inspect: readonly string[]): PointerTrie {
  const root = node()
  const add = (pointer: string, mark: Mark) => {
    let at = root
    const segments = pointer === '' ? [] : pointer.slice(1).split('/')
    for (const raw of segments) {
      if (raw === '*') {
        at.star ??= node()
        at = at.star
        continue
      }
      const segment = unescapeSegment(raw)
      let next = at.children.get(segment)
      if (next === undefined) {
        next = node()
        at.children.set(segment, next)
      }
      at = next
    }
    // `inspect` wins where both mark one node.
    if (at.mark !== 'inspect') at.mark = mark
  }
  for (const p of skip) add(p, 'skip')
  for (const p of inspect) add(p, 'inspect')
  markInspectBelow(root)
  return root
}

function markInspectBelow(at: PointerTrie): boolean {
  let below = false
  for (const child of at.children.values()) if (markInspectBelow(child)) below = true
  if (at.star !== undefined && markInspectBelow(at.star)) below = true
  at.inspectBelow = below
  return below || at.mark === 'inspect'
}

/** Whether any node in `states` has an `inspect` mark below it. */
export function inspectBelow(states: readonly PointerTrie[]): boolean {
  for (const s of states) if (s.inspectBelow) return true
  return false
}

/**
 * The trie nodes a child `key` of a node reached through `states` reaches. Allocation-free when
 * nothing below matches (the common case): the shared empty list.
 */
export function step(states: readonly PointerTrie[], key: string): readonly PointerTrie[] {
  let out: PointerTrie[] | undefined
  for (const s of states) {
    const exact = s.children.get(key)
    if (exact !== undefined) {
      out ??= []
      out.push(exact)
    }
    if (s.star !== undefined) {
      out ??= []
      out.push(s.star)
    }
  }
  return out ?? NONE
}

export const NONE: readonly PointerTrie[] = []

/** What the nodes in `states` say of their field: `inspect` wins over `skip`. */
export function markOf(states: readonly PointerTrie[]): Mark | undefined {
  let mark: Mark | undefined
  for (const s of states) {
    if (s.mark === 'inspect') return 'inspect'
    if (s.mark === 'skip') mark = 'skip'
  }
  return mark
}
