// detectSqli (packages/middleware/src/shield/detect/sqli.ts) skips a pattern where the text lacks
// what every match of it holds, and skips tokenizing where no trigger of injected() is followed by
// what it needs. Skipping must never change a verdict: here the gated detector is compared with
// the ungated one (detectSqliWith(…, false): every pattern, every token stream) on the same values,
// at both paranoia levels and in every kind: the CRS corpus, the benign corpus, and random prose
// made of apostrophes, parentheses, SQL words and operators (what opens the gates).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { InputKind } from '../../packages/middleware/src/shield/detect/index'
import { normalize, stripSqlComments } from '../../packages/middleware/src/shield/detect/normalize'
import {
  detectSqliWith,
  mayInject,
  SQL_NEEDS_ANY,
  SQL_SIGN_NEEDS,
  SQL_SIGNS,
  SQL_STATEMENT_NEEDS,
  SQL_STATEMENTS,
} from '../../packages/middleware/src/shield/detect/sqli'
import { loadBenign, loadCases } from '../fixtures/crs/measure'
import { inputsOf } from '../fixtures/crs/requests'

const KINDS: InputKind[] = ['path', 'query', 'header', 'user-agent', 'cookie', 'body', 'name']

/** The paranoia levels and kinds where the gated and ungated detectors disagree on `value`. */
function disagreements(value: string, kinds: readonly InputKind[] = KINDS): string[] {
  const text = normalize(value)
  const subject = { raw: value, text, lower: text.toLowerCase() }
  const out: string[] = []
  for (const kind of kinds) {
    for (const paranoia of [1, 2] as const) {
      if (
        detectSqliWith(subject, kind, paranoia, true) !==
        detectSqliWith(subject, kind, paranoia, false)
      )
        out.push(`${kind}@${paranoia}`)
    }
  }
  return out
}

/** The signs and statements whose pattern matches `text` where their gate says it cannot. */
function gatesMissed(lower: string): string[] {
  const text = stripSqlComments(lower)
  const out: string[] = []
  const needs = [...SQL_SIGN_NEEDS, ...SQL_STATEMENT_NEEDS]
  ;[...SQL_SIGNS, ...SQL_STATEMENTS].forEach((pattern, i) => {
    if (!pattern.test(text)) return
    if (!(needs[i] as (t: string) => boolean)(text)) out.push(`${pattern} needs`)
    if (!SQL_NEEDS_ANY.test(text)) out.push(`${pattern} SQL_NEEDS_ANY`)
  })
  return out
}

/** Prose and near-SQL: what opens each gate (apostrophes, `(`, logic and comparison words, `;`). */
const PIECES = [
  ...`it it's don't won't siobhan's o'brien i'm we've the cafe near station meeting notes draft
  about of two teams before nine see is in like rlike between sounds glob regexp not and or xor
  div union all distinct select from where order group by as into outfile true false null a x
  drop table insert update set delete exec declare grant use if sleep char count user version
  concat substr elt case when then waitfor delay 1 5th 0.5 42 .5 0x1f 1e5 $and`.split(/\s+/),
  ...`' " \` ( ) , . ; = < > <= != <> == ! - + * / || && | & # -- @ @@version : ? \\ é`.split(' '),
]
const SEPARATORS = [' ', ' ', ' ', '', '\t', '\n', '\u00a0', '\u2003', ', ']
const prose = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...SEPARATORS)), {
    minLength: 1,
    maxLength: 30,
  })
  .map((parts) => parts.map(([piece, separator]) => piece + separator).join(''))
  .chain((v) => fc.constantFrom(v, v.trim(), v.toUpperCase(), `${v.trim()}'`))

describe('the gates of detectSqli never change its verdict', () => {
  it('on every input of every CRS case, in every kind', () => {
    const wrong: string[] = []
    const missed: string[] = []
    for (const test of loadCases()) {
      for (const input of inputsOf(test)) {
        const bad = disagreements(input.value)
        if (bad.length > 0) wrong.push(`${test.id} ${JSON.stringify(input.value)} ${bad.join(',')}`)
        const gate = gatesMissed(normalize(input.value).toLowerCase())
        if (gate.length > 0) missed.push(`${test.id} ${gate.join(',')}`)
      }
    }
    expect(wrong).toEqual([])
    expect(missed).toEqual([])
  }, 600_000)

  it('on the benign corpus, in every kind', () => {
    const wrong: string[] = []
    for (const sample of loadBenign()) {
      const bad = disagreements(sample.value)
      if (bad.length > 0) wrong.push(`${JSON.stringify(sample.value)} ${bad.join(',')}`)
    }
    expect(wrong).toEqual([])
  }, 120_000)

  it('on random prose with apostrophes, parentheses, SQL words and operators', () => {
    fc.assert(
      fc.property(prose, (v) => {
        expect(disagreements(v, ['body', 'name', 'path'])).toEqual([])
        expect(gatesMissed(v.toLowerCase())).toEqual([])
      }),
      { numRuns: 20_000 },
    )
  }, 600_000)

  it('on the shapes each trigger needs, one token off', () => {
    const values = [
      "1' or 1=1",
      "1' or 1=1 --",
      "x' and 'a'='a",
      "it's 5 and it is fine",
      "it's fine and it is",
      "o'brien) and 1",
      "o'brien) and 1 #",
      "x' or true",
      "x' or true;",
      "x' or (not (1)) = 1",
      "x' || 'a' = 'a",
      "x' && 1",
      "a' union select 1",
      "a' union (select 1",
      "a' union all distinct select",
      "a' order by 1",
      "a' order by 1 x",
      "a' group by 5--",
      "a'; drop table x",
      "a'; drop by",
      "a';",
      "a'; ",
      "a'; update x set y",
      "a'; set @a",
      "a'+char(65)",
      "a' and sleep(5)",
      'sleep (a lot)',
      "x' or (((((((((((1=1",
      "x' or not not not not not not not not not 1",
      `${'a '.repeat(1100)}' or 1`,
      `${'a '.repeat(1023)}' or 1`,
      `${'a '.repeat(1023)}1 or 1`,
      // logicAfterValue reads four tokens past the `(`s: as many as the first read holds, and one more.
      "x' or ((((( a - b = c",
      "x' or (((((( a - b = c",
      "x' or (((( a - b = c",
      "x' or (((((((((((((( a - b = c",
      // A stream cut at MAX_TOKENS ends after `1 or 1`: the whole stream fires, the tail alone would not.
      ...[2044, 2045, 2046].map((n) => `b'${','.repeat(n)}1 or 1 x`),
      '1\tas x\tfrom y',
      // Past MAX_TRIGGERS triggers the streams run whatever the triggers were.
      `${"1 or \\' ".repeat(40)}1 or 1`,
      `${"it's, and ".repeat(40)}1' or 1`,
      "a' 0 or 1",
      "a' 0.0 or 1",
      "a' 1. or 1",
      '@@version',
      "x' into outfile '/tmp/x",
      'waitfor delay',
      'cafe (the one near the station) and talked about the union of two teams',
      // The word after a trigger settles it where it is a word its test does not go on with
      // (mayInject's mayBeWord, twoPlainWordsAfter): a word off each, and the words read as such.
      "it's; don't",
      "it's; drop table t",
      "it's;\u00a0drop table t",
      "it's; $drop table t",
      "it's; \u00e9drop table t",
      "it's;",
      "it's; -- x",
      "it's; 'x'",
      "a' union of two",
      "a' union all of",
      "a' union\u00a0select 1",
      "a' union distinct(select 1",
      "a' union 'select'",
      "a' order of 1",
      "a' order by 1",
      "a' group\tby 1",
      "x') and talked about",
      "x') and talked like y",
      "x') and talked is null",
      "x') and talked = 1",
      "x') and talked - b = c",
      "x') and talked (1)",
      "x') and t about",
      "x') and true about",
      "x') and not about",
      "x') and not x = 1",
      "x') and sleep about",
      "x') and $a about",
      "x') and \u00e9t\u00e9 about",
      "x') and talked",
      "x') and talked\u2003about",
      "x') and talked\u00a0about",
      "x') || talked about",
      "x') || talked = 1",
      // `||` and `&&` are found in the trigger search, a run of three holding two.
      "x' ||| 1",
      "x' &&& 1",
      "x') ||| talked about",
      "x' || 1 && 'a' = 'a",
      `${"it's || x ".repeat(20)}1' or 1`,
      `${"it's && x ".repeat(40)}1' or 1`,
      "x') and talked 1",
    ]
    const wrong = values.flatMap((v) =>
      disagreements(v).map((bad) => `${JSON.stringify(v)} ${bad}`),
    )
    expect(wrong).toEqual([])
  })
})

describe('the token streams are skipped on prose', () => {
  it('an apostrophe, `and`/`or`, a parenthesis, a `;` and `union` in prose open none', () => {
    const values = [
      "It's the 5th time we've met, and it won't be the last, or so I'm told.",
      'Notes 5 (draft) on the meeting, from the minutes of Tuesday',
      "We met at Siobhan's cafe 17.3 (the one near the station) and talked about the union of two teams; don't drop by before nine. See https://example.com/a?b=1.",
      "Siobhan O'Brien",
      "I'm not sure, and cats and dogs are fine",
    ]
    for (const value of values)
      expect([value, mayInject(value.toLowerCase(), 1)]).toEqual([value, false])
  })

  it('past 32 triggers they run (a gate reading far after each would be quadratic)', () => {
    expect(mayInject("it's, and ".repeat(10), 1)).toBe(false)
    expect(mayInject("it's, and ".repeat(40), 1)).toBe(true)
  })

  it('a closed value before a logic word opens them', () => {
    expect(mayInject("it's 5 and it is fine", 1)).toBe(true)
    expect(mayInject("x' or 1=1", 1)).toBe(true)
  })
})
