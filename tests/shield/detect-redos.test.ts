// Every regular expression of the detection engine goes through recheck, a ReDoS checker (its
// native build, through check()), and must be proven safe by its automaton checker: it decides from
// the pattern's automaton whether backtracking can be super-linear, exactly and the same way on
// every run. A vulnerable verdict fails the test, and so does an undecided one (a timeout, or
// syntax the automaton does not read, such as a lookahead), naming the pattern: rewrite it so the
// automaton decides it (one pattern per family of an alternation, a set of names behind one small
// pattern, a prefix read by hand; docs/middleware/shield.md, "Safe by construction").
//
// Proofs are remembered in recheck-verdicts.json, keyed by recheck's version, the pattern's source
// and its flags: a pattern found there is not proven again, any other is (a new or changed pattern
// is always checked). RECHECK_ALL=1 proves every pattern again; RECHECK_WRITE=1 writes the file
// afresh from this run's proofs (run both after upgrading recheck or changing patterns).
// detect-linear.test.ts times detect() on 1 MB adversarial inputs.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { check } from 'recheck'
import { describe, expect, it } from 'vitest'
import { detectRegexLiterals } from './regex-literals'

const VERDICTS = new URL('./recheck-verdicts.json', import.meta.url)
const RECHECK_VERSION: string = createRequire(import.meta.url)('recheck/package.json').version

interface Proof {
  /** recheck's complexity: `safe` (no ambiguity at all) or `linear`. */
  complexity: string
}
interface VerdictFile {
  recheck: string
  proven: Record<string, Proof>
}

const keyOf = (pattern: { source: string; flags: string }) => `/${pattern.source}/${pattern.flags}`

function remembered(): Record<string, Proof> {
  if (process.env.RECHECK_ALL === '1') return {}
  const file = JSON.parse(readFileSync(VERDICTS, 'utf8')) as VerdictFile
  return file.recheck === RECHECK_VERSION ? file.proven : {}
}

describe('shield detection patterns under recheck', () => {
  it('has every pattern proven safe by the automaton checker', async () => {
    const patterns = detectRegexLiterals()
    expect(patterns.length).toBeGreaterThan(100)
    const known = remembered()
    const proven: Record<string, Proof> = {}
    const failures: string[] = []
    let checked = 0
    // One at a time: the checker's agent runs checks side by side on the same cores, and a check
    // that shares them takes as long as the queue.
    for (const pattern of patterns) {
      const key = keyOf(pattern)
      const before = known[key] ?? proven[key]
      if (before !== undefined) {
        proven[key] = before
        continue
      }
      checked++
      const verdict = await check(pattern.source, pattern.flags, {
        checker: 'automaton',
        timeout: 60_000,
      })
      const where = `${pattern.file}:${pattern.line} ${key.slice(0, 120)}`
      if (verdict.status === 'safe') proven[key] = { complexity: verdict.complexity.type }
      else if (verdict.status === 'vulnerable')
        failures.push(`${where}: vulnerable, ${verdict.complexity.type}`)
      else failures.push(`${where}: undecided (${verdict.error.kind})`)
    }
    console.info(
      `recheck ${RECHECK_VERSION}: ${patterns.length} patterns, ${checked} checked in this run, ${patterns.length - checked} remembered${checked > 0 && process.env.RECHECK_WRITE !== '1' ? ' (RECHECK_WRITE=1 remembers them)' : ''}`,
    )
    expect(failures).toEqual([])
    if (process.env.RECHECK_WRITE === '1') {
      const sorted = Object.fromEntries(
        Object.entries(proven).sort(([a], [b]) => a.localeCompare(b)),
      )
      const file: VerdictFile = { recheck: RECHECK_VERSION, proven: sorted }
      writeFileSync(VERDICTS, `${JSON.stringify(file, null, 2)}\n`)
    }
  }, 1_800_000)
})
