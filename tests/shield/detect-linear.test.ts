// detect() is linear: on adversarial inputs (long runs of what each tokenizer and pattern looks
// at), 1 MB costs about 8 times what 128 KB costs. Judged by the ratio of two sizes measured side
// by side, never by an absolute time.
import { describe, expect, it } from 'vitest'
import {
  ATTACK_CATEGORIES,
  type InputKind,
  detect,
} from '../../packages/middleware/src/shield/detect/index.ts'

const options = { rules: new Set(ATTACK_CATEGORIES), paranoia: 2 as const }
const ADVERSARIAL: Record<string, string> = {
  quotes: "'",
  'open tags': '<a ',
  'tag with attributes': '<a b=',
  spaces: ' ',
  'spaces then paren': ' (',
  percent: '%25',
  entities: '&#',
  escapes: '\\u',
  'sql comments': '/*',
  'dollar braces': '${',
  traversal: '../',
  'shell separators': ';a',
  'template braces': '{{',
  dashes: '--',
  'php open': '<?',
  words: 'select ',
}
const KINDS: InputKind[] = ['query', 'body', 'path', 'header', 'user-agent', 'cookie', 'name']

function cost(unit: string, bytes: number): number {
  const value = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes)
  const start = process.hrtime.bigint()
  for (const kind of KINDS) detect(value, kind, options)
  return Number(process.hrtime.bigint() - start)
}

describe('detect() on 1 MB adversarial inputs', () => {
  it.each(Object.entries(ADVERSARIAL))('grows linearly on %s', (_, unit) => {
    cost(unit, 16 * 1024) // warm up
    // The best of three runs of each size, to keep a GC pause or a busy core out of the ratio.
    const small = Math.min(cost(unit, 128 * 1024), cost(unit, 128 * 1024), cost(unit, 128 * 1024))
    const large = Math.min(cost(unit, 1024 * 1024), cost(unit, 1024 * 1024), cost(unit, 1024 * 1024))
    // 8x the bytes; quadratic would be 64x. 20x leaves room for a noisy shared machine.
    expect(large / small).toBeLessThan(20)
  }, 120_000)
})
