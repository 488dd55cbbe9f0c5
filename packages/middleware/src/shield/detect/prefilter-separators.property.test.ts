// The pre-filter's rce test reads a value at its separators: the word at its start and after each
// `;`, `(` and `)`, and what a `(` opens (a call, a loop, `if`, a globbed path). prefilter.ts's
// commandAtSeparator() reads all of it in one place, each parenthesis found once, cheap checks
// before a word is read to its end. It replaced two readings that ran one after the other (the
// calls after each `(`, then the words after each separator: each parenthesis found twice).
// mayRce() ORs its tests, so it is unchanged exactly where commandAtSeparator() equals the OR of
// those two. That reading is kept here as the oracle, its command words read by their
// definition: rce.ts's commandWord() on the text unquoted by pattern, which
// prefilter-command-word.property.test.ts checks the in-place reading against. The values are
// made of shell words, separators, quotes, parentheses, paths and prose.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { commandAtSeparator, shapeOf } from './prefilter'
import { commandWord, WRAPPERS, wrapped } from './rce'
import { AMBIGUOUS_COMMANDS, UNIX_COMMANDS, WINDOWS_COMMANDS } from './shell-commands'

const COMMANDS = new Set([...UNIX_COMMANDS, ...WINDOWS_COMMANDS, ...AMBIGUOUS_COMMANDS])
/** prefilter.ts's unquote(), as a shell drops quotes from inside a word. */
const unquote = (text: string) =>
  text
    .replace(/(?<=[a-z])(?:''|""|'|")(?=[a-z])/g, '')
    .replace(/^['"]|(?<=[;|&`(\s])['"](?=[a-z])/g, '')
/** What commandWord skips before a word. */
const SKIPPED = /[\s'"\\{(!]/
const SPACE = /\s/

/** Whether the word a shell would run at `lower[start]` is a command, by its definition. */
const commandAt = (lower: string, start: number) =>
  COMMANDS.has(commandWord(unquote(lower.slice(start))).word)

/** The reading after a parenthesis before commandAtSeparator(), as prefilter.ts had it. */
function commandAfterParen(lower: string, start: number): boolean {
  for (let i = start; i < lower.length && SKIPPED.test(lower[i] as string); i++) {
    if (lower[i] === '(') return false
  }
  if (!commandAt(lower, start)) return false
  let end = start
  while (end < lower.length && !'();'.includes(lower[end] as string)) end++
  const { word, rest } = commandWord(unquote(lower.slice(start, end)))
  return !AMBIGUOUS_COMMANDS.has(word) || (WRAPPERS.has(word) && wrapped(rest))
}
const endsWithAt = (text: string, word: string, end: number) =>
  text.startsWith(word, end - word.length)
/** The calls a `(` opens, as prefilter.ts's parenthesized() read them. */
function parenthesized(lower: string): boolean {
  if (lower.includes('console')) return true
  if (lower.includes('/') && lower.includes('?') && lower.includes('(/')) return true
  for (let at = lower.indexOf('('); at !== -1; at = lower.indexOf('(', at + 1)) {
    let end = at
    while (end > 0 && at - end < 16 && SPACE.test(lower[end - 1] as string)) end--
    if (
      endsWithAt(lower, 'function', end) ||
      endsWithAt(lower, 'require', end) ||
      endsWithAt(lower, 'while', end)
    )
      return true
    let i = at + 1
    while (i < lower.length && SPACE.test(lower[i] as string)) i++
    if (lower[i] === ';' && i - at <= 17 && endsWithAt(lower, 'for', end)) return true
    if (lower.startsWith('if', i)) {
      const next = lower[i + 2]
      if (next === '/' || (next !== undefined && SPACE.test(next))) return true
    }
  }
  return false
}
/** The words at the separators, as prefilter.ts's commandAtSeparator() read them before. */
function wordsAtSeparators(lower: string, parens: boolean): boolean {
  let opensWithParen = false
  for (let i = 0; i < lower.length && SKIPPED.test(lower[i] as string); i++) {
    if (lower[i] === '(') opensWithParen = true
  }
  if (!(parens && opensWithParen) && commandAt(lower, 0)) return true
  for (let at = lower.indexOf(';'); at !== -1; at = lower.indexOf(';', at + 1)) {
    if (commandAt(lower, at + 1)) return true
  }
  if (parens) {
    for (let at = lower.indexOf('('); at !== -1; at = lower.indexOf('(', at + 1)) {
      if (commandAfterParen(lower, at + 1)) return true
    }
    for (let at = lower.indexOf(')'); at !== -1; at = lower.indexOf(')', at + 1)) {
      if (commandAfterParen(lower, at + 1)) return true
    }
  }
  return false
}
/** What commandAtSeparator() replaced: the calls a parenthesis opens, or a word at a separator. */
function oracle(lower: string): boolean {
  const parens = lower.includes('(') || lower.includes(')')
  return (parens && parenthesized(lower)) || wordsAtSeparators(lower, parens)
}

const piece = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      ...['ls', 'id', 'w', 'at', 'sh', 'cat', 'wget', 'whoami', 'time', 'nohup', 'env', 'set'],
      ...['find', 'python3', 'cmd.exe', 'id.exe', 'ab.exe', "w'h'oami", 'l"s', "wh''oami"],
      ...['bin/', '/usr/bin/', 'x/ls', './ls', '/e?c/', 'a1b/', '.exe', 'exe'],
    ),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ...['we', 'the', 'and', 'not', 'notes', 'station', "don't", "siobhan's", "o'brien", 'a'],
      ...['function', 'require', 'while', 'for', 'console', 'if', 'iff', 'exist', 'union'],
    ),
  },
  { weight: 5, arbitrary: fc.constantFrom(...';;(())') },
  { weight: 3, arbitrary: fc.constantFrom("'", '"', "''", '\\', '{', '!', '/', '?', '.') },
  { weight: 4, arbitrary: fc.constantFrom(' ', ' ', '  ', '\t', '\u00a0', '\u2003', '\ufeff') },
  { weight: 3, arbitrary: fc.constantFrom(...'abeilnostwx0123_+-,:=AZ') },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', 'ı', '日', '\u0000') },
)
const value = fc.array(piece, { maxLength: 14 }).map((parts) => parts.join(''))

describe('the pre-filter’s rce reading at separators and parentheses', () => {
  it('is the reading it replaced, on values of shell words, separators, quotes and prose', () => {
    let fired = 0
    let parens = 0
    fc.assert(
      fc.property(value, (lower) => {
        const expected = oracle(lower)
        expect(commandAtSeparator(lower, shapeOf(lower)), lower).toBe(expected)
        if (expected) fired++
        if (/[()]/.test(lower)) parens++
      }),
      { numRuns: 40000 },
    )
    // Both verdicts are reached often (about one value in five fires), and about half the values
    // hold a parenthesis.
    expect(fired).toBeGreaterThan(4000)
    expect(40000 - fired).toBeGreaterThan(20000)
    expect(parens).toBeGreaterThan(15000)
  })

  it('reads everyday prose and the calls, loops and commands a parenthesis opens', () => {
    const cases: Array<[string, boolean]> = [
      [
        "we met at siobhan's cafe 12.3 (the one near the station) and talked about the union of two teams; don't drop by before nine. see https://example.com/a?b=1.",
        false,
      ],
      ['notes 12.3 on select, from and where in everyday english', false],
      ['x = require ("fs")', true],
      ['for (;;) {}', true],
      ['(if exist c:\\x', true],
      ['cat (/e?c/passwd', true],
      ['console.log(1)', true],
      ['(time wget x)', true],
      ['(time to go)', false],
      ['(at least', false],
      ['a; ls -la', true],
      ['see /tmp/x; the end', false],
      ['x/ls', true],
      ['(( (whoami', true],
    ]
    for (const [lower, expected] of cases) {
      expect(oracle(lower), lower).toBe(expected)
      expect(commandAtSeparator(lower, shapeOf(lower)), lower).toBe(expected)
    }
  })
})
