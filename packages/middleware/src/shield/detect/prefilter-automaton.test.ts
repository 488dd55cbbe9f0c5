import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CONTROL,
  compileKeywords,
  DIGIT,
  isWhiteSpace,
  type KeywordGroup,
  NEWLINE,
  NON_ASCII,
  punctuation,
  scanValue,
} from './prefilter-automaton'

/** What the automaton must find, by string search: the value after one white space, each run of white space read as one. */
function reference(groups: readonly KeywordGroup[], lower: string): number {
  const read = ` ${lower}`.replace(/\s+/g, ' ')
  let words = 0
  for (const [bit, list] of groups) if (list.some((word) => read.includes(word))) words |= bit
  return words
}

const GROUPS: KeywordGroup[] = [
  [1, ['he', 'she', 'his', 'hers']],
  [2, ['union select', 'select ', 'union all select']],
  [4, [' 1', ' -1', ';drop table', '; drop table']],
  [8, ['t:', 't :', 'a.b', '..']],
  [16, ['aaa', 'aab', 'b']],
]
const AUTOMATON = compileKeywords(GROUPS)

describe('compileKeywords / scanValue', () => {
  it('finds overlapping words and words that end inside others (Aho–Corasick failures)', () => {
    expect(scanValue(AUTOMATON, 'ushers').words).toBe(1)
    expect(scanValue(AUTOMATON, 'aaaab').words).toBe(16)
    expect(scanValue(AUTOMATON, 'x..y').words).toBe(8)
    expect(scanValue(AUTOMATON, 'the sea').words).toBe(1) // `he` inside `the`
    expect(scanValue(AUTOMATON, 'zzz').words).toBe(0)
  })

  it('reads a run of white space of any kind as one space, and the start as a space', () => {
    expect(scanValue(AUTOMATON, 'union \t\u00a0\n select').words).toBe(2)
    expect(scanValue(AUTOMATON, 'unionselect').words).toBe(0)
    expect(scanValue(AUTOMATON, 'x;\u3000drop\u2028table').words).toBe(4 | 16) // and `b`
    expect(scanValue(AUTOMATON, '1').words).toBe(4)
    expect(scanValue(AUTOMATON, '  \t-1').words).toBe(4)
    expect(scanValue(AUTOMATON, 'x1').words).toBe(0)
    expect(scanValue(AUTOMATON, 'at  :').words).toBe(8)
  })

  it('gives what a string search of every word gives, on random values', () => {
    const letters = fc.constantFrom(...'abdehilnorstuy.;:-1 \t\n\u00a0\u2003\ufeffé')
    fc.assert(
      fc.property(fc.array(letters, { maxLength: 40 }), (chars) => {
        const lower = chars.join('')
        expect(scanValue(AUTOMATON, lower).words).toBe(reference(GROUPS, lower))
      }),
      { numRuns: 2000 },
    )
  })

  it('reads the characters of the value as the pre-filter’s masks name them', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30, unit: 'binary' }), (lower) => {
        const shape = scanValue(AUTOMATON, lower)
        let punct = 0
        let other = 0
        for (const char of lower) {
          const code = char.charCodeAt(0)
          if (code >= 128) other |= NON_ASCII
          else if (code >= 48 && code <= 57) other |= DIGIT
          else if (code === 10 || code === 13) other |= NEWLINE
          else if (code < 32) other |= CONTROL
          else punct |= punctuation(char)
        }
        expect(shape.punct).toBe(punct)
        expect(shape.other).toBe(other)
      }),
    )
  })

  it('takes as white space exactly what \\s matches', () => {
    for (let code = 0; code < 0x10000; code++) {
      expect(isWhiteSpace(code)).toBe(/\s/.test(String.fromCharCode(code)))
    }
  })

  it('refuses words it could not read as written', () => {
    expect(() => compileKeywords([[1, ['Select']]])).toThrow()
    expect(() => compileKeywords([[1, ['a  b']]])).toThrow()
    expect(() => compileKeywords([[1, ['é']]])).toThrow()
    expect(() => compileKeywords([[1, ['']]])).toThrow()
  })

  it('refuses more states than its 16-bit table holds', () => {
    // 26 × 26 words of 40 characters: about 27,000 states of 28 entries.
    const letters = [...'abcdefghijklmnopqrstuvwxyz']
    const words = letters.flatMap((a) => letters.map((b) => `${a}${b}`.repeat(20)))
    expect(() => compileKeywords([[1, words]])).toThrow(/16-bit/)
    expect(() => compileKeywords([[1, words.slice(0, 40)]])).not.toThrow()
  })
})
