// Every regular expression of the detection engine goes through recheck, a ReDoS checker (its
// native build, through check()).
//
// Each pattern is first given to recheck's automaton checker, which decides from the pattern's
// automaton, exactly and the same way on every run: a vulnerable verdict from it (exponential or
// polynomial) fails the test. Patterns it cannot decide in time (the large alternations, on a
// loaded machine) or does not support (lookarounds) go to recheck's fuzzer, which searches for a
// slow input: an exponential verdict from it fails the test. Its polynomial verdicts are listed,
// not failed: the fuzzer extrapolates from step counts, and on every pattern both checkers have
// decided, the automaton proved linear what the fuzzer had called polynomial (php's ini
// directives and calls, the shell substitutions, the Windows `for`, the template delimiters, the
// Node.js markers), and a different set each run. detect() bounds them anyway: long values are
// read in overlapping 4 KiB windows, and detect-linear.test.ts times a 1 MB adversarial input.
import { check } from 'recheck'
import { describe, expect, it } from 'vitest'
import { detectRegexLiterals } from './regex-literals'

describe('shield detection patterns under recheck', () => {
  it('has no pattern the automaton finds super-linear, nor one the fuzzer finds exponential', async () => {
    const patterns = detectRegexLiterals()
    expect(patterns.length).toBeGreaterThan(50)
    const vulnerable: string[] = []
    const undecided: string[] = []
    const polynomial: string[] = []
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
      if (searched.status === 'vulnerable' && searched.complexity.type === 'exponential') {
        vulnerable.push(`${where} exponential (fuzz)`)
      } else if (searched.status === 'vulnerable') polynomial.push(where)
      else if (searched.status === 'safe') fuzzed++
      else undecided.push(where)
    }
    expect(vulnerable).toEqual([])
    console.info(
      `recheck: ${proven} proven linear by the automaton, ${fuzzed} found safe by fuzzing, ${polynomial.length} called polynomial by fuzzing only (${polynomial.join(', ')}), ${undecided.length} undecided (${undecided.join(', ')})`,
    )
  }, 1_800_000)
})
