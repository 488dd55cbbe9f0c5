// The php test of the pre-filter reads the word before each `(` and asks whether php.ts calls it
// (prefilter.ts, phpCallBefore and callsPhp). callsPhp() rules a word out by its length before it
// copies the word or runs DISTINCT_FUNCTIONS on it: prose puts short words and numbers before its
// parentheses. These check it against the reading it replaced (kept here as the oracle: a copy of
// each word, the name set, `posix_`, the pattern on `word(`), word by word and over whole values
// made of PHP function names (whole, cut, glued to other words), markup, URLs, quotes,
// parentheses, `=`, white space of every kind and prose. And the readers that answer printable
// ASCII before asking isWhiteSpace() (urlMarkInFirstWord, iniLine, phpCallBefore) read every
// UTF-16 code unit as white space or not as `\s` does.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DISTINCT_FUNCTIONS, FUNCTION_NAMES, SHORTEST_DISTINCT_FUNCTION } from './php'
import { callsPhp, iniLine, phpCallBefore, urlMarkInFirstWord } from './prefilter'
import { isWhiteSpace } from './prefilter-automaton'

/** The word test as it was: a copy of the word, then the set, `posix_` and the pattern. */
const calledBefore = (word: string) =>
  FUNCTION_NAMES.has(word) || word.includes('posix_') || DISTINCT_FUNCTIONS.test(`${word}(`)

const isWordChar = (code: number) =>
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  code === 95
const isBeforeCall = (code: number) =>
  isWhiteSpace(code) || code === 39 || code === 34 || code === 40 || code === 61

/** phpCallBefore() as it was before callsPhp(): the oracle. */
function phpCallBeforeOld(lower: string): boolean {
  let floor = 0
  for (let open = lower.indexOf('('); open !== -1; open = lower.indexOf('(', open + 1)) {
    let end = open
    while (end > floor && isBeforeCall(lower.charCodeAt(end - 1))) end--
    const reachedLast = end === floor
    floor = open + 1
    if (reachedLast) continue
    let start = end
    while (start > 0 && isWordChar(lower.charCodeAt(start - 1))) start--
    if (start === end) continue
    if (calledBefore(lower.slice(start, end))) return true
  }
  return false
}

/** DISTINCT_FUNCTIONS' names, from its source (`posix_\w{1,48}` read as `posix_x`, optional groups left out). */
const DISTINCT_NAMES = (/^\(\?:(.*)\)\\s\{0,16\}/.exec(DISTINCT_FUNCTIONS.source)?.[1] ?? '')
  .replace(/\(\?:[^)]*\)\?/g, '')
  .replace('\\w{1,48}', 'x')
  .split('|')
const NAMES = [...FUNCTION_NAMES, ...DISTINCT_NAMES, 'posix_', 'posix_kill', 'sprintf', 'phpinfo']

/** Every kind of white space `\s` reads, and characters next to it that it does not. */
const SPACES = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028']
const NOT_SPACES = ['\u0085', '\u180e', '\u200b', '\u009f', '\u00a1', '~', '!']

/** A name whole, cut at either end, or glued to letters, digits or `_` (`FOOsystem`, `system2`). */
const name = fc
  .tuple(
    fc.constantFrom(...NAMES),
    fc.constantFrom('', 'x', 'my', 'foo_', '_', '9', 'a1', 'posix'),
    fc.constantFrom('', 's', '_', '1', 'x', '_array'),
    fc.nat(8),
    fc.nat(8),
    fc.boolean(),
  )
  .map(([word, before, after, head, tail, cut]) =>
    cut ? word.slice(head % word.length, word.length - (tail % 3)) : before + word + after,
  )

/** A name before a `(`, past what the reading skips there (white space, quotes, `(`, `=`). */
const call = fc
  .tuple(name, fc.constantFrom('', ' ', "'", '" ', '=', ' = ', '(', '\u00a0', '\u0085'))
  .map(([word, between]) => `${word}${between}(`)

const piece = fc.oneof(
  { weight: 3, arbitrary: name },
  { weight: 2, arbitrary: call },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '(',
      '(',
      ')',
      '((',
      '( ',
      ' (',
      "'",
      '"',
      "'('",
      '=',
      '= ',
      '.',
      ';',
      '$',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom(...SPACES, ...NOT_SPACES) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '<b>',
      '<?php',
      '<a href="x">',
      '</script>',
      'https://example.com/a?b=1',
      'http://10.0.0.1/x.php?',
      "siobhan's",
      'cafe',
      '12.3',
      '2026',
      'the one near the station',
      'notes',
      'draft',
      'and',
      'x',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
)
const value = fc.array(piece, { maxLength: 16 }).map((parts) => parts.join(''))

describe('the php test reads the word before a `(` as it did', () => {
  it('takes DISTINCT_FUNCTIONS’ shortest name as the length below which a word ends with none', () => {
    expect(DISTINCT_NAMES.length).toBeGreaterThan(20)
    expect(Math.min(...DISTINCT_NAMES.map((n) => n.length))).toBe(SHORTEST_DISTINCT_FUNCTION)
    expect('posix_'.length).toBeGreaterThanOrEqual(SHORTEST_DISTINCT_FUNCTION)
  })

  it('callsPhp() answers as the copy, the set and the pattern did, on words and on slices of values', () => {
    let called = 0
    fc.assert(
      fc.property(name, (word) => {
        const old = calledBefore(word)
        if (old) called++
        expect(callsPhp(word, 0, word.length)).toBe(old)
        expect(callsPhp(`(${word}(`, 1, word.length + 1)).toBe(old)
      }),
      { numRuns: 5000 },
    )
    expect(called).toBeGreaterThan(300)
    fc.assert(
      fc.property(value, fc.nat(), fc.nat(), (text, a, b) => {
        const start = a % (text.length + 1)
        const end = start + (b % (text.length - start + 1))
        expect(callsPhp(text, start, end)).toBe(calledBefore(text.slice(start, end)))
      }),
      { numRuns: 5000 },
    )
  })

  it('phpCallBefore() gives the old reading’s verdict on values of names, markup, URLs, quotes, parentheses and prose', () => {
    let hits = 0
    let misses = 0
    fc.assert(
      fc.property(value, (text) => {
        const lower = text.toLowerCase()
        const old = phpCallBeforeOld(lower)
        if (old) hits++
        else misses++
        expect(phpCallBefore(lower)).toBe(old)
      }),
      { numRuns: 20_000 },
    )
    // The generator reached both verdicts.
    expect(hits).toBeGreaterThan(800)
    expect(misses).toBeGreaterThan(800)
  })

  it('phpCallBefore() gives the old verdict on the bench’s prose and its near misses', () => {
    for (const text of [
      "we met at siobhan's cafe 12.3 (the one near the station) and talked; see https://example.com/a?b=1.",
      'notes (draft)',
      'cafe 3 (x',
      'x system (',
      'exec (',
      'foocall_user_func (x)',
      'unpack(',
      'npack(',
      'posix_(',
      'posix_x(',
      'dl(',
      'd(',
      `${'a'.repeat(40)}printf(`,
      `${'a'.repeat(40)}(`,
    ]) {
      expect(phpCallBefore(text), text).toBe(phpCallBeforeOld(text))
    }
  })
})

describe('the php and rfi readers read white space as `\\s` does', () => {
  it('on every UTF-16 code unit, answering printable ASCII without the full test', () => {
    // The premise of prefilter.ts's isSpace() and isSpaceOrControl(): `\s` matches nothing from
    // `!` to U+009F, so those answer false there without asking isWhiteSpace().
    for (let code = 33; code < 0xa0; code++) expect(isWhiteSpace(code), String(code)).toBe(false)
    const wrong: number[] = []
    for (let code = 0; code < 0x10000; code++) {
      const c = String.fromCharCode(code)
      if (
        urlMarkInFirstWord(`${c}a${c}:`) !== /^\s*[^\s:/?#]*[:/?#]/.test(`${c}a${c}:`) ||
        iniLine(`${c}a_${c}=`) !== /^\s*[a-z_]+\s*=/.test(`${c}a_${c}=`) ||
        phpCallBefore(`system${c}(`) !== phpCallBeforeOld(`system${c}(`)
      )
        wrong.push(code)
    }
    expect(wrong).toEqual([])
  })
})
