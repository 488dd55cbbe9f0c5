// detect()'s pre-filter (packages/middleware/src/shield/detect/prefilter.ts) skips a detector only
// where it proves the detector cannot fire. The proof is by reading the patterns; this checks it:
// category by category, at both paranoia levels, detect() with the pre-filter and without it give
// the same verdict, on every input of every CRS regression case (fire and no-fire), on the benign
// corpus, and on random values built from the words and characters of the detectors' own patterns
// (so the keyword paths of each pre-filter are exercised, not only random noise).
import { readdirSync, readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ATTACK_CATEGORIES,
  type AttackCategory,
  detectWith,
  type InputKind,
} from '../../packages/middleware/src/shield/detect/index'
import { FUNCTION_NAMES } from '../../packages/middleware/src/shield/detect/php'
import { WRAPPERS } from '../../packages/middleware/src/shield/detect/rce'
import {
  AMBIGUOUS_COMMANDS,
  UNIX_COMMANDS,
  WINDOWS_COMMANDS,
} from '../../packages/middleware/src/shield/detect/shell-commands'
import { loadBenign, loadCases } from '../fixtures/crs/measure'
import { inputsOf } from '../fixtures/crs/requests'
import { detectRegexLiterals } from './regex-literals'

/** The detectors' sources: the words their sets list (`union`, `select`) are in string literals. */
const DETECT = new URL('../../packages/middleware/src/shield/detect/', import.meta.url)
const SOURCES = readdirSync(DETECT)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => readFileSync(new URL(file, DETECT), 'utf8'))
  .join('\n')

const KINDS: InputKind[] = ['path', 'query', 'header', 'user-agent', 'cookie', 'body', 'name']
const PARANOIA = [1, 2] as const

/** Categories on which the two disagree for one value, as `category@paranoia`. */
function disagreements(value: string, kind: InputKind, name?: string): string[] {
  const out: string[] = []
  for (const paranoia of PARANOIA) {
    for (const category of ATTACK_CATEGORIES) {
      const options = { rules: new Set<AttackCategory>([category]), paranoia }
      const filtered = detectWith(value, kind, options, name, true)
      const full = detectWith(value, kind, options, name, false)
      if (filtered !== full) out.push(`${category}@${paranoia}`)
    }
  }
  return out
}

/** The words, and the punctuation, of every pattern and name list of the engine; and the shell commands. */
function vocabulary(): string[] {
  const words = new Set<string>()
  for (const { source } of detectRegexLiterals()) {
    for (const word of source.replace(/\\[sSdDwWbB]/g, ' ').match(/[a-z0-9_]{2,}/g) ?? []) {
      words.add(word)
    }
  }
  for (const word of SOURCES.match(/'[a-z0-9_]{2,}'/g) ?? []) words.add(word.slice(1, -1))
  // The sets of names written as one template string (PHP's and SQL's functions).
  for (const list of SOURCES.match(/`\s+[a-z0-9_\s]+`/g) ?? []) {
    for (const word of list.match(/[a-z0-9_]{2,}/g) ?? []) words.add(word)
  }
  for (const command of [...UNIX_COMMANDS, ...WINDOWS_COMMANDS]) words.add(command)
  return [...words]
}

describe('the pre-filter never changes a verdict', () => {
  it('on every input of every CRS case, in its own kind and as a body value and a name', () => {
    const wrong: string[] = []
    for (const test of loadCases()) {
      for (const input of inputsOf(test)) {
        for (const kind of new Set<InputKind>([input.kind, 'body', 'name'])) {
          const bad = disagreements(input.value, kind, input.name)
          if (bad.length > 0) wrong.push(`${test.id} ${kind} ${bad.join(',')}`)
        }
      }
    }
    expect(wrong).toEqual([])
  }, 600_000)

  it('on the benign corpus, in every kind', () => {
    const wrong: string[] = []
    for (const sample of loadBenign()) {
      for (const kind of KINDS) {
        const bad = disagreements(sample.value, kind, sample.name)
        if (bad.length > 0) wrong.push(`${JSON.stringify(sample.value)} ${kind} ${bad.join(',')}`)
      }
    }
    expect(wrong).toEqual([])
  }, 120_000)

  it('on CRS payloads cut and spliced at random (near-attacks, one character or word off)', () => {
    const payloads = [
      ...new Set(loadCases().flatMap((test) => inputsOf(test).map((input) => input.value))),
    ].filter((v) => v.length <= 400)
    const words = vocabulary()
    const spliced = fc
      .tuple(
        fc.constantFrom(...payloads),
        fc.nat(),
        fc.nat(),
        fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 3 })),
      )
      .map(([v, a, b, insert]) => {
        const start = a % (v.length + 1)
        const end = start + (b % 8)
        return v.slice(0, start) + insert + v.slice(Math.min(end, v.length))
      })
    fc.assert(
      fc.property(spliced, fc.constantFrom(...KINDS), (v, kind) => {
        expect(disagreements(v, kind)).toEqual([])
      }),
      { numRuns: 3000 },
    )
  }, 600_000)

  it('on values at the edges of the command and remote-inclusion tests (no strong character)', () => {
    // Without ( ) { } $ < > | ~ ! [ % & ` \ or a line break, a command starts the value or a `;`,
    // possibly after a path (`example.com/ls`), or is a named construct; a remote inclusion's
    // scheme, host or `?` is in the value's first word.
    const edges = [
      'example.com/ls -la',
      'example.com/wget -q x',
      'x;a/b/nc -e sh',
      'see: a/b/wget http://x',
      'hello; wget http://evil',
      "hello; w'g'et http://evil",
      'hello;/usr/bin/id',
      'a=/bin/sh',
      'cat /e?c/passwd',
      "x '/et?/passwd",
      'x /etc/pass?d',
      'module.exports = 1',
      'alias ls=rm',
      'if/i a==b echo',
      'if exist c:\\x',
      'sh -c id',
      'a; nohup ifconfig',
      'whoami',
      'python3.10 -c x',
      '; drop by any time. see https://example.com/a?b=1.',
      '  http://127.0.0.1/x',
      'localhost#a /b',
      'file://etc/passwd x',
      'https://example.com?',
      'data:text/html,x',
      'x http://169.254.169.254/',
      'php://filter/resource=x',
      '() { :; }; id',
      ';id',
      ' | id',
    ]
    const wrong: string[] = []
    for (const value of edges) {
      for (const kind of KINDS) {
        for (const name of [undefined, 'include', 'url']) {
          const bad = disagreements(value, kind, name)
          if (bad.length > 0)
            wrong.push(`${JSON.stringify(value)} ${kind} ${name} ${bad.join(',')}`)
        }
      }
    }
    expect(wrong).toEqual([])
  })

  it('on random prose with apostrophes, parentheses and SQL words (what opens the SQL test)', () => {
    // sqli.ts gates its patterns and token streams on what follows an `and` after a value, a `(`
    // after a function's name: prose of those pieces, a word off an injection's shape, reaches them.
    const pieces = [
      ...`it's don't siobhan's o'brien i'm the cafe near station notes draft is in like between
      not and or xor union all select from where order group by as into true null a x drop table
      insert update set if sleep char count user concat case when then 1 5th 0.5 .5`.split(/\s+/),
      ...`' " \` ( ) , . ; = < > != - + || && # -- @ @@version`.split(' '),
    ]
    const prose = fc
      .array(fc.tuple(fc.constantFrom(...pieces), fc.constantFrom(' ', ' ', '', '\n', ', ')), {
        minLength: 1,
        maxLength: 24,
      })
      .map((parts) => parts.map(([piece, separator]) => piece + separator).join(''))
    fc.assert(
      fc.property(prose, fc.constantFrom(...KINDS), (v, kind) => {
        expect(disagreements(v, kind)).toEqual([])
      }),
      { numRuns: 2000 },
    )
  }, 600_000)

  // Parentheses alone do not open the command test (prefilter.ts, mayRce): a `(` or `)` counts
  // where rce.ts reads it as code, a command word after it, a call or loop of js-injection.ts, a
  // globbed path, a Windows `(if`. These are the values at those gates, each of which the detector
  // flags (checked first, so each is an edge the pre-filter must not skip), and prose beside them.
  const PAREN_FIRES = [
    'notes (nohup ifconfig)',
    " '(curl -o x y)",
    'whoami (x)',
    '(nohup ifconfig',
    'notes (time wget x)',
    "(time 'w'get -q x)",
    "notes (w'g'et -q x)",
    "notes (cu'rl -o x y)",
    "it's 'w'get' (wget -q x)",
    'a (whoami; b',
    'notes (nc -e sh x)',
    'we (curl -o x y)',
    'see (cat /etc/passwd)',
    'x) wget -q y',
    'x = require (fs',
    "x = require\t('fs')",
    'x (new function (',
    'a while (true)',
    'a for(;;)',
    'a for \u3000( \t;;)',
    'a for (\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t;;)',
    'console.log(1)',
    'see (/e?c/passwd',
    'x (if exist c:x',
    'x (if/i a==b echo',
    'x (\u00a0if "a"==',
  ]

  it('on values at the command test’s parenthesis gates (each one flagged), in every kind', () => {
    const unflagged = PAREN_FIRES.filter(
      (v) => !detectWith(v, 'body', { rules: new Set(['rce']), paranoia: 1 }, undefined, false),
    )
    expect(unflagged).toEqual([])
    const near = [
      '(time to go)',
      '(at least one)',
      "it's (ls -la)",
      'see (whoami)',
      'a (id;',
      'notes (sudo reboot)',
      "notes (w'h'oami)",
      'a (wget http://x',
      'x (iff exist',
      'x (ifexist',
      'the whiles (true)',
      'for a ( ;; )',
      'thanks for (all) the fish',
      'for (\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t;;)',
      'see (/etc?/x',
      '(/e?c/passwd',
      '((ls -la',
      ')) nohup ifconfig',
      "notes ('ls' -la)",
    ]
    const wrong: string[] = []
    for (const value of [...PAREN_FIRES, ...near]) {
      for (const kind of KINDS) {
        const bad = disagreements(value, kind)
        if (bad.length > 0) wrong.push(`${JSON.stringify(value)} ${kind} ${bad.join(',')}`)
      }
    }
    expect(wrong).toEqual([])
  })

  // A parenthesis, or a quote with a logic word, `;`, `--` or `#`, opens the SQL test only where
  // sqli.ts's mayCallOrInject() may fire (prefilter.ts, proseMayBeSql): a name it reads as a call
  // before a `(`, or a trigger whose next tokens may make an injection. These values are at that
  // gate, each flagged by the detector (checked first), and prose a token off them.
  const SQL_PROSE_FIRES = [
    "x') or ('1'='1",
    'abs(1)',
    ') or 1=1',
    ') and sleep(5)',
    "it's 1 or 1=1",
    "it's (1) or 1=1",
    "siobhan's cafe) and 1=1",
    "it's late) and a=b",
    "caf\u00e9's) or 1=1",
    "\u00df'\u00df) or 1=1",
    "x's) and x like y",
    "x's) and sleep(1)",
    "it's x) or 'a'='a",
    "x' or 1=1 or 'don't",
    'a if(1=1,1,0)',
    'x) like (y',
    'merge x using (y',
    'match (a) against (b',
    'x union(select(1))',
    'x union all(select 1)',
    "x' and sleep (5)",
    'x sleep(5)',
    "x' or user()",
    "x's (count(*))",
    "x'; drop table users",
    "x';",
    "x'\u00a0;",
    "it's; drop table t",
  ]

  it('on values at the SQL test’s parenthesis and quote gates (each one flagged), in every kind', () => {
    const unflagged = SQL_PROSE_FIRES.filter(
      (v) => !detectWith(v, 'body', { rules: new Set(['sqli']), paranoia: 1 }, undefined, false),
    )
    expect(unflagged).toEqual([])
    const near = [
      'abs (1)',
      "O'Brien';x",
      "O'Brien'--",
      "don't' or 1=1--",
      "don't' or 'a'='a",
      'notes (draft) or 1=1',
      "x' or (1)=(1)",
      'cafe (the one) and x = 1',
      'cafe (the one) and a like b',
      'cafe (the one) and 1',
      'cafe (the one) and true',
      'cafe (the one) and not x = 1',
      "o'brien's ( x ) or y is null",
      "it's late) and talked about",
      "it's late) and talked is",
      "it's late) and talked, about",
      "it's late) and $talked about",
      "it's late) and t\u00e9 about",
      "it's late) and talked\u2003about",
      "it's; don't",
      "it's; drop by",
      "it's;\u00a0drop table t",
      "it's; $drop table t",
      "it's; \u00e9drop table t",
      "it's the union of two; don't",
      "it's the union all of them; don't",
      "it's the union \u00a0select; don't",
      "it's in order of size; don't",
      "it's in order by 1; don't",
      "it's in group by 2",
      "doesn't it (the one) or not",
      'version(x',
      'user(s) and',
      'like (this) and that',
    ]
    const wrong: string[] = []
    for (const value of [...SQL_PROSE_FIRES, ...near]) {
      for (const kind of KINDS) {
        const bad = disagreements(value, kind)
        if (bad.length > 0) wrong.push(`${JSON.stringify(value)} ${kind} ${bad.join(',')}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('on random prose around the SQL test’s gates: apostrophes between letters of any script, parentheses, logic words', () => {
    const pieces = [
      ...`don't siobhan's o'brien it's caf\u00e9's \u00dfo'\u00df \u0131'x \u03c9'\u03a9 na\u00efve' l'\u00e9t\u00e9
      we met the cafe near station talked about of two teams drop by before nine see notes draft
      and or not xor div union all distinct select order group by as is null true false like in
      between abs count user sleep char version if using against match merge concat drop table
      insert into set 1 1=1 0.5 x a`.split(/\s+/),
      ...`' " ( ) ; , = < > -- # ' or ' ') (' 'a'='a`.split(' '),
    ]
    const separators = [' ', ' ', ' ', '', '\u00a0', '\u2003', '\t', ', ']
    const prose = fc
      .array(fc.tuple(fc.constantFrom(...pieces), fc.constantFrom(...separators)), {
        minLength: 1,
        maxLength: 20,
      })
      .map((parts) => parts.map(([piece, separator]) => piece + separator).join(''))
    fc.assert(
      fc.property(prose, fc.constantFrom(...KINDS), (v, kind) => {
        expect(disagreements(v, kind)).toEqual([])
      }),
      { numRuns: 3000 },
    )
  }, 600_000)

  it('on prose with parentheses, quotes and `;` around shell commands and code', () => {
    const commands = [...UNIX_COMMANDS, ...WINDOWS_COMMANDS]
    const prose = `notes draft on the meeting one near station we met at cafe it s don t
      drop by before nine see below and talked about union of two teams time to go least not
      exist defined errorlevel equ neq a b x c:x new true log while whiles for function require
      console process child_process if iff`.split(/\s+/)
    const piece = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...prose) },
      { weight: 2, arbitrary: fc.constantFrom(...commands) },
      { weight: 1, arbitrary: fc.constantFrom(...AMBIGUOUS_COMMANDS, ...WRAPPERS) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '-la',
          '-e',
          '-q',
          '-c',
          '/etc/passwd',
          '/e?c/',
          'x.exe',
          '==',
          '"a"',
        ),
      },
      { weight: 5, arbitrary: fc.constantFrom('(', ')', '(', ')', "'", '"', ';', ',', '.') },
      { weight: 1, arbitrary: fc.constantFrom('/', '?', '\t', '\u00a0', '\u3000', '  ', '=', '!') },
    )
    const value = fc
      .array(piece, { minLength: 1, maxLength: 16 })
      .chain((parts) => fc.constantFrom(parts.join(' '), parts.join(''), ` ${parts.join(' ')}`))
    fc.assert(
      fc.property(value, fc.constantFrom(...KINDS), (v, kind) => {
        expect(disagreements(v, kind)).toEqual([])
      }),
      { numRuns: 4000 },
    )
  }, 600_000)

  it('on prose with parentheses, and calls spelled as the detectors unfold them', () => {
    // PHP, Java and XSS run behind a `(` only where their detectors could read a call there: a
    // name php.ts calls, or one its unobfuscate() joins from pieces (quotes and dots, comments,
    // line comments, `(x)(`, `(string)`, `(a.(b).c)`), Java's `.exec(`, a timer or a dialog.
    // Prose with parentheses, and those names whole or split and joined each way, glued to or
    // spaced from the parenthesis, with code or prose after them.
    const names = [
      ...FUNCTION_NAMES,
      'posix_kill',
      `posix_${'a'.repeat(60)}`,
      'call_user_func',
      'fsockopen',
      'sprintf',
      'xprintf',
      'intval',
      'phpinfo',
      'str_rot13',
      'settimeout',
      'setinterval',
      'btoa',
      'atob',
      'expression',
      'alert',
      'prompt',
      'confirm',
      'x.exec',
      'a.getmethod',
      'a.newinstance',
      'getclass().forname',
      'url(javascript',
      'constructor.constructor',
      'draft',
      'station',
    ]
    const prose = fc.constantFrom(
      'notes 12 (draft) on the meeting',
      "we met at siobhan's cafe (the one near the station). don't",
      'see (a) (b) and (c).',
      '',
      'x',
      ' ',
    )
    /** `name` cut in two and joined back the ways unobfuscate() undoes (or plainly). */
    const split = (name: string, at: number, how: number): string => {
      const a = name.slice(0, at % (name.length + 1))
      const b = name.slice(a.length)
      const c = b.slice(0, b.length >> 1)
      const d = b.slice(c.length)
      const ways = [
        name,
        `${a} ${b}`,
        `'${a}'.'${b}'`,
        `"${a}" . "${b}"`,
        `${a}/*x*/${b}`,
        `${a}#x\n${b}`,
        `${a}//x\n${b}`,
        `${a}(string)${b}`,
        `${a}(${b})`,
        `${a}('${b}')`,
        `(${a}.(${c}).${d})`,
        `${a}['${b}'][0]`,
        `${a}\n${b}`,
      ]
      return ways[how % ways.length] as string
    }
    const call = fc
      .tuple(
        fc.constantFrom(...names),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('(', ' (', "'(", '"(', '((', ' = (', ')(', '\t(', ''),
        fc.constantFrom("'id');", '1)', ')', '"ls")', 'x)', '', ') ;', '$x)', ' '),
      )
      .map(([name, at, how, open, arg]) => split(name, at, how) + open + arg)
    const value = fc
      .tuple(prose, call, prose, fc.constantFrom(' ', '', '; ', '\n', ' (', '.'))
      .map(([before, c, after, glue]) => before + glue + c + glue + after)
      .chain((v) => fc.constantFrom(v, v.toUpperCase()))
    fc.assert(
      fc.property(value, fc.constantFrom(...KINDS), (v, kind) => {
        expect(disagreements(v, kind)).toEqual([])
      }),
      { numRuns: 6000 },
    )
  }, 600_000)

  it('on random values made of the patterns’ words and characters', () => {
    const words = vocabulary()
    expect(words.length).toBeGreaterThan(500)
    const piece = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...words) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(...' ./\\:;=?&|$(){}[]<>\'"`!@#%*+,-~^_\n\t0123456789'),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('%2e', '%2f', '&lt;', '\\u003c', '\uff1c', 'İ', 'é'),
      },
    )
    const value = fc
      .tuple(fc.array(piece, { minLength: 1, maxLength: 24 }), fc.constantFrom('', ' ', ' ', '\n'))
      .map(([parts, separator]) => parts.join(separator))
      .chain((v) => fc.constantFrom(v, v.toUpperCase(), ` ${v}`))
    fc.assert(
      fc.property(value, fc.constantFrom(...KINDS), fc.constantFrom(...words), (v, kind, name) => {
        expect(disagreements(v, kind, name)).toEqual([])
      }),
      { numRuns: 3000 },
    )
  }, 600_000)
})
