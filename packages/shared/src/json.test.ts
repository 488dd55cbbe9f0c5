import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readJsonText } from './json'

/** The depth check read character by character (the reference the quote-skipping scan must equal). */
function deepestByCharacters(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 92) i++
      else if (code === 34) inString = false
    } else if (code === 34) inString = true
    else if (code === 91 || code === 123) deepest = Math.max(deepest, ++depth)
    else if (code === 93 || code === 125) depth--
  }
  return deepest
}

describe('readJsonText', () => {
  it('parses a body within the depth limit', () => {
    expect(readJsonText('{"a":[1,{"b":"x\\"]"}]}')).toEqual({
      ok: true,
      value: { a: [1, { b: 'x"]' }] },
    })
  })

  it('refuses a body nested deeper than the limit before parsing it', () => {
    const read = readJsonText(`${'['.repeat(11)}${']'.repeat(11)}`, 10)
    expect(read).toMatchObject({ ok: false, reason: 'too_deep' })
    expect(readJsonText(`${'['.repeat(10)}${']'.repeat(10)}`, 10).ok).toBe(true)
  })

  it('does not count brackets inside strings, escaped quotes and backslash runs included', () => {
    expect(readJsonText(`["${'['.repeat(50)}"]`, 2).ok).toBe(true)
    expect(readJsonText(`["\\\\", ${'['.repeat(3)}${']'.repeat(3)}]`, 3)).toMatchObject({
      reason: 'too_deep',
    })
    expect(readJsonText(`["\\"${'['.repeat(5)}"]`, 2).ok).toBe(true)
    // An unterminated string hides what follows it: malformed, not too deep.
    expect(readJsonText(`["${'['.repeat(5)}`, 2)).toMatchObject({ reason: 'malformed' })
  })

  it('finds the same depth as a character-by-character scan on random text', () => {
    const piece = fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\\\', '\\"', 'a', ',', ':', ' ')
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.integer({ min: 0, max: 8 }),
        (parts, max) => {
          const text = parts.join('')
          const read = readJsonText(text, max)
          const tooDeep = !read.ok && read.reason === 'too_deep'
          expect(tooDeep).toBe(deepestByCharacters(text) > max)
        },
      ),
      { numRuns: 5000 },
    )
  })
})
