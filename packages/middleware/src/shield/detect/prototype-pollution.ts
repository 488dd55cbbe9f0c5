// Prototype pollution: a key that reaches Object.prototype when an application merges or sets by
// path (`__proto__`, `constructor.prototype`), in a JSON key, a form name (`a[__proto__][x]`) or a
// dotted path.
import type { InputKind, Paranoia, Subject } from './subject'

/** A key that reaches the prototype, one pattern per spelling: recheck's automaton decides each (the one alternation it could not). */
export const PROTO_KEY = [
  /(?:^|[[.\s"'])__proto__(?:$|[\].\s"'])|^__proto__/,
  /constructor\s*(?:\]\s*\[|\.|\[)\s*['"]?prototype\b/,
  /\b__(?:definegetter|definesetter|lookupgetter|lookupsetter)__\b/,
]

export function detectPrototypePollution(
  subject: Subject,
  kind: InputKind,
  paranoia: Paranoia,
): boolean {
  if (kind === 'user-agent') return false
  const lower = subject.lower
  if (kind === 'name')
    return PROTO_KEY.some((p) => p.test(lower)) || (lower === 'prototype' && paranoia === 2)
  return (
    (kind === 'query' || kind === 'body' || kind === 'cookie') &&
    /(?:^|[[."'])__proto__[\]."']|constructor\s*[[.]\s*['"]?prototype\s*[\].]/.test(lower)
  )
}
