// detect() is linear: on adversarial inputs (long runs of what each tokenizer and pattern looks
// at), 1 MB costs about 8 times what 128 KB costs, for every detector that reads the whole value.
// Judged by the ratio of two sizes measured side by side in one process, never by an absolute time.
// A value longer than a window (4 KiB) is read window by window, so a detector quadratic within a
// window still grows linearly past it: the second test compares two sizes inside one window.
import { describe, expect, it } from 'vitest'
import { ATTACK_CATEGORIES, detect } from '../../packages/middleware/src/shield/detect/index'

type Options = Parameters<typeof detect>[2]
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
  // Options after `alias`, each a new place an alias definition could start (quadratic as a regex).
  'alias options': 'alias -',
}

/**
 * CPU time (µs) of both detect() calls: a process waiting for a core accumulates none, so a busy
 * neighbour (a build beside the suite) does not stretch one size's run as wall-clock time did
 * (the ratio read 32.7 and 35.7 on linear code while a build ran).
 */
function cost(value: string, options: Options): number {
  const start = process.cpuUsage()
  detect(value, 'body', options)
  detect(value, 'query', options)
  const used = process.cpuUsage(start)
  return used.user + used.system
}

/**
 * The categories that do not fire on the input: a detector that fires stops detect() at the first
 * window, so only the ones that scan the whole value say anything about its growth.
 */
function scanning(sample: string): Options {
  const rules = ATTACK_CATEGORIES.filter(
    (category) =>
      detect(sample, 'body', { rules: new Set([category]), paranoia: 2 }) === undefined &&
      detect(sample, 'query', { rules: new Set([category]), paranoia: 2 }) === undefined,
  )
  return { rules: new Set(rules), paranoia: 2 }
}

describe('detect() on 1 MB adversarial inputs', () => {
  it.each(Object.entries(ADVERSARIAL))(
    'grows linearly on %s',
    (_, unit) => {
      const of = (bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes)
      const small = of(128 * 1024)
      const large = of(1024 * 1024)
      const options = scanning(of(16 * 1024))
      expect(options.rules.size).toBeGreaterThan(5)
      cost(small, options) // warm up
      // Interleaved runs, the best of seven of each size: a GC pause or a cold cache lands on one
      // run, not on the ratio.
      let smallCost = Number.POSITIVE_INFINITY
      let largeCost = Number.POSITIVE_INFINITY
      for (let round = 0; round < 7; round++) {
        smallCost = Math.min(smallCost, cost(small, options))
        largeCost = Math.min(largeCost, cost(large, options))
      }
      // 8x the bytes: linear is about 8x, quadratic 64x. The bound, 32x, is half of quadratic, so
      // no quadratic detector passes, and a loaded CI machine (ratios up to 22x were seen on
      // linear code at load 25) does not fail a linear one.
      expect(largeCost / smallCost).toBeLessThan(32)
    },
    300_000,
  )
})

/**
 * Inputs whose cost only this test sees: the command pre-filter once read the word after each `;`
 * and parenthesis up to the next white space (and unquoted that stretch) when the value held a
 * quote, so `(a'b(a'b…` cost 8.8x per byte at 4 KiB what it cost at 512 B (about 0.1 s per 4 KiB
 * window, 2 s per 64 KiB body, 2026-12-07) while the 1 MB test above, window after window, saw it
 * linear. (`a'b;a'b;…` cost as much at paranoia 1; at this test's paranoia 2 any `;` opens the
 * detector before that reading, and the parentheses take the same one.)
 */
const IN_WINDOW: Record<string, string> = {
  ...ADVERSARIAL,
  'quoted words after parentheses': "(a'b",
}

describe('detect() inside one window', () => {
  it.each(Object.entries(IN_WINDOW))(
    'grows linearly on %s up to a window',
    (_, unit) => {
      const of = (bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes)
      // Both sizes are read whole (a window is 4 KiB): 8 calls on 4 KiB read what 64 calls on
      // 512 B read, so linear code costs about the same, and a detector quadratic in the value
      // about 8 times as much. (A read back from every `(` over the run before it cost 0.5 s on
      // 64 KB of ` (`, 2026-12-07, and passed the test above.)
      const small = of(512)
      const large = of(4096)
      const options = scanning(of(4096))
      expect(options.rules.size).toBeGreaterThan(5)
      const calls = (value: string, n: number) => {
        const start = process.cpuUsage()
        for (let i = 0; i < n; i++) {
          detect(value, 'body', options)
          detect(value, 'query', options)
        }
        const used = process.cpuUsage(start)
        return used.user + used.system
      }
      calls(small, 64) // warm up
      let smallCost = Number.POSITIVE_INFINITY
      let largeCost = Number.POSITIVE_INFINITY
      for (let round = 0; round < 7; round++) {
        smallCost = Math.min(smallCost, calls(small, 64))
        largeCost = Math.min(largeCost, calls(large, 8))
      }
      // Linear is about 1x (a little under: each call's fixed work is paid 64 times on the small
      // side), quadratic about 8x; 4x is half of that.
      expect(largeCost / smallCost).toBeLessThan(4)
    },
    300_000,
  )
})
