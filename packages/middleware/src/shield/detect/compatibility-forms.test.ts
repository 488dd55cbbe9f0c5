import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { foldCompatible, mayFold } from './compatibility-forms'
import { ATTACK_CATEGORIES, detect } from './index'

/** What NFKC makes of one code point when that is one printable ASCII character (or a space), else undefined. */
function nfkcAscii(codePoint: number): string | undefined {
  const form = String.fromCodePoint(codePoint).normalize('NFKC')
  return form.length === 1 && form.charCodeAt(0) >= 32 && form.charCodeAt(0) < 127
    ? form
    : undefined
}

describe('compatibility forms', () => {
  it('folds exactly the characters NFKC makes one ASCII character, in the BMP and the alphanumerics block', () => {
    const wrong: string[] = []
    const ranges: Array<[number, number]> = [
      [0x80, 0xd7ff],
      [0xe000, 0xffff],
      [0x1d400, 0x1d7ff],
    ]
    for (const [from, to] of ranges) {
      for (let code = from; code <= to; code++) {
        const char = String.fromCodePoint(code)
        const want = nfkcAscii(code) ?? char
        // mayFold may say yes to more (the whole alphanumerics block), never less.
        if (foldCompatible(char) !== want || (want !== char && !mayFold(char))) {
          wrong.push(`U+${code.toString(16)} → ${JSON.stringify(foldCompatible(char))}`)
        }
      }
    }
    expect(wrong).toEqual([])
  })

  it('folds the forms an attacker spells a payload with', () => {
    expect(foldCompatible('\ufe64script\ufe65alert\ufe591\ufe5a\ufe64/script\ufe65')).toBe(
      '<script>alert(1)</script>',
    )
    expect(foldCompatible('\u{1d42e}\u{1d427}\u{1d422}\u{1d428}\u{1d427}')).toBe('union')
    expect(foldCompatible('1\u037e drop table x')).toBe('1; drop table x')
    expect(foldCompatible('\u24e2\u24d4\u24db\u24d4\u24d2\u24e3')).toBe('select')
  })

  it('leaves every other text as it is (the same string)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const folded = foldCompatible(text)
        if (!mayFold(text)) expect(folded).toBe(text)
        // Folding keeps the length in code points and is done once for all.
        expect([...folded].length).toBe([...text].length)
        expect(foldCompatible(folded)).toBe(folded)
      }),
    )
  })

  it('lets detect() see payloads written in compatibility forms', () => {
    const options = { rules: new Set(ATTACK_CATEGORIES), paranoia: 1 as const }
    expect(detect('\ufe64script\ufe65alert\ufe591\ufe5a\ufe64/script\ufe65', 'body', options)).toBe(
      'xss',
    )
    expect(
      detect('1\ufe5a \u{1d42e}\u{1d427}\u{1d422}\u{1d428}\u{1d427} select 1', 'query', options),
    ).toBe('sqli')
    // Prose in those forms stays prose: styled text (bold letters), superscripts, narrow spaces.
    for (const prose of [
      '\u{1d401}\u{1d428}\u{1d425}\u{1d41d} statement, area 20 m\u00b2',
      'Bonjour\u202f! Ça va\u202f?',
      'Chapter \u2163, step \u2460',
    ]) {
      expect([prose, detect(prose, 'body', options)]).toEqual([prose, undefined])
    }
  })
})
