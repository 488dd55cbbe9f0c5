// The one-pass pre-filter (packages/middleware/src/shield/detect/prefilter.ts, reading each value
// through prefilter-automaton.ts) must let run every detector that the pre-filter before it let
// run, the one that scanned each pattern over every value (prefilter-oracle.ts, frozen): on every
// input of the CRS corpus and the benign corpus, and on random values made of the patterns' words,
// white space of every kind, punctuation, encodings, unicode and fullwidth forms. It selects the
// same set by design (a pattern runs where its words occur), so the test also reports any value
// where the new one runs more. prefilter.property.test.ts checks the other edge: no detector the
// pre-filter skips could have fired.
//
// One deliberate difference: the frozen pre-filter ran PHP, Java and XSS on any value with a `(`;
// the new one runs them behind a `(` only where their detectors could read a call there (a PHP
// function name before it, or what unobfuscate() joins into one; Java's and XSS's call words).
// Such a skip is allowed here only where the frozen pre-filter, shown the value without its `(`,
// would have skipped the category too: so every other test, and every keyword group's gate, is
// still held to the frozen one, and the skips themselves are proven sound by
// prefilter.property.test.ts (detect() with and without the pre-filter agree).
//
// Likewise the frozen pre-filter ran the command-injection detector on any value with a
// parenthesis, the new one only where rce.ts reads the parenthesis as code (a command word after
// it, a call, a loop, a globbed path, `(if`: prefilter.ts, mayRce), so prose such as `(the one
// near the station)` skips it. Such an rce skip is allowed only on a value that holds a
// parenthesis and none of the other characters that open rce (so every other gate of rce, the
// automaton's words included, is still held to the frozen one), and where the detector, run here,
// does not fire: the skip is checked sound on the spot.
//
// And the frozen pre-filter ran the SQL detector on any value with a parenthesis, or with a quote
// and a logic word, `;`, `--` or `#`; the new one only where sqli.ts's mayCallOrInject() may fire
// (a call's name before a `(`, a trigger whose next tokens may make an injection), so prose such
// as `Siobhan's cafe (the one near the station) and talked; don't drop by` skips it. Such a skip
// is allowed only where the frozen pre-filter, shown the value without its parentheses and
// quotes, would have skipped SQL too (every other SQL test is still held to the frozen one), and
// where the detector, run here, does not fire.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ATTACK_CATEGORIES,
  type AttackCategory,
  detectWith,
  type InputKind,
} from '../../packages/middleware/src/shield/detect/index'
import { normalize } from '../../packages/middleware/src/shield/detect/normalize'
import { mayFire, shapeOf } from '../../packages/middleware/src/shield/detect/prefilter'
import { punctuation } from '../../packages/middleware/src/shield/detect/prefilter-automaton'
import {
  UNIX_COMMANDS,
  WINDOWS_COMMANDS,
} from '../../packages/middleware/src/shield/detect/shell-commands'
import { loadBenign, loadCases } from '../fixtures/crs/measure'
import { inputsOf } from '../fixtures/crs/requests'
import * as oracle from './prefilter-oracle'
import { detectRegexLiterals } from './regex-literals'

/** White space of every kind `\\s` matches. */
const SPACES = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028']
const KINDS: InputKind[] = ['path', 'query', 'header', 'user-agent', 'cookie', 'body', 'name']

/** The categories whose `(` the new pre-filter reads more closely (see the comment above). */
const CALL_READ = new Set(['php', 'java', 'xss'])
const OPEN_PAREN = punctuation('(')
/** The characters that open rce but for parentheses, or a line break (the frozen RCE_CHARS). */
const RCE_OPENERS_BUT_PARENS = /[{}$<>|~![%&`\\\n\r]/
const RCE: Set<AttackCategory> = new Set(['rce'])

/**
 * Whether the new pre-filter may skip rce where the frozen one ran it: a parenthesis opened it,
 * nothing else of the frozen test's characters did, and the detector does not fire.
 */
function soundParenSkip(value: string, lower: string, kind: InputKind, paranoia: 1 | 2): boolean {
  if (!/[()]/.test(lower) || RCE_OPENERS_BUT_PARENS.test(lower)) return false
  return !detectWith(value, kind, { rules: RCE, paranoia }, undefined, false)
}

/** The characters whose reading the new pre-filter narrows for SQL (see the comment above). */
const SQL_PROSE_MARKS = punctuation('()\'"')
const SQLI: Set<AttackCategory> = new Set(['sqli'])

/**
 * Whether the new pre-filter may skip sqli where the frozen one ran it: only a parenthesis or a
 * quote opened it there, and the detector does not fire.
 */
function soundSqlSkip(
  value: string,
  lower: string,
  before: oracle.Shape,
  kind: InputKind,
  paranoia: 1 | 2,
): boolean {
  const withoutMarks = { ...before, punct: before.punct & ~SQL_PROSE_MARKS }
  if (oracle.mayFire('sqli', lower, withoutMarks, kind, paranoia)) return false
  return !detectWith(value, kind, { rules: SQLI, paranoia }, undefined, false)
}

/**
 * For one value as detect() reads it: the categories the oracle runs and the new one skips, and
 * the reverse; `skipped`, the skips allowed as the frozen one's `(` read more closely.
 */
function compare(
  value: string,
  kind: InputKind,
): { missed: string[]; extra: string[]; skipped: string[] } {
  const lower = normalize(value).toLowerCase()
  const before = oracle.shapeOf(lower)
  const withoutParen = { ...before, punct: before.punct & ~OPEN_PAREN }
  const now = shapeOf(lower)
  const missed: string[] = []
  const extra: string[] = []
  const skipped: string[] = []
  for (const paranoia of [1, 2] as const) {
    for (const category of ATTACK_CATEGORIES) {
      const old = oracle.mayFire(category, lower, before, kind, paranoia)
      const mine = mayFire(category, lower, now, kind, paranoia)
      const label = `${category}@${paranoia}`
      if (old && !mine) {
        const byParen =
          (CALL_READ.has(category) &&
            (before.punct & OPEN_PAREN) !== 0 &&
            !oracle.mayFire(category, lower, withoutParen, kind, paranoia)) ||
          (category === 'rce' && soundParenSkip(value, lower, kind, paranoia)) ||
          (category === 'sqli' && soundSqlSkip(value, lower, before, kind, paranoia))
        ;(byParen ? skipped : missed).push(label)
      }
      if (mine && !old) extra.push(label)
    }
  }
  return { missed, extra, skipped }
}

function check(values: Iterable<[string, InputKind]>): { missed: string[]; extra: string[] } {
  const missed: string[] = []
  const extra: string[] = []
  for (const [value, kind] of values) {
    const { skipped: _, ...result } = compare(value, kind)
    const label = `${JSON.stringify(value.slice(0, 80))} ${kind}`
    if (result.missed.length > 0) missed.push(`${label} ${result.missed.join(',')}`)
    if (result.extra.length > 0) extra.push(`${label} ${result.extra.join(',')}`)
  }
  return { missed, extra }
}

/** The words of the pre-filter's and the detectors' patterns, and the shell commands. */
function vocabulary(): string[] {
  const words = new Set<string>()
  for (const { source } of detectRegexLiterals()) {
    for (const word of source.replace(/\\[sSdDwWbB]/g, ' ').match(/[a-z0-9_.-]{2,}/g) ?? []) {
      words.add(word)
      words.add(word.replace(/[._-]/g, ''))
    }
  }
  for (const command of [...UNIX_COMMANDS, ...WINDOWS_COMMANDS]) words.add(command)
  return [...words]
}

describe('the one-pass pre-filter runs every detector the pattern-per-test one ran', () => {
  it('on every input of every CRS case, in its own kind and as a body value and a name', () => {
    const values: Array<[string, InputKind]> = []
    for (const test of loadCases()) {
      for (const input of inputsOf(test)) {
        for (const kind of new Set<InputKind>([input.kind, 'body', 'name']))
          values.push([input.value, kind])
      }
    }
    const { missed, extra } = check(values)
    expect(missed).toEqual([])
    expect(extra).toEqual([])
  }, 300_000)

  it('on the benign corpus, in every kind', () => {
    const { missed, extra } = check(
      loadBenign().flatMap((sample) =>
        KINDS.map((kind): [string, InputKind] => [sample.value, kind]),
      ),
    )
    expect(missed).toEqual([])
    expect(extra).toEqual([])
  })

  it('on values at the edges of the command word read without a pattern (a path before it, quotes)', () => {
    const edges = [
      'example.com/wget -q x',
      'ab+c/ls -la',
      'ab+c/ls',
      'ls/',
      'wget/x',
      'x;ls/',
      'x;a.b/nc -e sh',
      'x; wget.exe/',
      'ls.exe',
      "ls'x",
      "w'h'oami",
      "siobhan o'brien;id",
      'see https://example.com/a?b=1; id',
      'see; ',
      'x;',
      ';',
      'python3.10+x/y',
      "  'w'h'o'ami x",
      "\u3000'ls' y",
      'w"h"oami\u00a0z',
      "(ls'x y",
      "'ls",
      "ls'' -la",
      "a'b c'd",
      "w'get",
      "who'ami and more words",
      // A word after `;` behind what commandWord skips, read without a copy; three-letter starts.
      'x; (wget -q',
      "x; 'ls' y",
      'x;\u00a0 !ls',
      'x; {ls.exe',
      'x; a.exe',
      'x; ab.exe z',
      'x; 7z a',
      'x;\\ls',
      'x; lsx; whoamix; who; wh',
      'x; whoami',
      "siobhan o'brien",
      "o'brien; drop by",
      'wh\u00e9; nc\u00e9',
    ]
    const { missed, extra } = check(
      edges.flatMap((v) => KINDS.map((k): [string, InputKind] => [v, k])),
    )
    expect(missed).toEqual([])
    expect(extra).toEqual([])
  })

  it('skips PHP, Java and XSS on prose with a parenthesis, as the frozen one did without it', () => {
    const prose = [
      'Notes 12 (draft) on the meeting, from the minutes of Tuesday',
      "We met at Siobhan's cafe 3 (the one near the station) and talked; don't drop by before nine.",
      'The report (see the appendix) covers the files and systems (both of them).',
    ]
    for (const value of prose) {
      for (const kind of ['body', 'query', 'cookie'] as const) {
        const { missed, extra, skipped } = compare(value, kind)
        expect({ missed, extra }).toEqual({ missed: [], extra: [] })
        // rce's and sqli's skips of the same prose: the next tests.
        expect(skipped.filter((label) => !/^(?:rce|sqli)@/.test(label))).toEqual([
          'java@1',
          'php@1',
          'xss@1',
          'java@2',
          'php@2',
          'xss@2',
        ])
      }
    }
    // A call the detector reads is not skipped: the frozen one runs it, so does the new one.
    const calls = [
      ['x system(1)', 'php'],
      ["'sys'.'tem'(1)", 'php'],
      ['sys(tem)(1)', 'php'],
      ['a.exec("id")', 'java'],
      ['alert (1)', 'xss'],
    ]
    for (const [value, category] of calls) {
      const { missed, extra, skipped } = compare(value as string, 'body')
      expect({ missed, extra }).toEqual({ missed: [], extra: [] })
      expect(skipped).not.toContain(`${category}@1`)
      expect(skipped).not.toContain(`${category}@2`)
    }
    // A name PHP calls before the parenthesis runs PHP, even in prose (its detector decides).
    const system = compare('the system (both of them)', 'body').skipped
    expect(system.filter((label) => !/^(?:rce|sqli)@/.test(label))).toEqual([
      'java@1',
      'xss@1',
      'java@2',
      'xss@2',
    ])
  })

  it('skips rce on prose with parentheses, only where the detector cannot fire', () => {
    const rceSkips = (value: string) => {
      const { missed, extra, skipped } = compare(value, 'body')
      expect({ missed, extra }).toEqual({ missed: [], extra: [] })
      return skipped.filter((label) => label.startsWith('rce@'))
    }
    // At paranoia 2 a `;` before a letter opens rce whatever the parentheses.
    expect(rceSkips('Notes 12 (draft) on the meeting, from the minutes of Tuesday')).toEqual([
      'rce@1',
      'rce@2',
    ])
    expect(
      rceSkips(
        "We met at Siobhan's cafe 3 (the one near the station) and talked; don't drop by before nine.",
      ),
    ).toEqual(['rce@1'])
    expect(rceSkips('(at least one) of them (time to go)')).toEqual(['rce@1', 'rce@2'])
    // Where the parenthesis is code the new pre-filter runs rce as the frozen one did.
    for (const code of [
      'notes (nohup ifconfig)',
      'a while (true)',
      'x (if exist c:x',
      'see (cat /etc/passwd)',
    ])
      expect(rceSkips(code)).toEqual([])
  })

  it('skips sqli on prose with parentheses and apostrophes, only where the detector cannot fire', () => {
    const sqlSkips = (value: string) => {
      const { missed, extra, skipped } = compare(value, 'body')
      expect({ missed, extra }).toEqual({ missed: [], extra: [] })
      return skipped.filter((label) => label.startsWith('sqli@'))
    }
    // Paranoia 2 runs the SQL detector on every value: only paranoia 1 skips.
    for (const prose of [
      "We met at Siobhan's cafe 3.0 (the one near the station) and talked about the union of two teams; don't drop by before nine. See https://example.com/a?b=1.",
      'Notes 12 (draft) on the meeting, from the minutes of Tuesday',
      "It's late and we're tired; don't wait (or do).",
      'The report (see the appendix) covers the files (both of them) and more.',
      "Siobhan O'Brien's notes (draft 2) or not, and the rest (see below)",
    ])
      expect(sqlSkips(prose)).toEqual(['sqli@1'])
    // Where the parenthesis or the quote is SQL the new pre-filter runs sqli as the frozen one did.
    for (const code of [
      'abs (1)',
      'x sleep(5)',
      ') or 1=1',
      "it's 1 or 1=1",
      "x') or ('1'='1",
      "x' or sleep(5)--",
      "x'; drop table users",
      'x union(select(1))',
      'a if(1=1, 1, 0)',
      'x) like (y',
      "don't' or 'a'='a",
      "O'Brien';",
      // A comment anywhere is a rare trigger: the streams are read.
      "Siobhan O'Brien's notes (draft) -- not final",
    ])
      expect(sqlSkips(code)).toEqual([])
  })

  it('on random values of keywords, white space, punctuation, encodings and unicode', () => {
    const words = vocabulary()
    expect(words.length).toBeGreaterThan(300)
    const piece = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...words) },
      { weight: 1, arbitrary: fc.constantFrom(...words).map((w) => w.toUpperCase()) },
      {
        weight: 4,
        arbitrary: fc.constantFrom(...' ./\\:;=?&|$(){}[]<>\'"`!@#%*+,-~^_0123456789'),
      },
      // Every kind of white space `\s` matches, and runs of it (the automaton reads a run as one).
      {
        weight: 3,
        arbitrary: fc
          .array(fc.constantFrom(...SPACES), { minLength: 1, maxLength: 6 })
          .map((spaces) => spaces.join('')),
      },
      // Encodings normalize() peels, fullwidth forms, letters that change length in lower case.
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '%2e',
          '%2f',
          '%252f',
          '%3b',
          '%20',
          '&lt;',
          '&#x3a;',
          '&colon;',
          '\\u003c',
          '\\x2f',
          '\uff1c',
          '\uff53\uff45\uff4c\uff45\uff43\uff54',
          '\uff0f',
          '\u0130',
          '\u212a',
          '\u00e9',
          '\ud83d\ude00',
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 4, unit: 'binary' }) },
    )
    const value = fc
      .array(piece, { minLength: 1, maxLength: 16 })
      .chain((parts) => fc.constantFrom(parts.join(''), parts.join(' '), parts.join('\t ')))
    fc.assert(
      fc.property(value, fc.constantFrom(...KINDS), (v, kind) => {
        const { skipped: _, ...result } = compare(v, kind)
        expect(result).toEqual({ missed: [], extra: [] })
      }),
      { numRuns: 20_000 },
    )
  }, 300_000)
})
