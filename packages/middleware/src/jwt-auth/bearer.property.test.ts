// bearerToken's fast path (one space after an ASCII "bearer", a token without whitespace) against
// the split it short-cuts: the same answer for every header, including Unicode whitespace that
// trim() and \s see (NBSP, U+2028, the BOM) and schemes in any case.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bearerToken, INVALID_REQUEST, schemeToken } from './bearer'

/** What jwtAuth did before the fast path: trim, split at whitespace runs, scheme any case. */
function bySplit(
  authorization: string,
  scheme = 'bearer',
): string | undefined | typeof INVALID_REQUEST {
  const parts = authorization.trim().split(/\s+/)
  if ((parts[0] as string).toLowerCase() !== scheme) return undefined
  return parts.length === 2 ? (parts[1] as string) : INVALID_REQUEST
}

const pieces = fc.constantFrom(
  'Bearer',
  'bearer',
  'DPoP',
  'dpop',
  'DPOP',
  'BEARER',
  'bEaReR',
  'Basic',
  'Bearerx',
  'Bear',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\u3000',
  'a.b.c',
  'eyJhbGciOiJIUzI1NiJ9.e30.sig',
  ',',
  'ı', // dotless i: lower-cases to itself, never to an ASCII letter
  'K', // Kelvin sign: lower-cases to an ASCII k
)

describe('bearerToken', () => {
  it('answers as trim + split(/\\s+/) on headers built from schemes, tokens and whitespace', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(pieces, fc.string({ maxLength: 8 })), { maxLength: 6 }),
        (parts) => {
          const header = parts.join('')
          expect(bearerToken(header)).toBe(bySplit(header))
          expect(schemeToken(header, 'dpop')).toBe(bySplit(header, 'dpop'))
        },
      ),
      { numRuns: 5000 },
    )
  })

  it('answers as the split on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(bearerToken(text)).toBe(bySplit(text))
        expect(bearerToken(`Bearer ${text}`)).toBe(bySplit(`Bearer ${text}`))
      }),
      { numRuns: 5000 },
    )
  })

  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer  abc', 'abc'],
    ['  Bearer abc  ', 'abc'],
    ['Bearer abc\u00a0', 'abc'],
    ['Bearer a\u00a0bc', INVALID_REQUEST],
    ['Bearer abc def', INVALID_REQUEST],
    ['Bearer', INVALID_REQUEST],
    ['Bearer ', INVALID_REQUEST],
    ['Basic abc', undefined],
    ['Bearerabc', undefined],
  ])('%j → %s', (header, expected) => {
    expect(bearerToken(header)).toBe(expected)
    expect(bySplit(header)).toBe(expected)
  })
})
