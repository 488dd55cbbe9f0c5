// sqli.ts's gate (mayInject, mayCallOrInject) reads words in place: the word after a trigger and
// the name before a `(` are bounds in the text (sql-tokens.ts's sqlSkipSpace and sqlWordEnd),
// asked of a table by length and characters (wordsIn) instead of sliced and hashed, and a
// trigger is told by the end of its match (triggerAt) instead of by the match's text. Each is
// compared here with the reading it replaced, kept as the oracle: sqlWordAfter() slicing the word,
// the sets' has() on the slice, the match's own text, and the `||`/`&&` found by indexOf. The
// values are made of what the readers look at: SQL, logic and function words (some upper-case),
// quotes, parentheses, `;`, operators, digits, white space of every kind, non-ASCII letters and
// spaces (é, U+2003) and prose. tests/shield/sqli-gates.property.test.ts compares the whole gate
// with the ungated detector.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  sqlSkipSpace,
  sqlSpaceAt,
  sqlTokens,
  sqlWordAt,
  sqlWordEnd,
  wordsIn,
} from '../../packages/middleware/src/shield/detect/sql-tokens'
import {
  ATTACK_FUNCTIONS,
  ATTACK_FUNCTIONS_IN,
  readAsCall,
  SIGN_CALLS,
  sqlFunction,
  sqlFunctionIn,
  TRIGGER,
  TRIGGER_KINDS,
  triggerAt,
} from '../../packages/middleware/src/shield/detect/sqli'

/** sql-tokens.ts's sqlWordAfter() as it was: the oracle of sqlSkipSpace and sqlWordEnd. */
function sqlWordAfter(text: string, from: number): string | undefined {
  let i = from
  while (sqlSpaceAt(text, i)) i++
  const code = text.charCodeAt(i)
  if (!sqlWordAt(text, i) || (code >= 48 && code <= 57)) return undefined
  let end = i + 1
  while (sqlWordAt(text, end)) end++
  return text.slice(i, end)
}
/** The word read in place, as sqli.ts reads it. */
function wordInPlace(text: string, from: number): string | undefined {
  const start = sqlSkipSpace(text, from)
  const end = sqlWordEnd(text, start)
  return end === start ? undefined : text.slice(start, end)
}

/** The gate's TRIGGER before `||` and `&&` joined it, and the loops that found those. */
const OLD_TRIGGER =
  /\b(?:or|and|xor|div|not|union|order|group)\b|;|#|--|\/\*|@@|waitfor|outfile|dumpfile/g
function oldTriggers(text: string): string[] {
  const out: string[] = []
  for (const match of text.matchAll(OLD_TRIGGER)) out.push(`${match.index} ${match[0]}`)
  for (const operator of ['||', '&&']) {
    for (let at = text.indexOf(operator); at !== -1; at = text.indexOf(operator, at + 1))
      out.push(`${at} ${operator}`)
  }
  return out.sort()
}
/** The triggers as triggerMayFire() finds and tells them: by test(), the end and triggerAt(). */
function newTriggers(text: string): string[] {
  const byKind = new Map<number, string[]>()
  for (const [word, kind] of Object.entries(TRIGGER_KINDS))
    byKind.set(kind, [...(byKind.get(kind) ?? []), word])
  const trigger = new RegExp(TRIGGER.source, 'g')
  const out: string[] = []
  while (trigger.test(text)) {
    const end = trigger.lastIndex
    const kind = triggerAt(text, end)
    // The rare ones share a kind (each opens the streams): the word is the one that ends here.
    const word = (byKind.get(kind) ?? []).find(
      (w) => w.length === (kind & 15 || w.length) && text.startsWith(w, end - w.length),
    )
    out.push(`${end - (word?.length ?? 0)} ${word}`)
    if (word === '||' || word === '&&') trigger.lastIndex = end - 1
  }
  return out.sort()
}

const PIECES = [
  ...`it it's don't siobhan's o'brien the cafe near station about talked of two teams before nine
  see is in like rlike between sounds glob regexp not and or xor div union all distinct select
  from where order group by as into outfile dumpfile waitfor delay true false null a x t drop
  table insert update set delete exec execute declare grant use if sleep char count user users
  version concat_ws md5 elt haßelt jsonb_ jsonb_each dbms_pipe utl_ regexp_like regexp_ using
  against ordered orgroup xorx andor before waitforx 1 5th 0.5 42 .5 0x1f 1e5 @a @@version $a
  é été u_ _x ÉTÉ AND Or UNION Select SLEEP`.split(/\s+/),
  ...`' " \` ( ) , . ; = < > <= != <> == ! - + * / || ||| && &&& | & # -- /* */ @ @@ : :: ? \\`.split(
    ' ',
  ),
]
/** White space of every kind: what the tokenizer and wordCalls() skip, and what they do not. */
const SPACES = [
  ' ',
  ' ',
  '',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u0085',
  '\u00a0',
  '\u1680',
  '\u2003',
  '\u200b',
  '\u2028',
  '\u202f',
  '\u3000',
  '\ufeff',
]
const values = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...SPACES)), {
    minLength: 1,
    maxLength: 24,
  })
  .map((parts) => parts.map(([piece, space]) => piece + space).join(''))
  .chain((v) => fc.constantFrom(v, v.toLowerCase(), `${v}(`, `'${v}`))

describe("sqli.ts's gate reads in place what it read by slices", () => {
  it('the word after a position: sqlSkipSpace and sqlWordEnd against sqlWordAfter and the tokenizer', () => {
    fc.assert(
      fc.property(values, (text) => {
        for (let i = 0; i <= text.length; i++) {
          const word = wordInPlace(text, i)
          expect([text, i, word]).toEqual([text, i, sqlWordAfter(text, i)])
          const first = sqlTokens(text, sqlSkipSpace(text, i), 1)[0]
          expect([text, i, word]).toEqual([
            text,
            i,
            first?.type === 'word' ? first.value : undefined,
          ])
        }
      }),
      { numRuns: 3000 },
    )
  })

  it("a table's words asked in place: wordsIn against the set's has()", () => {
    const lists = [
      [...ATTACK_FUNCTIONS],
      [...SIGN_CALLS],
      ['all', 'distinct', 'select'],
      ['by'],
      ['not', 'true'],
      ['=', '<=', 'like', 'in', 'is', 'between', 'sounds', 'glob', 'regexp', 'rlike'],
      ['é', 'été', 'a\u2003b', '$a', 'x'],
    ]
    const tables = lists.map((list) => [new Set(list), wordsIn(list)] as const)
    fc.assert(
      fc.property(values, fc.array(fc.constantFrom(...PIECES)), (text, random) => {
        const all = [...tables, [new Set(random), wordsIn(random)] as const]
        for (let start = 0; start <= text.length; start++) {
          for (let end = start; end <= Math.min(text.length, start + 30); end++) {
            for (const [set, inPlace] of all) {
              const slice = text.slice(start, end)
              if (inPlace(text, start, end) !== set.has(slice))
                expect([text, start, end, inPlace(text, start, end)]).toEqual([
                  text,
                  start,
                  end,
                  set.has(slice),
                ])
            }
          }
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('the names before `(`: sqlFunctionIn, ATTACK_FUNCTIONS_IN and readAsCall against the sets', () => {
    const asCall = (name: string) =>
      sqlFunction(name) || ATTACK_FUNCTIONS.has(name) || SIGN_CALLS.includes(name)
    fc.assert(
      fc.property(values, (text) => {
        // nameBeforeParen() asks them of a run of ASCII word characters; any range is asked here.
        for (let start = 0; start < text.length; start++) {
          for (let end = start + 1; end <= Math.min(text.length, start + 30); end++) {
            const name = text.slice(start, end)
            const got = [
              sqlFunctionIn(text, start, end),
              ATTACK_FUNCTIONS_IN(text, start, end),
              readAsCall(text, start, end),
            ]
            const want = [sqlFunction(name), ATTACK_FUNCTIONS.has(name), asCall(name)]
            if (got.join() !== want.join()) expect([name, got]).toEqual([name, want])
          }
        }
      }),
      { numRuns: 1000 },
    )
    for (const name of [...ATTACK_FUNCTIONS, ...SIGN_CALLS, 'jsonb_each', 'dbms_x', 'utl_', 'x'])
      expect([name, readAsCall(`(${name}(`, 1, name.length + 1)]).toEqual([name, asCall(name)])
  })

  it('the triggers: found and told by their end as the old pattern, its text and indexOf found them', () => {
    fc.assert(
      fc.property(values, (text) => {
        expect([text, newTriggers(text)]).toEqual([text, oldTriggers(text)])
      }),
      { numRuns: 5000 },
    )
    for (const text of ['|||', '&&&&', 'a||b&&c', 'xor order waitfor or', 'é or x;or#--/*@@'])
      expect([text, newTriggers(text)]).toEqual([text, oldTriggers(text)])
  })
})
