// A readable difference between two JSON documents: one line per changed place, by JSON pointer.

const pointer = (path: string[]) =>
  path.length === 0
    ? '(root)'
    : `/${path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined'
  return text.length > 100 ? `${text.slice(0, 97)}...` : text
}

function walk(a: unknown, b: unknown, path: string[], out: string[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return
  const objects =
    a !== null &&
    b !== null &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    Array.isArray(a) === Array.isArray(b)
  if (!objects) {
    out.push(`  ~ ${pointer(path)}: ${short(a)} -> ${short(b)}`)
    return
  }
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])]
  for (const key of keys) {
    if (!(key in right)) out.push(`  - ${pointer([...path, key])}: ${short(left[key])}`)
    else if (!(key in left)) out.push(`  + ${pointer([...path, key])}: ${short(right[key])}`)
    else walk(left[key], right[key], [...path, key], out)
  }
  if (
    !Array.isArray(a) &&
    JSON.stringify(Object.keys(left)) !== JSON.stringify(Object.keys(right))
  ) {
    const shared = Object.keys(left).filter((k) => k in right)
    const order = Object.keys(right).filter((k) => k in left)
    if (JSON.stringify(shared) !== JSON.stringify(order))
      out.push(`  ~ ${pointer(path)}: key order ${short(shared)} -> ${short(order)}`)
  }
}

/**
 * The places where `committed` and `current` differ, one line each (`-` only in the committed
 * document, `+` only in the app's, `~` changed), or `[]` when they are the same.
 */
export function jsonDiff(committed: unknown, current: unknown): string[] {
  const out: string[] = []
  walk(committed, current, [], out)
  return out
}
