// Every regular expression of the detection engine goes through recheck, a ReDoS checker (its
// native build, through check()). None may be exponential: that is the catastrophic backtracking
// that hangs a process on a short input. recheck also reports patterns whose cost can grow
// polynomially with the input (an unanchored search through a run of spaces, for instance), and
// gives up on some large alternations ('unknown'); detect() runs its detectors on bounded windows
// of a long value (detect/index.ts), so their cost stays linear in the value, which
// detect-linear.test.ts measures on 1 MB inputs. bench/README.md ("shield corpus") lists them.
import { check } from 'recheck'
import { describe, expect, it } from 'vitest'
import { detectRegexLiterals } from './regex-literals'

describe('shield detection patterns under recheck', () => {
  it('has no pattern with exponential backtracking', async () => {
    const patterns = detectRegexLiterals()
    expect(patterns.length).toBeGreaterThan(50)
    const exponential: string[] = []
    const polynomial: string[] = []
    for (const pattern of patterns) {
      const result = await check(pattern.source, pattern.flags, { timeout: 5_000 })
      const where = `${pattern.file}:${pattern.line}`
      if (result.status !== 'vulnerable') continue
      if (result.complexity.type === 'exponential') exponential.push(where)
      else polynomial.push(where)
    }
    expect(exponential).toEqual([])
    // Informational: the polynomial ones are bounded by detect()'s windows.
    console.info(`recheck: ${polynomial.length} polynomial (windowed): ${polynomial.join(', ')}`)
  }, 900_000)
})
