// The pre-filter reads the command word at the start of a value and after its `;` and
// parentheses in place (prefilter.ts, unquotedWordEnd and startsWithUnquotedCommand): no copy of
// the text, no pattern, the quotes a shell drops from inside a word skipped as it reads. These
// check that reading against its definition, the word rce.ts's commandWord() reads in the text
// unquoted by pattern: the pre-filter's unquote() (kept here as the oracle), and where the text
// holds no `$` or `\` (what the pre-filter sees: either opens rce before it reads a word), the
// detector's own shellUnquote(). The values are made of what the reading looks at: quotes alone
// and doubled, letters and commands (some with `.exe`, some split by quotes), the characters of
// words and paths, separators, white space of every kind, `$` and `\`, and non-ASCII letters.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { shapeOf, startsWithUnquotedCommand, unquotedWordEnd } from './prefilter'
import { commandWord, shellUnquote } from './rce'
import { AMBIGUOUS_COMMANDS, UNIX_COMMANDS, WINDOWS_COMMANDS } from './shell-commands'

/** prefilter.ts's unquote() as it was written with patterns: the oracle. */
const unquote = (text: string) =>
  text
    .replace(/(?<=[a-z])(?:''|""|'|")(?=[a-z])/g, '')
    .replace(/^['"]|(?<=[;|&`(\s])['"](?=[a-z])/g, '')
const COMMANDS = new Set([...UNIX_COMMANDS, ...WINDOWS_COMMANDS, ...AMBIGUOUS_COMMANDS])
/** What commandWord skips before a word. */
const SKIPPED = /^[\s'"\\{(!]*/

/** How many words prefilterWord() left to the slow way (paths). */
let paths = 0
/** The word the pre-filter reads from `start`: in place, or (a path, -1) by commandWord(unquote()). */
function prefilterWord(text: string, start: number): string {
  const from = start + (SKIPPED.exec(text.slice(start)) as RegExpExecArray)[0].length
  const end = unquotedWordEnd(text, from)
  if (end === -1) {
    paths++
    return commandWord(unquote(text.slice(start))).word
  }
  return text
    .slice(from, end)
    .replace(/['"]/g, '')
    .replace(/\.exe$/, '')
}

const piece = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ...[
        "'",
        '"',
        "''",
        '""',
        '\'"',
        "'''",
        "'a",
        "a'",
        "'ls",
        "w'h'oami",
        "i''d",
        'l"s',
        "don't",
      ],
      ...["o'brien", "it's", "at.e'xe", 'at.exe', 'cmd.exe', 'x.exe', 'ab.exe', '.exe', 'exe'],
    ),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ...['ls', 'id', 'w', 'at', 'whoami', 'wget', 'cat', 'time', 'nohup', 'python3', 'sh'],
      ...['we', 'the', 'and', 'dont', 'siobhan', 'start', 'uniq'],
    ),
  },
  { weight: 6, arbitrary: fc.constantFrom(...'abdeilmorstwxyzAZ0123456789_.+-/') },
  { weight: 3, arbitrary: fc.constantFrom(...';()') },
  { weight: 3, arbitrary: fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', '\u2003', '\ufeff') },
  // The shell's `$IFS` and positional parameters, which shellUnquote() reads and unquote() does not.
  { weight: 1, arbitrary: fc.constantFrom('$', '\\', '{', '!', '$ifs', '$' + '{ifs}', '$1') },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', 'İ', 'ı', '日', '\u0000') },
)
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''))
/** A text and a place to read from in it, `0` to its length. */
const textAndStart = text.chain((value) =>
  fc.tuple(fc.constant(value), fc.nat({ max: value.length })),
)

describe('the pre-filter’s command word, read in place', () => {
  it('is the word commandWord reads in the text unquote() leaves', () => {
    let read = 0
    let quoted = 0
    paths = 0
    fc.assert(
      fc.property(textAndStart, ([value, start]) => {
        const expected = commandWord(unquote(value.slice(start))).word
        expect(prefilterWord(value, start)).toBe(expected)
        if (expected !== '') read++
        if (/['"]/.test(value.slice(start, start + expected.length + 4)) && expected !== '')
          quoted++
      }),
      { numRuns: 20000 },
    )
    expect(read).toBeGreaterThan(5000)
    expect(quoted).toBeGreaterThan(500)
    // The slow way is taken, but rarely.
    expect(paths).toBeGreaterThan(100)
    expect(paths).toBeLessThan(4000)
  })

  it('is a command exactly where the word commandWord reads in the unquoted text is one', () => {
    let commands = 0
    fc.assert(
      fc.property(textAndStart, ([value, start]) => {
        const expected = COMMANDS.has(commandWord(unquote(value.slice(start))).word)
        // The value's shape tells the pre-filter whether it holds a quote or a `/` at all.
        expect(startsWithUnquotedCommand(value, start, shapeOf(value))).toBe(expected)
        if (expected) commands++
      }),
      { numRuns: 20000 },
    )
    expect(commands).toBeGreaterThan(800)
  })

  it('is the detector’s word, shellUnquote() and commandWord(), at the start and after a separator', () => {
    const plain = text.map((value) => value.replace(/[$\\]/g, ''))
    let read = 0
    fc.assert(
      fc.property(plain, fc.constantFrom(';', '(', ')'), plain, (before, separator, after) => {
        const value = before + separator + after
        expect(prefilterWord(value, 0)).toBe(commandWord(shellUnquote(value)).word)
        // The detector splits the unquoted value at its separators: the part after this one
        // starts after the unquoted text before it (unquoting never reads across a separator).
        const head = shellUnquote(before) + separator
        const whole = shellUnquote(value)
        expect(whole.startsWith(head)).toBe(true)
        const word = commandWord(whole.slice(head.length)).word
        expect(prefilterWord(value, before.length + 1)).toBe(word)
        if (word !== '') read++
      }),
      { numRuns: 20000 },
    )
    expect(read).toBeGreaterThan(5000)
  })

  it('reads the words of everyday prose and of commands split by quotes', () => {
    const cases: Array<[string, boolean]> = [
      ["we met at siobhan's cafe", false],
      [" don't drop by", false],
      ["w'h'oami", true],
      ['"l"s -la', true],
      ["at.e'xe 12:00", true],
      ["wh''oami", true],
      ["wh'''oami", false],
      ["o'brien", false],
      ['12.1 (the one', false],
      ["1a'b/ls", true],
      ['./x/ls', true],
    ]
    for (const [value, command] of cases) {
      expect(startsWithUnquotedCommand(value, 0, shapeOf(value)), value).toBe(command)
    }
  })
})
