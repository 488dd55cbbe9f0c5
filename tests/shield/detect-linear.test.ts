// detect() is linear: on adversarial inputs (long runs of what each tokenizer and pattern looks
// at), 1 MB costs about 8 times what 128 KB costs. Judged by the ratio of two sizes measured side
// by side in one process, never by an absolute time.
import { describe, expect, it } from 'vitest'
import { ATTACK_CATEGORIES, detect } from '../../packages/middleware/src/shield/detect/index'

const options = { rules: new Set(ATTACK_CATEGORIES), paranoia: 2 as const }
const ADVERSARIAL: Record<string, string> = {
  quotes: "'",
  'open tags': '<a b=',
  spaces: ' ',
  'spaces then parenthesis': ' (',
  'percent escapes': '%25',
  'backslash escapes': '\\u',
  'SQL comments': '/*',
  'template braces': '{{',
  'shell separators': ';a',
  'SQL words': 'select ',
}

function cost(value: string): number {
  const start = process.hrtime.bigint()
  detect(value, 'body', options)
  detect(value, 'query', options)
  return Number(process.hrtime.bigint() - start)
}

describe('detect() on 1 MB adversarial inputs', () => {
  it.each(Object.entries(ADVERSARIAL))(
    'grows linearly on %s',
    (_, unit) => {
      const of = (bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes)
      const small = of(128 * 1024)
      const large = of(1024 * 1024)
      cost(of(16 * 1024)) // warm up
      // The best of two runs of each size keeps a GC pause or a busy core out of the ratio.
      const smallCost = Math.min(cost(small), cost(small))
      const largeCost = Math.min(cost(large), cost(large))
      // 8x the bytes; quadratic would be 64x. 20x leaves room for a noisy shared machine.
      expect(largeCost / smallCost).toBeLessThan(20)
    },
    300_000,
  )
})
