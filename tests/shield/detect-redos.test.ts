// Every regular expression of the detection engine goes through recheck, a ReDoS checker. None may
// be exponential. recheck also reports the patterns whose cost can grow polynomially with the
// input (an unanchored search over a run of spaces, for instance); detect() runs its detectors on
// bounded windows of a long value, so their cost stays linear in the value (detect-linear.test.ts
// shows it on 1 MB inputs). This test fails when a pattern turns exponential, and when the number
// of polynomial ones grows past the count recorded here.
import { checkSync } from 'recheck'
import { describe, expect, it } from 'vitest'
import { detectRegexLiterals } from './regex-literals.ts'

/** Measured 2026-12-06; lower it when a pattern is made linear, never raise it silently. */
const MAX_POLYNOMIAL = 20

describe('shield detection patterns under recheck', () => {
  it('has no exponential pattern, and no more polynomial ones than recorded', () => {
    const patterns = detectRegexLiterals()
    expect(patterns.length).toBeGreaterThan(50)
    const exponential: string[] = []
    const polynomial: string[] = []
    for (const pattern of patterns) {
      const result = checkSync(pattern.source, pattern.flags, { timeout: 10_000 })
      const where = `${pattern.file}:${pattern.line} /${pattern.source.slice(0, 60)}…/`
      if (result.status === 'vulnerable' && result.complexity.type === 'exponential') exponential.push(where)
      else if (result.status === 'vulnerable') polynomial.push(where)
    }
    expect(exponential).toEqual([])
    expect(polynomial.length, polynomial.join('\n')).toBeLessThanOrEqual(MAX_POLYNOMIAL)
  }, 900_000)
})
