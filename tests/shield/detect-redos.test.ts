// Every regular expression of the detection engine goes through recheck, a ReDoS checker (its
// native build, through check()), and none may be super-linear: neither exponential (the
// catastrophic backtracking that hangs a process on a short input) nor polynomial (an unanchored
// search that rescans a run of the input from each start).
//
// Each pattern is first given to recheck's automaton checker, which decides from the pattern's
// automaton, exactly and the same way on every run. Patterns it cannot decide in time (the large
// alternations on a loaded machine) or does not support (lookarounds) go to recheck's fuzzing
// checker, which searches for a slow input. Any vulnerable verdict fails the test. The fuzzing
// checker is a search, not a proof, and it reports as polynomial some patterns the automaton
// proves linear (it extrapolates from step counts); so the automaton's word comes first. What no
// checker decides within its time is listed, and detect() still bounds it: long values are read in
// overlapping 4 KiB windows, and detect-linear.test.ts times a 1 MB adversarial input.
import { check } from 'recheck'
import { describe, expect, it } from 'vitest'
import { detectRegexLiterals } from './regex-literals'

describe('shield detection patterns under recheck', () => {
  it('has no pattern with super-linear backtracking', async () => {
    const patterns = detectRegexLiterals()
    expect(patterns.length).toBeGreaterThan(50)
    const vulnerable: string[] = []
    const undecided: string[] = []
    let proven = 0
    let fuzzed = 0
    for (const pattern of patterns) {
      const where = `${pattern.file}:${pattern.line}`
      const exact = await check(pattern.source, pattern.flags, {
        checker: 'automaton',
        timeout: 20_000,
      })
      if (exact.status === 'vulnerable') {
        vulnerable.push(`${where} ${exact.complexity.type} (automaton)`)
        continue
      }
      if (exact.status === 'safe') {
        proven++
        continue
      }
      const searched = await check(pattern.source, pattern.flags, {
        checker: 'fuzz',
        timeout: 20_000,
      })
      if (searched.status === 'vulnerable') {
        vulnerable.push(`${where} ${searched.complexity.type} (fuzz)`)
      } else if (searched.status === 'safe') fuzzed++
      else undecided.push(where)
    }
    expect(vulnerable).toEqual([])
    console.info(
      `recheck: ${proven} proven linear by the automaton, ${fuzzed} found safe by fuzzing, ${undecided.length} undecided in time${undecided.length > 0 ? `: ${undecided.join(', ')}` : ''}`,
    )
  }, 1_800_000)
})
