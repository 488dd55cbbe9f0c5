// The pre-filter of detect(): before a detector runs, a cheap test that proves it cannot fire on
// this value. Each test names what its detector needs (the characters, and for the alternatives
// made of words only, the words) and is derived by reading that detector's patterns: a value
// without any of them cannot match. `prefilter.property.test.ts` checks the claim: with the
// pre-filter and without it, detect() gives the same verdict on random values and on every CRS
// corpus payload. Change a detector, change its test here.
//
// The value is read once (prefilter-automaton.ts): its characters, and which keyword groups below
// occur in it. A pattern of the tests runs only where one of its group's words occurs, and each
// group lists words of which every match of its pattern holds one (` ` standing for a run of
// white space): so `group && pattern` says what the pattern said, and a value without the words,
// most values, costs no scan at all. prefilter-groups.property.test.ts checks each gated group
// against its test, and prefilter-oracle.property.test.ts (tests/shield) the whole pre-filter
// against the one that ran every pattern.

import { DISTINCT_FUNCTIONS, FUNCTION_NAMES, SHORTEST_DISTINCT_FUNCTION } from './php'
import {
  punctuation as bit,
  compileKeywords,
  DIGIT,
  isWhiteSpace,
  type KeywordGroup,
  NEWLINE,
  NON_ASCII,
  type Shape,
  scanValue,
} from './prefilter-automaton'
import { commandWord, WRAPPERS, wrapped } from './rce'
import { AMBIGUOUS_COMMANDS, UNIX_COMMANDS, WINDOWS_COMMANDS } from './shell-commands'
import { mayCallOrInject, STACKED_ALONE } from './sqli'
import type { InputKind, Paranoia } from './subject'

export type { Shape } from './prefilter-automaton'

// The single characters the tests below ask about, as masks (computed once, not per value).
const COLON = bit(':')
const EQUALS = bit('=')
const DOT = bit('.')
const SLASH = bit('/')
const SLASH_EQUALS = bit('/=')
const PATH_CHARS = bit('/\\.')
const SLASHES_SEMICOLON = bit('/\\;')
const OPEN_PAREN = bit('(')
const SEMICOLON = bit(';')
const DASH = bit('-')
const QUESTION = bit('?')
const QUOTES = bit('\'"')

const has = (shape: Shape, mask: number) => (shape.punct & mask) !== 0

/**
 * isWhiteSpace(), with printable ASCII answered by two comparisons: `\s` matches nothing from `!`
 * to U+009F. The readers of the php, xss and rfi tests ask it of most characters they read, and
 * on a letter the full test's dozen comparisons cost more than the rest of their loop.
 */
const isSpace = (code: number) => (code <= 32 || code >= 0xa0) && isWhiteSpace(code)
/** White space (what `\s` matches) or an ASCII control character. */
const isSpaceOrControl = (code: number) => code <= 32 || (code >= 0xa0 && isWhiteSpace(code))
const isNameChar = (code: number) =>
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  code === 95 ||
  code === 46

/**
 * Whether some `=` in `lower` has, before it (past at most `spaces` white-space or control
 * characters), a name (`[\w.]`, read back at most `length` characters) that `accept` takes: it
 * reads the name in place, `lower[start, end)` (no copy per `=`). A scan back from each `=`, each
 * bounded: linear, where a pattern would rescan from every start (names hold no `=`, so they do
 * not overlap, and `accept` reads only its name).
 */
function nameBeforeEquals(
  lower: string,
  spaces: number,
  length: number,
  accept: (lower: string, start: number, end: number) => boolean,
): boolean {
  for (let eq = lower.indexOf('='); eq !== -1; eq = lower.indexOf('=', eq + 1)) {
    let end = eq
    while (end > 0 && eq - end < spaces && isSpaceOrControl(lower.charCodeAt(end - 1))) end--
    let start = end
    while (start > 0 && end - start < length && isNameChar(lower.charCodeAt(start - 1))) start--
    if (start < end && accept(lower, start, end)) return true
  }
  return false
}

/** Every `a + b` of a word of `as` and a word of `bs`. */
const joined = (as: readonly string[], bs: readonly string[]) =>
  as.flatMap((a) => bs.map((b) => a + b))
const DIGITS = [...'0123456789']
/** `;` and `;` with white space after it (`;\s*` before a word). */
const AFTER_SEMICOLON = [';', '; ']

/** The keyword groups: one bit each, named for the pattern or test it guards. */
const G = {
  prototype: 1 << 0,
  javaClass: 1 << 1,
  javaNames: 1 << 2,
  phpColon: 1 << 3,
  phpSession: 1 << 4,
  lfiNames: 1 << 5,
  lfiSlashed: 1 << 6,
  lfiDotted: 1 << 7,
  xssColon: 1 << 8,
  xssEquals: 1 << 9,
  xssDot: 1 << 10,
  xssWords: 1 << 11,
  rceIf: 1 << 12,
  rceNames: 1 << 13,
  rceDashed: 1 << 14,
  rcePaths: 1 << 15,
  rceOpenSlash: 1 << 16,
  sqlMarks: 1 << 17,
  sqlQuoted: 1 << 18,
  sqlDigits: 1 << 19,
  sqlStacked0: 1 << 20,
  sqlStacked1: 1 << 21,
  sqlStacked2: 1 << 22,
  sqlWords0: 1 << 23,
  sqlWords1: 1 << 24,
  sqlNumberOpens: 1 << 25,
  phpJoins: 1 << 26,
  javaCalls: 1 << 27,
  xssCalls: 1 << 28,
} as const
const GROUPS: KeywordGroup[] = []
/** The exact test a group's words gate (it runs only where one occurs), and how many first characters of each word the automaton reads. */
interface Gate {
  guards: { test(lower: string): boolean }
  cut: number
}
/** Every group as declared: its bit, its words uncut, and its gate if it has one (for the tests). */
export const DECLARED_GROUPS: Array<readonly [bit: number, words: readonly string[], gate?: Gate]> =
  []
/**
 * Declares the words of group `bit` (beside the pattern they guard) and returns the bit.
 *
 * A group with a `gate` is read cut: the automaton looks for the first `gate.cut` characters of
 * each word. A value holding a word holds its start, so the group still occurs wherever
 * `gate.guards` may pass; it occurs in more values, and that test, which runs behind it wherever
 * the group is read, decides as before. The cuts keep the automaton small: 1,044 states, 111 KB as
 * a 16-bit table, built in about a third of the time at import, where the whole words made 2,090
 * states and 426 KB. A value's scan costs what it did (its characters set the time, not the
 * table's size). Each cut is as long as keeps the gates about as closed on prose as the whole
 * words did: on the bench's bodies (bench/suites/shield.ts) no gate opens more, on the benign
 * corpus two gates open on one value more each. A group whose words decide alone (`__`, `sess_`,
 * `0x`, `::`) has no gate and is read whole.
 */
const group = (bit: number, words: readonly string[], gate?: Gate) => {
  DECLARED_GROUPS.push([bit, words, gate])
  const cut = gate?.cut ?? Number.POSITIVE_INFINITY
  GROUPS.push([bit, [...new Set(words.map((word) => word.slice(0, cut)))]])
  return bit
}
/** Whether a word of group `bit` occurs in the value. */
const hasWord = (shape: Shape, bit: number) => (shape.words & bit) !== 0

// Prototype pollution: every pattern names `__proto__`, `prototype` or a `__…__` accessor.
const PROTOTYPE = group(G.prototype, ['__', 'prototype'])

// Java: JNDI needs `${`; gadgets and classes need `@ #` or one of these words; the stream magic is
// non-ASCII. A `(` alone opens nothing: the gadget calls name a word here too (`runtime`,
// `processbuilder`, `class.`), or one of JAVA_CALLS (`.exec(`, `.getmethod(`, `.newinstance(`,
// `getclass().forname`).
const JAVA_CHARS = bit('$@#')
const JAVA_CALLS = group(G.javaCalls, ['.exec', '.getmethod', '.newinstance', 'forname'])
export const JAVA_WORDS = [
  /\bclass\s*\./,
  /\b(?:javax?\.|org\.|com\.|xwork\.|runtime|processbuilder|classloader|scriptenginemanager|invokertransformer|instantiatetransformer|chainedtransformer|constanttransformer|clonetransformer|forclosure|instantiatefactory|prototypeclonefactory|prototypeserializationfactory|whileclosure|templatesimpl|annotationinvocationhandler|badattributevalueexpexception|xsltc|jdbcrowsetimpl|unicastref|remoteobjectinvocationhandler|ognlcontext|aced0005|ro0ab|h4siaaaaaaaa)|\.jsp/,
]
const JAVA_CLASS = group(G.javaClass, ['class.', 'class .'])
const JAVA_NAMES = group(
  G.javaNames,
  [
    'java.',
    'javax.',
    'org.',
    'com.',
    'xwork.',
    'runtime',
    'processbuilder',
    'classloader',
    'scriptenginemanager',
    'invokertransformer',
    'instantiatetransformer',
    'chainedtransformer',
    'constanttransformer',
    'clonetransformer',
    'forclosure',
    'instantiatefactory',
    'prototypeclonefactory',
    'prototypeserializationfactory',
    'whileclosure',
    'templatesimpl',
    'annotationinvocationhandler',
    'badattributevalueexpexception',
    'xsltc',
    'jdbcrowsetimpl',
    'unicastref',
    'remoteobjectinvocationhandler',
    'ognlcontext',
    'aced0005',
    'ro0ab',
    'h4siaaaaaaaa',
    '.jsp',
  ],
  { guards: JAVA_WORDS[1] as RegExp, cut: 8 },
)
const mayJava = (lower: string, shape: Shape) =>
  has(shape, JAVA_CHARS) ||
  (shape.other & NON_ASCII) !== 0 ||
  (has(shape, OPEN_PAREN) && hasWord(shape, JAVA_CALLS)) ||
  (hasWord(shape, JAVA_CLASS) && (JAVA_WORDS[0] as RegExp).test(lower)) ||
  (hasWord(shape, JAVA_NAMES) && (JAVA_WORDS[1] as RegExp).test(lower))

// Template injection: every pattern starts at a delimiter (the detector's own first test).
const SSTI_CHARS = bit('{%#<[*@')

// Remote file inclusion: a URL (`:`), an internal host with a path (`/`), a trailing `?`. Every
// pattern is anchored at the value's start (after white space) and spans no white space, so one
// of `: / ? #` must occur in the value's first word.
const RFI_CHARS = bit(':/?')
/** What urlMarkInFirstWord() reads each ASCII character as: white space, one of `: / ? #`, or neither. */
const FIRST_WORD_SPACE = 1
const URL_MARK = 2
const FIRST_WORD = new Uint8Array(128)
for (let code = 0; code < 128; code++) if (isWhiteSpace(code)) FIRST_WORD[code] = FIRST_WORD_SPACE
for (const mark of ':/?#') FIRST_WORD[mark.charCodeAt(0)] = URL_MARK
/** How urlMarkInFirstWord() reads the character `code`: one table read for ASCII. */
const firstWordClass = (code: number) =>
  code < 128 ? (FIRST_WORD[code] as number) : isWhiteSpace(code) ? FIRST_WORD_SPACE : 0
/**
 * `/^\s*[^\s:/?#]*[:/?#]/.test(lower)` read by hand: past the white space opening the value, one
 * of `: / ? #` before the next white space. Prose opens this test with any of those characters,
 * and a pattern call costs more than reading its first word (rewritten-patterns.property.test.ts
 * proves the two equal). Each character is classed by a table: the five comparisons a character
 * cost before were most of the test on prose, whose first word is short.
 */
export function urlMarkInFirstWord(lower: string): boolean {
  let i = 0
  while (i < lower.length && firstWordClass(lower.charCodeAt(i)) === FIRST_WORD_SPACE) i++
  for (; i < lower.length; i++) {
    const kind = firstWordClass(lower.charCodeAt(i))
    if (kind !== 0) return kind === URL_MARK
  }
  return false
}

// PHP: tags `<? [php] {php}`, `$` variables and `(` calls; `:` in php:// and serialized data
// (`s:5:`, `O:8:`: a colon before a digit); `=` after an ini directive's name, which holds `_`
// or `.` or opens the line. A `(` opens PHP only before a name php.ts calls ({@link phpCallBefore})
// or where its unobfuscate() may join a name from pieces ({@link PHP_JOIN}).
const PHP_CHARS = bit('<[{$')
const HASH_SLASH = bit('#/')
/**
 * What unobfuscate() (php.ts) rewrites, step by step, without `[` (PHP_CHARS): a comment `/*…*\/`,
 * `'sys'.'tem'`, `(string)`, `sys(tem)(` (its `(x)(`), `(sy.(st).em)`. The line comments it drops
 * (`#…` and `//…` before a line break) are read from the shape. Where none occurs, unobfuscate()
 * only folds white space and drops quotes and `(` before a call's `(`: it joins no two words, and
 * a name it finds before a `(` is a word of the value before that `(`.
 */
const PHP_JOIN =
  /\/\*|['"]\s*\.\s*['"]|\(\s*string\s*\)|\(\s*['"]?[a-z_]\w*['"]?\s*\)\s*\(|\(\s*[a-z_]+\s*\.\s*\(/
const PHP_JOINS = group(
  G.phpJoins,
  ['/*', ...joined(["'", '"', "' ", '" '], ['.']), '(string', '( string', ')(', ') (', '.(', '. ('],
  { guards: PHP_JOIN, cut: 7 },
)
const isWordChar = (code: number) =>
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  code === 95
/** What php.ts's dropBeforeCall() drops before a call's `(`: white space, quotes, `(`; and DISTINCT_FUNCTIONS' `=`. */
const isBeforeCall = (code: number) =>
  isSpace(code) || code === 39 || code === 34 || code === 40 || code === 61
/**
 * Whether some `(` of `lower` has before it (past white space, quotes, `(` and `=`) a word (`\w+`)
 * that php.ts calls: a name of FUNCTION_NAMES, one holding `posix_`, or one DISTINCT_FUNCTIONS
 * matches as `word(` (its names may end a longer word). Where unobfuscate() joins no words
 * ({@link PHP_JOIN}), every call detectPhp() finds is such a word: English prose with a
 * parenthesis (`Notes (draft)`) names none, and the PHP detector is not run on it.
 */
export function phpCallBefore(lower: string): boolean {
  // Where the last `(` was: reading back from this one no further than just past it keeps the
  // scan linear (`( ( ( …` read back to the start from every `(` was quadratic: 0.5 s on 64 KB).
  // A read that gets there would go on through the last `(` exactly as the last read went, to
  // the same word, which named no call.
  let floor = 0
  for (let open = lower.indexOf('('); open !== -1; open = lower.indexOf('(', open + 1)) {
    let end = open
    while (end > floor && isBeforeCall(lower.charCodeAt(end - 1))) end--
    const reachedLast = end === floor
    floor = open + 1
    if (reachedLast) continue
    let start = end
    while (start > 0 && isWordChar(lower.charCodeAt(start - 1))) start--
    if (callsPhp(lower, start, end)) return true
  }
  return false
}
/** How many characters the names of FUNCTION_NAMES hold, at fewest and at most. */
const NAME_LENGTHS = [...FUNCTION_NAMES].map((name) => name.length)
const SHORTEST_NAME = Math.min(...NAME_LENGTHS)
const LONGEST_NAME = Math.max(...NAME_LENGTHS)
/**
 * Whether the word `lower[start, end)` (`\w*`, read back from a `(`) is one php.ts calls: a name
 * of FUNCTION_NAMES, or one holding `posix_`, or one DISTINCT_FUNCTIONS matches as `word(` (its
 * names may end a longer word). The length of the word rules out what cannot match before any
 * copy or pattern: prose puts short words and numbers before its parentheses (`cafe 12.3 (the
 * one`: `3`), and the copy of the word and the pattern run on it cost most of the php test there.
 * A word shorter than six characters neither holds `posix_` nor ends with a distinct name.
 */
export function callsPhp(lower: string, start: number, end: number): boolean {
  const length = end - start
  if (length < SHORTEST_NAME) return false
  const word = lower.slice(start, end)
  if (length <= LONGEST_NAME && FUNCTION_NAMES.has(word)) return true
  return (
    length >= SHORTEST_DISTINCT_FUNCTION &&
    (word.includes('posix_') || DISTINCT_FUNCTIONS.test(`${word}(`))
  )
}
const PHP_COLON = /php:|:\d/
const PHP_COLON_WORDS = group(G.phpColon, ['php:', ...joined([':'], DIGITS)])
const PHP_SESSION = group(G.phpSession, ['sess_'])
/**
 * `/^\s*[a-z_]+\s*=/.test(lower)` read by hand: a line opening with a name of letters and `_`,
 * then `=` (white space allowed around the name). Run on every value with an `=`, as in a URL's
 * query (rewritten-patterns.property.test.ts proves the two equal).
 */
export function iniLine(lower: string): boolean {
  // Each character is read once, into `code` (-1 past the end, which no test below takes): a
  // loop that stops on a character and the next loop reading it again cost a third more on prose.
  const at = (i: number) => (i < lower.length ? lower.charCodeAt(i) : -1)
  let i = 0
  let code = at(0)
  while (isSpace(code)) code = at(++i)
  const name = i
  while ((code >= 97 && code <= 122) || code === 95 /* _ */) code = at(++i)
  if (i === name) return false
  while (isSpace(code)) code = at(++i)
  return code === 61 /* = */
}
/** `allow_url_include =`, `opcache.x=`: the 65 name characters before `=` hold `_` or `.`. */
function iniName(lower: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = lower.charCodeAt(i)
    if (code === 95 /* _ */ || code === 46 /* . */) return true
  }
  return false
}
/** The characters one of which {@link iniName} needs: a value without them has no ini name. */
const INI_NAME_MARKS = bit('_.')
const mayPhp = (lower: string, shape: Shape, kind: InputKind) =>
  has(shape, PHP_CHARS) ||
  (has(shape, OPEN_PAREN) &&
    ((hasWord(shape, PHP_JOINS) && PHP_JOIN.test(lower)) ||
      ((shape.other & NEWLINE) !== 0 && has(shape, HASH_SLASH)) ||
      phpCallBefore(lower))) ||
  (has(shape, COLON) && hasWord(shape, PHP_COLON_WORDS) && PHP_COLON.test(lower)) ||
  (has(shape, EQUALS) &&
    (iniLine(lower) || (has(shape, INI_NAME_MARKS) && nameBeforeEquals(lower, 8, 65, iniName)))) ||
  ((kind === 'name' || kind === 'header') && (has(shape, DOT) || hasWord(shape, PHP_SESSION)))

// Local file inclusion: traversal needs `..` and `/ \ ;`, the spelled encodings `0x`; the file
// names a slash or backslash after one of these words, or one of these dotted names, but for two
// plain words (`id_rsa`, `authorized_keys`). A path reads every slash and dot (probe files).
const LFI_NAMES = group(G.lfiNames, ['0x', 'id_', 'authorized_keys'])
const LFI_SLASHED = /\.\.|etc|proc|sys|win|ssh|git|svn|docker|aws|kube|var|usr/
const LFI_SLASHED_WORDS = group(G.lfiSlashed, [
  '..',
  'etc',
  'proc',
  'sys',
  'win',
  'ssh',
  'git',
  'svn',
  'docker',
  'aws',
  'kube',
  'var',
  'usr',
])
const LFI_DOTTED =
  /\.(?:ini|(?:bash_|zsh_|mysql_|psql_)?history|htaccess|htpasswd|config|php|conf|env|sql|bak|dump)|\.\./
const LFI_DOTTED_WORDS = group(
  G.lfiDotted,
  [
    '.ini',
    'history',
    '.htaccess',
    '.htpasswd',
    '.conf',
    '.php',
    '.env',
    '.sql',
    '.bak',
    '.dump',
    '..',
  ],
  { guards: LFI_DOTTED, cut: 5 },
)
const mayLfi = (lower: string, shape: Shape, kind: InputKind) =>
  hasWord(shape, LFI_NAMES) ||
  (kind === 'path' && has(shape, PATH_CHARS)) ||
  (has(shape, SLASHES_SEMICOLON) && hasWord(shape, LFI_SLASHED_WORDS) && LFI_SLASHED.test(lower)) ||
  (has(shape, DOT) && hasWord(shape, LFI_DOTTED_WORDS) && LFI_DOTTED.test(lower))

// XSS: markup and calls need `< ( [ ! \` + *`; a script URL `t:` or `data`; a handler `on…=`;
// the DOM sinks a dot and their names; `vmlframe`, `-moz-binding` (a `<dialog`, spaced out or
// not, has its `<`).
const XSS_CHARS = bit('<[!`+*')
/**
 * What xss.ts reads behind a `(` and none of XSS_CHARS: a call of a timer, `btoa`, `atob`, a
 * dialog, CSS's `:expression(`, `url(javascript`, `constructor.constructor(` (comments are only
 * stripped where a `*` is, in XSS_CHARS).
 */
const XSS_CALL =
  /(?:settimeout|setinterval|btoa|atob|alert|prompt|confirm)\s*\(|:\s*expression\s*\(|url\s*\(\s*(?:['"]\s*)?javascript|constructor\s*\.\s*constructor\s*\(/
const XSS_CALLS = group(
  G.xssCalls,
  [
    ...joined(
      ['settimeout', 'setinterval', 'btoa', 'atob', 'expression', 'alert', 'prompt', 'confirm'],
      ['(', ' ('],
    ),
    'javascript',
    'constructor',
  ],
  { guards: XSS_CALL, cut: 6 },
)
const XSS_COLON = /t\s*:|data|schemalocation/
const XSS_COLON_WORDS = group(G.xssColon, ['t:', 't :', 'data', 'schemalocation'], {
  guards: XSS_COLON,
  cut: 7,
})
const XSS_EQUALS = /srcdoc|textcontent|formaction/
const XSS_EQUALS_WORDS = group(G.xssEquals, ['srcdoc', 'textcontent', 'formaction'], {
  guards: XSS_EQUALS,
  cut: 6,
})
/** An event handler `on…=`: `on` and at least three letters before the `=` (and 48 spaces at most). */
function handlerName(lower: string, start: number, end: number): boolean {
  // `on` within the name but its last three characters (what `name.slice(0, -3).includes('on')` read).
  for (let i = start; i + 2 <= end - 3; i++) {
    if (lower.charCodeAt(i) === 111 /* o */ && lower.charCodeAt(i + 1) === 110 /* n */) return true
  }
  return false
}
const XSS_DOT = /document|sort|reflect|window|innerhtml|outerhtml|fromcharcode|parentnode/
const XSS_DOT_WORDS = group(
  G.xssDot,
  ['document', 'sort', 'reflect', 'window', 'innerhtml', 'outerhtml', 'fromcharcode', 'parentnode'],
  { guards: XSS_DOT, cut: 6 },
)
const XSS_WORDS = /vmlframe|moz-binding/
const XSS_WORDS_WORDS = group(G.xssWords, ['vmlframe', 'moz-binding'], {
  guards: XSS_WORDS,
  cut: 5,
})
const mayXss = (lower: string, shape: Shape) =>
  has(shape, XSS_CHARS) ||
  (has(shape, OPEN_PAREN) && hasWord(shape, XSS_CALLS) && XSS_CALL.test(lower)) ||
  (has(shape, COLON) && hasWord(shape, XSS_COLON_WORDS) && XSS_COLON.test(lower)) ||
  (has(shape, EQUALS) &&
    ((hasWord(shape, XSS_EQUALS_WORDS) && XSS_EQUALS.test(lower)) ||
      nameBeforeEquals(lower, 48, 1 << 30, handlerName))) ||
  (has(shape, DOT) && hasWord(shape, XSS_DOT_WORDS) && XSS_DOT.test(lower)) ||
  (hasWord(shape, XSS_WORDS_WORDS) && XSS_WORDS.test(lower))

// Command injection: substitutions, redirections, pipes, Windows variables and calls need one of
// these characters (or a line break). Without them a command can only start the value or follow a
// `;` (the one separator left; quotes that split its word removed as the shell does), or be one
// of these: a named construct (`if exist`, PowerShell, `sh -c`, Node's `process`), a path the
// detector reads (`/dev/tcp/`, `bin/`, a globbed `/e?c/`: a `/` opening a word, and a `?`),
// `alias x=`, `module.exports =`, `if/i`. Paranoia 2 also takes any `;` before a letter.
// Parentheses are prose's too (`(the one near the station)`), so they open the detector only
// where rce.ts reads them as code ({@link parenthesized}, {@link commandAfterParen}).
const RCE_CHARS = bit('{}$<>|~![%&`\\')
const PARENS = bit('()')
const CLOSE_PAREN = bit(')')
export const RCE_WORDS = [
  /^\s*if\s/,
  /process|__js_function|this\.constructor|xhuwmdc3xhuwmdy4awxl|xyqktkrfrlvoqyqk|xyqkxhuwmdrlxhuwmdq0x0zvtkmkjf9c|d2hpbguodhj1zsk|d2hpbguoms|x19qc19mdw5jdglvbi|downloadstring|downloadfile|frombase64string|webclient/,
]
const RCE_IF = group(G.rceIf, ['if '])
const RCE_NAMES = group(
  G.rceNames,
  [
    'process',
    '__js_function',
    'this.constructor',
    'xhuwmdc3xhuwmdy4awxl',
    'xyqktkrfrlvoqyqk',
    'xyqkxhuwmdrlxhuwmdq0x0zvtkmkjf9c',
    'd2hpbguodhj1zsk',
    'd2hpbguoms',
    'x19qc19mdw5jdglvbi',
    'downloadstring',
    'downloadfile',
    'frombase64string',
    'webclient',
  ],
  { guards: RCE_WORDS[1] as RegExp, cut: 6 },
)
const RCE_DASHED =
  /invoke-|new-object|start-process|get-|set-|remove-item|copy-item|out-file|-encodedcommand|-executionpolicy|-nop|-noprofile|-windowstyle|sh\s{1,16}-c\s|-wrapper/
const RCE_DASHED_WORDS = group(
  G.rceDashed,
  [
    'invoke-',
    'new-object',
    'start-process',
    'get-',
    'set-',
    'remove-item',
    'copy-item',
    'out-file',
    '-encodedcommand',
    '-executionpolicy',
    '-nop',
    '-windowstyle',
    'sh -c ',
    '-wrapper',
  ],
  { guards: RCE_DASHED, cut: 7 },
)
const RCE_PATHS = /bin\/|\/(?:bin|etc|usr|sbin|dev|proc|tmp)\/|alias|module\.exports|^\s*if\//
/** A `/` opening a word, as the globbed-path pattern reads one (`cat /e?c/passwd`). */
const RCE_PATHS_WORDS = group(
  G.rcePaths,
  ['bin/', '/etc/', '/usr/', '/dev/', '/proc/', '/tmp/', 'alias', 'module.exports', 'if/'],
  { guards: RCE_PATHS, cut: 7 },
)
const RCE_OPEN_SLASH = /(?:^|[\s;'"=])\//
/** The start of the value reads as white space (prefilter-automaton.ts), so ` /` covers `^\/`. */
const RCE_OPEN_SLASH_WORDS = group(G.rceOpenSlash, [' /', ';/', "'/", '"/', '=/'])
/** The quotes a shell removes from inside a word (`w'h'oami`), as rce's shellUnquote does for quotes alone. */
const unquote = (lower: string) =>
  lower
    .replace(/(?<=[a-z])(?:''|""|'|")(?=[a-z])/g, '')
    .replace(/^['"]|(?<=[;|&`(\s])['"](?=[a-z])/g, '')
/** Every command of the three lists, so a word costs one lookup (one per value, at least). */
const COMMANDS: ReadonlySet<string> = new Set([
  ...UNIX_COMMANDS,
  ...WINDOWS_COMMANDS,
  ...AMBIGUOUS_COMMANDS,
])
const isCommand = (word: string) => word !== '' && COMMANDS.has(word)
/** A slot per character a command word holds after its letter (`[a-z0-9_.+-]`), 1 to 40; 0 for any other. */
const SLOT = new Uint8Array(128)
for (let i = 0; i < 40; i++) SLOT['abcdefghijklmnopqrstuvwxyz0123456789_.+-'.charCodeAt(i)] = i + 1
const slotAt = (text: string, at: number) => {
  const code = text.charCodeAt(at)
  return code < 128 ? (SLOT[code] as number) : 0
}
/** The first three characters of `text` from `at` as one number, or -1 where one has no slot. */
function prefixAt(text: string, at: number): number {
  const a = slotAt(text, at)
  const b = slotAt(text, at + 1)
  const c = slotAt(text, at + 2)
  return a === 0 || b === 0 || c === 0 ? -1 : (a * 41 + b) * 41 + c
}
/** Which three-character starts a command of three characters or more has: most words of prose have none. */
const COMMAND_STARTS = new Uint8Array(41 * 41 * 41)
for (const command of COMMANDS) {
  const at = command.length >= 3 ? prefixAt(command, 0) : -1
  if (at !== -1) COMMAND_STARTS[at] = 1
}
/**
 * The commands of one or two characters (`w`, `id`, `ls`), by the slots of their characters
 * (`a * 41 + b`, b 0 for one character): prose is full of such words (`we`, `on`, `at`), and a
 * Set lookup would copy and hash each. A word whose characters all have slots is a command
 * exactly when its entry is set (a command with a character outside the slots equals no such word).
 */
const SHORT_COMMANDS = new Uint8Array(41 * 41)
for (const command of COMMANDS) {
  const a = slotAt(command, 0)
  const b = command.length === 2 ? slotAt(command, 1) : 0
  if (command.length <= 2 && a !== 0 && (command.length === 1 || b !== 0))
    SHORT_COMMANDS[a * 41 + b] = 1
}
/** Whether `text[from, to)` is a command: no copy of a word whose first three characters start none, nor of a short word. */
function commandAt(text: string, from: number, to: number): boolean {
  const length = to - from
  if (length === 1 || length === 2) {
    const a = slotAt(text, from)
    const b = length === 2 ? slotAt(text, from + 1) : 0
    if (a !== 0 && (length === 1 || b !== 0)) return SHORT_COMMANDS[a * 41 + b] === 1
  }
  if (length >= 3) {
    const at = prefixAt(text, from)
    if (at !== -1 && COMMAND_STARTS[at] === 0) return false
  }
  return isCommand(text.slice(from, to))
}
/**
 * Per ASCII code: a character of a command word after its first letter (`[\\w.+-]`), of a path
 * segment before it (`[\\w.-]`), and what commandWord skips before a word (`[\\s'"\\\\{(!]`).
 */
const WORD_CHAR = 1
const SEGMENT_CHAR = 2
const SKIPPED = 4
const COMMAND_CHARS = new Uint8Array(128)
for (const char of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-')
  COMMAND_CHARS[char.charCodeAt(0)] = WORD_CHAR | SEGMENT_CHAR
COMMAND_CHARS['+'.charCodeAt(0)] = WORD_CHAR
for (let code = 0; code < 128; code++) if (isWhiteSpace(code)) COMMAND_CHARS[code] = SKIPPED
for (const char of '\'"\\{(!') COMMAND_CHARS[char.charCodeAt(0)] = SKIPPED
const wordChar = (code: number) => code < 128 && ((COMMAND_CHARS[code] as number) & WORD_CHAR) !== 0
const segmentChar = (code: number) =>
  code < 128 && ((COMMAND_CHARS[code] as number) & SEGMENT_CHAR) !== 0
const skippedBeforeWord = (code: number) =>
  code < 128 ? COMMAND_CHARS[code] === SKIPPED : isWhiteSpace(code)
const isLetter = (code: number) => code >= 97 && code <= 122
const isQuote = (code: number) => code === 39 || code === 34
/** Where the text from `start` has its word, past what commandWord skips (white space, quotes, `\\ { ( !`). */
function skipBeforeWord(text: string, start: number): number {
  let i = start
  while (i < text.length && skippedBeforeWord(text.charCodeAt(i))) i++
  return i
}
/** Where the last word {@link unquotedWordEnd} read has its first quote (one it drops), or -1: read right after the call. */
let firstQuote = -1
/**
 * The end of the command word at `from` (where {@link skipBeforeWord} stopped) in the text as
 * unquote() leaves it, read in place: no copy, no pattern. It is the run of word characters from a
 * letter, through the quotes unquote() drops inside a word (`'`, `"`, `''` or `""` between two
 * letters: `don't`, `w'h'oami`); so `text[from, end)` without its quotes is commandWord's word
 * (before `.exe` is dropped), empty where no word starts (a digit, `-`, punctuation, the end).
 * The quotes unquote()'s second pattern drops (opening the value, or after white space, `(`, `;`…)
 * never touch that word: before it, commandWord skips them anyway; after it, one would follow a
 * word character, which none of those is. -1 where commandWord may read a path (a `/` after the
 * run, or a quote after a segment that does not open with a letter, `1a'b/ls`): the caller reads
 * those the slow way. It leaves in {@link firstQuote} where the word's first quote is (no scan of
 * the word again). prefilter-command-word.property.test.ts checks it against
 * commandWord(unquote(…)), and against the detector's commandWord(shellUnquote(…)) where no `$`
 * or `\\` is read.
 */
export function unquotedWordEnd(text: string, from: number): number {
  firstQuote = -1
  const first = text.charCodeAt(from)
  if (!isLetter(first)) {
    // No word, unless a path segment (`[\\w.-]+/`, or `/` itself) opens here.
    if (first === 47 /* / */) return -1
    if (!segmentChar(first)) return from
    let i = from + 1
    while (i < text.length && segmentChar(text.charCodeAt(i))) i++
    const next = text.charCodeAt(i)
    return next === 47 || isQuote(next) ? -1 : from
  }
  let i = from + 1
  for (;;) {
    const code = text.charCodeAt(i)
    if (wordChar(code)) {
      i++
      continue
    }
    // unquote(): `(?<=[a-z])(?:''|""|'|")(?=[a-z])`, a letter read in the text itself each side.
    if (!isQuote(code) || !isLetter(text.charCodeAt(i - 1))) break
    const quotes = text.charCodeAt(i + 1) === code ? 2 : 1
    if (!isLetter(text.charCodeAt(i + quotes))) break
    if (firstQuote === -1) firstQuote = i
    i += quotes
  }
  return text.charCodeAt(i) === 47 /* / */ ? -1 : i
}
/**
 * The end of what commandWord may read from `from` once unquoted, paths included: the run of
 * `[\\w.+/'"-]` (the characters it matches, and the quotes unquote() may drop between them; what
 * follows is no letter, so unquote()'s lookahead reads it as it reads the end). Each separator
 * reads its own run, which holds no separator: `;/a;/a;/a…` is read once, not once per `;`.
 */
function pathEnd(text: string, from: number): number {
  let i = from
  while (i < text.length) {
    const code = text.charCodeAt(i)
    if (!(wordChar(code) || code === 47 /* / */ || isQuote(code))) break
    i++
  }
  return i
}
/**
 * Whether the run of `[\\w.+'"-]` from `from` (what a path's segments are made of, and the quotes
 * unquote() may drop between them) ends at a `/`, as a path before a command word does (`x/ls`).
 * A value without a `/` (its shape says so) is not read.
 */
function endsAtSlash(text: string, from: number, shape: Shape): boolean {
  if (!has(shape, SLASH)) return false
  let i = from
  while (i < text.length) {
    const code = text.charCodeAt(i)
    if (!(wordChar(code) || isQuote(code))) break
    i++
  }
  return text.charCodeAt(i) === 47 /* / */
}
/**
 * Whether the word a shell would run at `lower[start]`, its quotes removed as unquote() removes
 * them, is a command: commandWord(unquote(the text from start)) read in place
 * ({@link unquotedWordEnd}) and looked up without a copy where the word holds no quote
 * ({@link commandAt}); a path, rare in prose, the slow way. `shape` is the value's: whether it
 * holds a quote or a `/` at all.
 */
export function startsWithUnquotedCommand(lower: string, start: number, shape: Shape): boolean {
  return unquotedCommandAt(lower, start, skipBeforeWord(lower, start), shape)
}
/**
 * {@link startsWithUnquotedCommand} once what commandWord skips from `start` has been read:
 * `from` is where its word begins, so a caller that skipped it already does not read it again.
 */
function unquotedCommandAt(lower: string, start: number, from: number, shape: Shape): boolean {
  // A word whose first three characters are letters that start no command is none, unless a
  // path comes before it (the run of its characters ends at a `/`, `x/ls`): without one, those
  // letters start the word (a quote a shell drops comes later, `.exe` is dropped after them).
  // Most words of prose are ruled out so, without being read to their end.
  const a = lower.charCodeAt(from)
  const b = lower.charCodeAt(from + 1)
  const c = lower.charCodeAt(from + 2)
  if (
    isLetter(a) &&
    isLetter(b) &&
    isLetter(c) &&
    COMMAND_STARTS[((SLOT[a] as number) * 41 + (SLOT[b] as number)) * 41 + (SLOT[c] as number)] ===
      0 &&
    !endsAtSlash(lower, from + 3, shape)
  )
    return false
  // Two letters, then what neither continues a word nor makes it a path's (no word character,
  // quote or `/`, code 47): that is the word (`we`, `at`), and SHORT_COMMANDS says whether it is
  // a command.
  if (isLetter(a) && isLetter(b) && !(wordChar(c) || isQuote(c) || c === 47))
    return SHORT_COMMANDS[(SLOT[a] as number) * 41 + (SLOT[b] as number)] === 1
  const end = unquotedWordEnd(lower, from)
  if (end === -1) {
    const text = lower.slice(start, pathEnd(lower, from))
    return isCommand(commandWord(has(shape, QUOTES) ? unquote(text) : text).word)
  }
  const quote = firstQuote
  if (quote !== -1) {
    // Most such words are prose's (`don't`, `siobhan's`): three characters before the quote that
    // start no command (COMMAND_STARTS) make the word none, unless it may end in `.exe` (an `e`
    // last), whose command is shorter; the others are copied without their quotes.
    if (quote - from >= 3 && lower.charCodeAt(end - 1) !== 101 /* e */) {
      const at = prefixAt(lower, from)
      if (at !== -1 && COMMAND_STARTS[at] === 0) return false
    }
    const word = lower.slice(from, end).replace(/['"]/g, '')
    return isCommand(word.endsWith('.exe') ? word.slice(0, -4) : word)
  }
  // `.exe` dropped, as commandWord does (a word starts with a letter: 5 characters at least); its
  // last letter is read first, as most words end otherwise.
  const exe =
    end - from >= 5 &&
    lower.charCodeAt(end - 1) === 101 /* e */ &&
    lower.startsWith('.exe', end - 4)
  return commandAt(lower, from, exe ? end - 4 : end)
}
/**
 * Where the word read from `start` (the value's start, or after a parenthesis) begins, past what
 * commandWord skips; -1 where a `(` is among what it skips: the word is that `(`'s, read after
 * it, so `( ( ( …` is not read once per parenthesis.
 */
function wordStart(lower: string, start: number): number {
  let i = start
  for (; i < lower.length; i++) {
    const code = lower.charCodeAt(i)
    if (!skippedBeforeWord(code)) break
    if (code === 40 /* ( */) return -1
  }
  return i
}
/**
 * After `(` or `)` (a separator, but a weak one to rce.ts's commandAfterSeparator), a command
 * fires only if it is not an everyday word (`(at least`, `(time to go)`), or if it is a wrapper
 * of a command (`(time wget x)`). The part the detector reads runs to the next separator (`;`,
 * `(` or `)`: the others open rce before this is asked); its word and rest are read here from the
 * same part, unquoted alone (unquote() looks one character to each side, and a separator is no
 * letter), so each character is read for one part only. `from` is {@link wordStart}'s answer
 * for `start`, which the caller has read (the white space after a `(` is read once).
 */
function commandAfterParen(lower: string, start: number, from: number, shape: Shape): boolean {
  if (from === -1 || !unquotedCommandAt(lower, start, from, shape)) return false
  let end = from
  for (; end < lower.length; end++) {
    const code = lower.charCodeAt(end)
    if (code === 40 /* ( */ || code === 41 /* ) */ || code === 59 /* ; */) break
  }
  const part = lower.slice(start, end)
  const { word, rest } = commandWord(has(shape, QUOTES) ? unquote(part) : part)
  return !AMBIGUOUS_COMMANDS.has(word) || (WRAPPERS.has(word) && wrapped(rest))
}
/**
 * Whether `text` ends at `end` with `word` (behind which rce.ts's patterns put white space, then
 * `(`): its last character first, which rules out most words of prose without a call to startsWith.
 */
const endsWithAt = (text: string, word: string, end: number) =>
  text.charCodeAt(end - 1) === word.charCodeAt(word.length - 1) &&
  text.startsWith(word, end - word.length)
/**
 * What a parenthesis means to rce.ts without the stronger characters (`$ { < > | & % [`…). After
 * a `(`: a call or a loop of js-injection.ts (`require (`, `new function(`, `while (true)`,
 * `for(;;)`: the word, at most 16 white-space characters, `(` (and for `for`, a `;`);
 * `console.log(` named by `console`), a globbed path after it (`(/e?c/passwd`, with a `?`), a
 * Windows `(if exist`, `(if/i` (WINDOWS_IF: white space, `if`, then white space or `/`), or a
 * command ({@link commandAfterParen}); after a `)`, a command. Each parenthesis is found once by
 * indexOf (a loop over the value's characters costs more than the rest) and all it may open is
 * read there: the verdict is whether any test passes, in whatever order they are read.
 */
function parenthesized(lower: string, shape: Shape): boolean {
  if (lower.includes('console')) return true
  const globbed = has(shape, SLASH) && has(shape, QUESTION)
  if (has(shape, OPEN_PAREN)) {
    for (let at = lower.indexOf('('); at !== -1; at = lower.indexOf('(', at + 1)) {
      if (globbed && lower.charCodeAt(at + 1) === 47 /* / */) return true
      let end = at
      while (end > 0 && at - end < 16 && isWhiteSpace(lower.charCodeAt(end - 1))) end--
      if (
        endsWithAt(lower, 'function', end) ||
        endsWithAt(lower, 'require', end) ||
        endsWithAt(lower, 'while', end)
      )
        return true
      let i = at + 1
      while (i < lower.length && isWhiteSpace(lower.charCodeAt(i))) i++
      // `for (;;)` is the loop (ENDLESS_LOOP: at most 16 white-space characters after `(`), not
      // prose's `for (all)`.
      if (lower.charCodeAt(i) === 59 /* ; */ && i - at <= 17 && endsWithAt(lower, 'for', end))
        return true
      if (lower.charCodeAt(i) === 105 /* i */ && lower.charCodeAt(i + 1) === 102 /* f */) {
        const next = lower.charCodeAt(i + 2)
        if (next === 47 /* / */ || isWhiteSpace(next)) return true
      }
      // The white space read above is part of what commandWord skips: the word is read from there.
      if (commandAfterParen(lower, at + 1, wordStart(lower, i), shape)) return true
    }
  }
  if (has(shape, CLOSE_PAREN)) {
    for (let at = lower.indexOf(')'); at !== -1; at = lower.indexOf(')', at + 1)) {
      if (commandAfterParen(lower, at + 1, wordStart(lower, at + 1), shape)) return true
    }
  }
  return false
}
/**
 * Whether a command starts the value or follows one of its `;` or parentheses (the only
 * separators left), or a parenthesis opens a call ({@link parenthesized}): the tests of mayRce
 * that read the value at its separators. prefilter-separators.property.test.ts checks it against
 * the reading it replaced.
 */
export function commandAtSeparator(lower: string, shape: Shape): boolean {
  // A value opening with `(` (past white space and quotes) has its first word after that `(`.
  const from = wordStart(lower, 0)
  if (from !== -1 && unquotedCommandAt(lower, 0, from, shape)) return true
  if (has(shape, SEMICOLON)) {
    for (let at = lower.indexOf(';'); at !== -1; at = lower.indexOf(';', at + 1)) {
      if (startsWithUnquotedCommand(lower, at + 1, shape)) return true
    }
  }
  return has(shape, PARENS) && parenthesized(lower, shape)
}
function mayRce(lower: string, shape: Shape, kind: InputKind, paranoia: Paranoia): boolean {
  if (kind === 'path') return false
  // Headers and user agents: Shellshock's `() {`, or a separator opening the value.
  if (kind === 'user-agent' || kind === 'header') {
    return has(shape, OPEN_PAREN) || /^\s*[;|`]/.test(lower)
  }
  if (has(shape, RCE_CHARS) || (shape.other & NEWLINE) !== 0) return true
  if (paranoia === 2 && has(shape, SEMICOLON)) return true
  if (hasWord(shape, RCE_IF) && (RCE_WORDS[0] as RegExp).test(lower)) return true
  if (hasWord(shape, RCE_NAMES) && (RCE_WORDS[1] as RegExp).test(lower)) return true
  if (has(shape, DASH) && hasWord(shape, RCE_DASHED_WORDS) && RCE_DASHED.test(lower)) return true
  if (has(shape, SLASH_EQUALS) && hasWord(shape, RCE_PATHS_WORDS) && RCE_PATHS.test(lower))
    return true
  if (
    has(shape, SLASH) &&
    has(shape, QUESTION) &&
    hasWord(shape, RCE_OPEN_SLASH_WORDS) &&
    RCE_OPEN_SLASH.test(lower)
  )
    return true
  // Last, the tests that read the value at its separators: those above need only its bits, or
  // the pattern the bits gate.
  return commandAtSeparator(lower, shape)
}

// SQL injection. A condition (`or 1=1`) counts only after a closed value, which at paranoia 1
// is a number, a string or `)` opening the value (unquoted) or a quote (quoted): so operators
// alone (`a?b=1` in a URL) need a digit first, a quote, or `)`. Otherwise: a call `(`, a variable
// `@`, NoSQL `$` and `[`, a cast `::`, a comment `/*`, a backtick; a quote with a logic word,
// `union`, `--`, `#` or `;` after it (O'Brien has none); a digit opening the value, or with `order`/`group`/`as`;
// `;` before a statement as the tokenizer's stacked-statement test reads it (`; drop by` is not);
// or a statement word (`union` before `select`, `select` followed by a space). Paranoia 2 reads more.
// A parenthesis, or a quote with a logic word, `union`, `;`, `--` or `#`, is read further: everyday prose
// holds them (`Siobhan's cafe (the one near the station) and …; don't …`), and where nothing else
// opens the detector it fires only by a call or a token stream, which sqli.ts's mayCallOrInject()
// reads ({@link proseMayBeSql}).
const SQL_CHARS = bit('`()@$[{|&')
/** SQL_CHARS but for the parentheses, which open it only through mayCallOrInject(). */
const SQL_CHARS_BUT_PARENS = bit('`@$[{|&')
const SQL_QUOTED = /\b(?:or|and|xor|div|not|union)\b|--|#|;/
/** The rest of the digit test once a number opening the value (`^\s*(?:json\.)?[-+.]?\d`) is read by hand. */
export const SQL_DIGITS_REST = /order|group|\d\.e|\d\s+as\s/
const SQL_MARKS = group(G.sqlMarks, ['::', '/*'])
const SQL_QUOTED_WORDS = group(G.sqlQuoted, ['or', 'and', 'div', 'not', 'union', '--', '#', ';'])
/**
 * `^\s*(?:json\.)?[-+.]?\d` is read as ` 1`, ` -1`, ` json.1`… (the start reads as white space).
 * These words occur after any white space, so most prose with a number holds one: they only open
 * the category ({@link candidates}); {@link numberOpens} reads the start itself.
 */
const SQL_NUMBER_OPENS_WORDS = group(
  G.sqlNumberOpens,
  joined([' ', ' json.'], joined(['', '-', '+', '.'], DIGITS)),
  { guards: { test: numberOpens }, cut: 6 },
)
const SQL_DIGITS_WORDS = group(G.sqlDigits, ['order', 'group', ...joined(DIGITS, ['.e', ' as '])], {
  guards: SQL_DIGITS_REST,
  cut: 4,
})
/**
 * `/^\s*(?:json\.)?[-+.]?\d/.test(lower)` read by hand: a number opening the value. The test
 * before it ran `/^\s*(?:json\.)?[-+.]?\d|order|group|\d\.e|\d\s+as\s/` on every value
 * with a digit after white space (most prose with a number); an unanchored alternation that
 * reads the whole value (rewritten-patterns.property.test.ts proves the two equal).
 */
export function numberOpens(lower: string): boolean {
  let i = 0
  while (i < lower.length && isWhiteSpace(lower.charCodeAt(i))) i++
  if (lower.startsWith('json.', i)) i += 5
  const sign = lower.charCodeAt(i)
  if (sign === 45 || sign === 43 || sign === 46) i++
  const digit = lower.charCodeAt(i)
  return digit >= 48 && digit <= 57
}
export const SQL_STACKED = [
  /;\s*(?:insert|replace|update|delete|select|exec|declare|shutdown|waitfor)/,
  /;\s*(?:drop|create|alter|truncate)\s+(?:table|database|schema|view|user|function|procedure|trigger|index)/,
  /;\s*(?:grant|revoke|union|set|load|backup|call|merge|handler|rename|begin|if|copy|attach|pragma|use)\s*(?:$|@)/,
]
const SQL_STACKED_WORDS = [
  group(
    G.sqlStacked0,
    joined(AFTER_SEMICOLON, [
      'insert',
      'replace',
      'update',
      'delete',
      'select',
      'exec',
      'declare',
      'shutdown',
      'waitfor',
    ]),
    { guards: SQL_STACKED[0] as RegExp, cut: 5 },
  ),
  group(
    G.sqlStacked1,
    joined(joined(AFTER_SEMICOLON, ['drop ', 'create ', 'alter ', 'truncate ']), [
      'table',
      'database',
      'schema',
      'view',
      'user',
      'function',
      'procedure',
      'trigger',
      'index',
    ]),
    { guards: SQL_STACKED[1] as RegExp, cut: 8 },
  ),
  group(G.sqlStacked2, joined(AFTER_SEMICOLON, STACKED_ALONE), {
    guards: SQL_STACKED[2] as RegExp,
    cut: 5,
  }),
]
export const SQL_WORDS = [
  /union\s*(?:(?:all|distinct)\s+)?select|select\s|create\s/,
  /waitfor|outfile|dumpfile|table|when|exec|analyse|pg_|xp_|msdb|tempdb|schema|information|mysql|sysobjects|syscolumns|sysdatabases|sqlite|msys|northwind|master/,
]
const SQL_WORDS_WORDS = [
  group(
    G.sqlWords0,
    [
      ...joined(joined(['union', 'union '], ['', 'all ', 'distinct ']), ['select']),
      'select ',
      'create ',
    ],
    { guards: SQL_WORDS[0] as RegExp, cut: 7 },
  ),
  group(
    G.sqlWords1,
    [
      'waitfor',
      'outfile',
      'dumpfile',
      'table',
      'when',
      'exec',
      'analyse',
      'pg_',
      'xp_',
      'msdb',
      'tempdb',
      'schema',
      'information',
      'mysql',
      'sysobjects',
      'syscolumns',
      'sysdatabases',
      'sqlite',
      'msys',
      'northwind',
      'master',
    ],
    { guards: SQL_WORDS[1] as RegExp, cut: 6 },
  ),
]
/** Whether pattern `i` of `patterns` matches, where a word of its group `groups[i]` occurs. */
function anyGuarded(patterns: RegExp[], groups: number[], lower: string, shape: Shape): boolean {
  for (let i = 0; i < patterns.length; i++) {
    if (hasWord(shape, groups[i] as number) && (patterns[i] as RegExp).test(lower)) return true
  }
  return false
}
/**
 * A parenthesis, or a quote with a logic word, `union`, `--`, `#` or `;` (SQL_QUOTED; `union`
 * before a quoted keyword, `union 'select'`, which injected() reads as the keyword): what opened the
 * detector on prose. Where maySqli's other tests all fail, the detector fires only by a call or a
 * token stream (sqli.ts's mayCallOrInject() lists why), so these open it only where that may
 * fire: its gates read each `(`'s name and each trigger's next words, and prose fails them.
 * `lower` holds no `/*` here (SQL_MARKS opens it), so it is what the detector's gates read.
 */
const proseMayBeSql = (lower: string, shape: Shape, paranoia: Paranoia) =>
  (has(shape, PARENS) ||
    (has(shape, QUOTES) && hasWord(shape, SQL_QUOTED_WORDS) && SQL_QUOTED.test(lower))) &&
  mayCallOrInject(lower, paranoia)
const maySqli = (lower: string, shape: Shape, paranoia: Paranoia) =>
  paranoia === 2 ||
  has(shape, SQL_CHARS_BUT_PARENS) ||
  hasWord(shape, SQL_MARKS) ||
  ((shape.other & DIGIT) !== 0 &&
    ((hasWord(shape, SQL_NUMBER_OPENS_WORDS) && numberOpens(lower)) ||
      (hasWord(shape, SQL_DIGITS_WORDS) && SQL_DIGITS_REST.test(lower)))) ||
  (has(shape, SEMICOLON) && anyGuarded(SQL_STACKED, SQL_STACKED_WORDS, lower, shape)) ||
  anyGuarded(SQL_WORDS, SQL_WORDS_WORDS, lower, shape) ||
  proseMayBeSql(lower, shape, paranoia)

const AUTOMATON = compileKeywords(GROUPS)

/** The characters of `lower` and the keyword groups in it, read once (into `into`, if given). */
export function shapeOf(lower: string, into?: Shape): Shape {
  return scanValue(AUTOMATON, lower, into)
}

/** One bit per category, for {@link candidates}. */
export const CATEGORY_BIT: Readonly<Record<string, number>> = {
  'prototype-pollution': 1 << 0,
  java: 1 << 1,
  ssti: 1 << 2,
  scanner: 1 << 3,
  rfi: 1 << 4,
  php: 1 << 5,
  lfi: 1 << 6,
  xss: 1 << 7,
  rce: 1 << 8,
  sqli: 1 << 9,
}
const C = CATEGORY_BIT as Record<
  | 'prototype-pollution'
  | 'java'
  | 'ssti'
  | 'scanner'
  | 'rfi'
  | 'php'
  | 'lfi'
  | 'xss'
  | 'rce'
  | 'sqli',
  number
>
const JAVA_WORD_GROUPS = JAVA_CLASS | JAVA_NAMES | JAVA_CALLS
const PHP_OPENERS = PHP_CHARS | OPEN_PAREN | COLON | EQUALS
const LFI_WORD_GROUPS = LFI_NAMES | LFI_SLASHED_WORDS | LFI_DOTTED_WORDS
const XSS_OPENERS = XSS_CHARS | COLON | EQUALS
const XSS_WORD_GROUPS = XSS_DOT_WORDS | XSS_WORDS_WORDS | XSS_CALLS
const SQL_WORD_GROUPS =
  SQL_MARKS |
  SQL_QUOTED_WORDS |
  SQL_DIGITS_WORDS |
  SQL_NUMBER_OPENS_WORDS |
  SQL_STACKED_WORDS.reduce((a, b) => a | b, 0) |
  SQL_WORDS_WORDS.reduce((a, b) => a | b, 0)

/**
 * The categories whose test below may pass, from the shape's bits and the kind alone: each
 * category's test needs one of these (the characters, words or kinds its first checks ask
 * about), so a category outside the mask is skipped without running its test. Most values open
 * only rce's (the first word may be a command); a plain word opens nothing else.
 */
export function candidates(shape: Shape, kind: InputKind, paranoia: Paranoia): number {
  const { punct, other, words } = shape
  let may = kind === 'path' ? C.lfi | C.scanner : C.rce
  if (kind === 'user-agent') may |= C.scanner
  else if (kind === 'name' || kind === 'header') may |= C.php
  if ((words & PROTOTYPE) !== 0) may |= C['prototype-pollution']
  if ((punct & JAVA_CHARS) !== 0 || (other & NON_ASCII) !== 0 || (words & JAVA_WORD_GROUPS) !== 0)
    may |= C.java
  if ((punct & SSTI_CHARS) !== 0) may |= C.ssti
  if ((punct & RFI_CHARS) !== 0) may |= C.rfi
  if ((punct & PHP_OPENERS) !== 0) may |= C.php
  if ((words & LFI_WORD_GROUPS) !== 0) may |= C.lfi
  if ((punct & XSS_OPENERS) !== 0 || (words & XSS_WORD_GROUPS) !== 0) may |= C.xss
  if (paranoia === 2 || (punct & SQL_CHARS) !== 0 || (words & SQL_WORD_GROUPS) !== 0) may |= C.sqli
  return may
}

/** Whether the detector of `category` may fire on `lower`; false is a proof it cannot. */
export function mayFire(
  category: string,
  lower: string,
  shape: Shape,
  kind: InputKind,
  paranoia: Paranoia,
): boolean {
  return (
    (candidates(shape, kind, paranoia) & (CATEGORY_BIT[category] ?? -1)) !== 0 &&
    passes(category, lower, shape, kind, paranoia)
  )
}

/** {@link mayFire} for a category {@link candidates} let through: its own test. */
export function passes(
  category: string,
  lower: string,
  shape: Shape,
  kind: InputKind,
  paranoia: Paranoia,
): boolean {
  switch (category) {
    case 'prototype-pollution':
      return kind !== 'user-agent' && hasWord(shape, PROTOTYPE)
    case 'java':
      return mayJava(lower, shape)
    case 'ssti':
      return kind !== 'path' && kind !== 'user-agent' && has(shape, SSTI_CHARS)
    case 'scanner':
      return kind === 'user-agent' || (kind === 'path' && has(shape, SLASH))
    case 'rfi':
      return (
        kind !== 'path' &&
        kind !== 'header' &&
        kind !== 'user-agent' &&
        has(shape, RFI_CHARS) &&
        urlMarkInFirstWord(lower)
      )
    case 'php':
      return mayPhp(lower, shape, kind)
    case 'lfi':
      return mayLfi(lower, shape, kind)
    case 'xss':
      return mayXss(lower, shape)
    case 'rce':
      return mayRce(lower, shape, kind, paranoia)
    case 'sqli':
      return maySqli(lower, shape, paranoia)
    default:
      return true
  }
}
