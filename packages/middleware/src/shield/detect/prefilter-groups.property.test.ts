// The pre-filter's keyword groups (prefilter.ts): a group gates an exact test, and is sound when
// it occurs in every value that test passes on. The automaton reads a gated group's words cut to
// their first characters (fewer states); a cut is sound when every declared word still holds a
// word the automaton reads, and only a gated group may be cut (where the words decide alone, a
// cut word would let more values through). These tests check both, and each gate against its
// test on values made of its own words.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DECLARED_GROUPS, shapeOf } from './prefilter'

/** White space of every kind `\s` matches, and runs of it (the automaton reads a run as one). */
const SPACES = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff']

describe('the pre-filter’s keyword groups, as the automaton reads them', () => {
  it('finds each declared word of each group (a cut word is the start of the word)', () => {
    for (const [bit, words] of DECLARED_GROUPS) {
      for (const word of words) {
        // A word's ` ` is any run of white space; the value's start reads as white space.
        expect((shapeOf(`x${word}`).words & bit) !== 0, word).toBe(true)
        expect((shapeOf(`x${word.replaceAll(' ', ' \t ')}`).words & bit) !== 0, word).toBe(true)
      }
    }
  })

  it('cuts only the words of a group that gates a test, and cuts them to a few characters at least', () => {
    for (const [, words, gate] of DECLARED_GROUPS) {
      if (gate === undefined) continue
      expect(gate.cut).toBeGreaterThanOrEqual(4)
      expect(words.some((word) => word.length > gate.cut)).toBe(true)
    }
  })

  it('holds a word of a gated group wherever the test it gates passes, on values of its words', () => {
    for (const [bit, words, gate] of DECLARED_GROUPS) {
      if (gate === undefined) continue
      // The group's words whole, cut anywhere and spelled with other white space, between
      // letters, digits, punctuation and white space: near misses of every match.
      const piece = fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...words) },
        {
          weight: 3,
          arbitrary: fc
            .tuple(fc.constantFrom(...words), fc.nat(), fc.nat())
            .map(([word, a, b]) =>
              word.slice(a % (word.length + 1), b % (word.length + 1) || undefined),
            ),
        },
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.constantFrom(...words), fc.constantFrom(...SPACES))
            .map(([word, space]) => word.replaceAll(' ', space)),
        },
        { weight: 3, arbitrary: fc.constantFrom(...SPACES) },
        // Parentheses too: the call groups' tests (PHP_JOIN, XSS_CALL) pass only with one.
        { weight: 3, arbitrary: fc.constantFrom(...'abdeilnorstxy0123456789.;:-=/\'"#_()') },
      )
      let passed = 0
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
          const value = parts.join('')
          if (gate.guards.test(value)) {
            passed++
            expect(shapeOf(value).words & bit).toBe(bit)
          }
        }),
        { numRuns: 3000 },
      )
      // The values reach the test: it passed on some of them.
      expect(passed).toBeGreaterThan(100)
    }
  })
})
