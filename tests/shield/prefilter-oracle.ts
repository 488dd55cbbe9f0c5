// The pre-filter as it was before prefilter-automaton.ts (main at 5d8b58e, shield/detect/prefilter.ts):
// every pattern scanned every value. Kept out of the engine as the oracle of
// prefilter-oracle.property.test.ts: the pre-filter of today must let every detector run that
// this one let run. Frozen: change the engine's pre-filter, not this.
// The pre-filter of detect(): before a detector runs, a cheap test that proves it cannot fire on
// this value. Each test names what its detector needs (the characters, and for the alternatives
// made of words only, the words) and is derived by reading that detector's patterns: a value
// without any of them cannot match. `prefilter.property.test.ts` checks the claim: with the
// pre-filter and without it, detect() gives the same verdict on random values and on every CRS
// corpus payload. Change a detector, change its test here.
import { commandWord } from '../../packages/middleware/src/shield/detect/rce'
import {
  AMBIGUOUS_COMMANDS,
  UNIX_COMMANDS,
  WINDOWS_COMMANDS,
} from '../../packages/middleware/src/shield/detect/shell-commands'
import type { InputKind, Paranoia } from '../../packages/middleware/src/shield/detect/subject'

/** One bit per ASCII punctuation character, and one each for digits, line breaks, other controls, non-ASCII. */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
const BIT = new Int32Array(128)
for (let i = 0; i < PUNCTUATION.length; i++) BIT[PUNCTUATION.charCodeAt(i)] = 2 ** i
const bit = (chars: string) => {
  let mask = 0
  for (const c of chars) mask |= BIT[c.charCodeAt(0)] as number
  return mask
}
const DIGIT = 1
const NEWLINE = 2
const CONTROL = 4
const NON_ASCII = 8

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

/** What a value holds, as two masks: `punct` (one bit per punctuation character), `other` (digits, breaks, controls, non-ASCII). */
export interface Shape {
  punct: number
  other: number
}

/** The characters of `lower`, read once. */
export function shapeOf(lower: string): Shape {
  let punct = 0
  let other = 0
  for (let i = 0; i < lower.length; i++) {
    const code = lower.charCodeAt(i)
    if (code >= 128) other |= NON_ASCII
    else if (code >= 48 && code <= 57) other |= DIGIT
    else if (code === 10 || code === 13) other |= NEWLINE
    else if (code < 32) other |= CONTROL
    else punct |= BIT[code] as number
  }
  return { punct, other }
}

const has = (shape: Shape, mask: number) => (shape.punct & mask) !== 0

const isSpaceOrControl = (code: number) =>
  code <= 32 ||
  code === 0xa0 ||
  code === 0x1680 ||
  (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 ||
  code === 0x2029 ||
  code === 0x202f ||
  code === 0x205f ||
  code === 0x3000 ||
  code === 0xfeff
const isNameChar = (code: number) =>
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  code === 95 ||
  code === 46

/**
 * Whether some `=` in `lower` has, before it (past at most `spaces` white-space or control
 * characters), a name (`[\w.]`, read back at most `length` characters) that `accept` takes. A scan
 * back from each `=`, each bounded: linear, where a pattern would rescan from every start.
 */
function nameBeforeEquals(
  lower: string,
  spaces: number,
  length: number,
  accept: (name: string) => boolean,
): boolean {
  for (let eq = lower.indexOf('='); eq !== -1; eq = lower.indexOf('=', eq + 1)) {
    let end = eq
    while (end > 0 && eq - end < spaces && isSpaceOrControl(lower.charCodeAt(end - 1))) end--
    let start = end
    while (start > 0 && end - start < length && isNameChar(lower.charCodeAt(start - 1))) start--
    if (start < end && accept(lower.slice(start, end))) return true
  }
  return false
}

// Prototype pollution: every pattern names `__proto__`, `prototype` or a `__…__` accessor.
const mayPrototypePollution = (lower: string) => lower.includes('__') || lower.includes('prototype')

// Java: JNDI needs `${`; gadgets and classes need `. ( @ #` or one of these words; the stream magic is non-ASCII.
const JAVA_CHARS = bit('$@#(')
export const JAVA_WORDS = [
  /\bclass\s*\./,
  /\b(?:javax?\.|org\.|com\.|xwork\.|runtime|processbuilder|classloader|scriptenginemanager|invokertransformer|instantiatetransformer|chainedtransformer|constanttransformer|clonetransformer|forclosure|instantiatefactory|prototypeclonefactory|prototypeserializationfactory|whileclosure|templatesimpl|annotationinvocationhandler|badattributevalueexpexception|xsltc|jdbcrowsetimpl|unicastref|remoteobjectinvocationhandler|ognlcontext|aced0005|ro0ab|h4siaaaaaaaa)|\.jsp/,
]
const mayJava = (lower: string, shape: Shape) =>
  has(shape, JAVA_CHARS) || (shape.other & NON_ASCII) !== 0 || JAVA_WORDS.some((p) => p.test(lower))

// Template injection: every pattern starts at a delimiter (the detector's own first test).
const SSTI_CHARS = bit('{%#<[*@')

// Remote file inclusion: a URL (`:`), an internal host with a path (`/`), a trailing `?`. Every
// pattern is anchored at the value's start (after white space) and spans no white space, so one
// of `: / ? #` must occur in the value's first word.
const RFI_CHARS = bit(':/?')
const RFI_FIRST_WORD = /^\s*[^\s:/?#]*[:/?#]/

// PHP: tags `<? [php] {php}`, `$` variables and `(` calls; `:` in php:// and serialized data
// (`s:5:`, `O:8:`: a colon before a digit); `=` after an ini directive's name, which holds `_`
// or `.` or opens the line.
const PHP_CHARS = bit('<[{$(')
const PHP_COLON = /php:|:\d/
const PHP_INI_LINE = /^\s*[a-z_]+\s*=/
/** `allow_url_include =`, `opcache.x=`: the 65 name characters before `=` hold `_` or `.`. */
const iniName = (name: string) => name.includes('_') || name.includes('.')
const mayPhp = (lower: string, shape: Shape, kind: InputKind) =>
  has(shape, PHP_CHARS) ||
  (has(shape, COLON) && PHP_COLON.test(lower)) ||
  (has(shape, EQUALS) && (PHP_INI_LINE.test(lower) || nameBeforeEquals(lower, 8, 65, iniName))) ||
  ((kind === 'name' || kind === 'header') && (has(shape, DOT) || lower.includes('sess_')))

// Local file inclusion: traversal needs `..` and `/ \ ;`, the spelled encodings `0x`; the file
// names a slash or backslash after one of these words, or one of these dotted names, but for two
// plain words (`id_rsa`, `authorized_keys`). A path reads every slash and dot (probe files).
const LFI_SLASHED = /\.\.|etc|proc|sys|win|ssh|git|svn|docker|aws|kube|var|usr/
const LFI_DOTTED =
  /\.(?:ini|(?:bash_|zsh_|mysql_|psql_)?history|htaccess|htpasswd|config|php|conf|env|sql|bak|dump)|\.\./
const mayLfi = (lower: string, shape: Shape, kind: InputKind) =>
  lower.includes('0x') ||
  lower.includes('id_') ||
  lower.includes('authorized_keys') ||
  (kind === 'path' && has(shape, PATH_CHARS)) ||
  (has(shape, SLASHES_SEMICOLON) && LFI_SLASHED.test(lower)) ||
  (has(shape, DOT) && LFI_DOTTED.test(lower))

// XSS: markup and calls need `< ( [ ! \` + *`; a script URL `t:` or `data`; a handler `on…=`;
// the DOM sinks a dot and their names; `vmlframe`, `-moz-binding` (a `<dialog`, spaced out or
// not, has its `<`).
const XSS_CHARS = bit('<([!`+*')
const XSS_COLON = /t\s*:|data|schemalocation/
const XSS_EQUALS = /srcdoc|textcontent|formaction/
/** An event handler `on…=`: `on` and at least three letters before the `=` (and 48 spaces at most). */
const handlerName = (name: string) => name.slice(0, -3).includes('on')
const XSS_DOT = /document|sort|reflect|window|innerhtml|outerhtml|fromcharcode|parentnode/
const XSS_WORDS = /vmlframe|moz-binding/
const mayXss = (lower: string, shape: Shape) =>
  has(shape, XSS_CHARS) ||
  (has(shape, COLON) && XSS_COLON.test(lower)) ||
  (has(shape, EQUALS) &&
    (XSS_EQUALS.test(lower) || nameBeforeEquals(lower, 48, 1 << 30, handlerName))) ||
  (has(shape, DOT) && XSS_DOT.test(lower)) ||
  XSS_WORDS.test(lower)

// Command injection: substitutions, redirections, pipes, Windows variables and calls need one of
// these characters (or a line break). Without them a command can only start the value or follow a
// `;` (the one separator left; quotes that split its word removed as the shell does), or be one
// of these: a named construct (`if exist`, PowerShell, `sh -c`, Node's `process`), a path the
// detector reads (`/dev/tcp/`, `bin/`, a globbed `/e?c/`: a `/` opening a word, and a `?`),
// `alias x=`, `module.exports =`, `if/i`. Paranoia 2 also takes any `;` before a letter.
const RCE_CHARS = bit('(){}$<>|~![%&`\\')
export const RCE_WORDS = [
  /^\s*if\s/,
  /process|__js_function|this\.constructor|xhuwmdc3xhuwmdy4awxl|xyqktkrfrlvoqyqk|xyqkxhuwmdrlxhuwmdq0x0zvtkmkjf9c|d2hpbguodhj1zsk|d2hpbguoms|x19qc19mdw5jdglvbi|downloadstring|downloadfile|frombase64string|webclient/,
]
const RCE_DASHED =
  /invoke-|new-object|start-process|get-|set-|remove-item|copy-item|out-file|-encodedcommand|-executionpolicy|-nop|-noprofile|-windowstyle|sh\s{1,16}-c\s|-wrapper/
const RCE_PATHS = /bin\/|\/(?:bin|etc|usr|sbin|dev|proc|tmp)\/|alias|module\.exports|^\s*if\//
/** A `/` opening a word, as the globbed-path pattern reads one (`cat /e?c/passwd`). */
const RCE_OPEN_SLASH = /(?:^|[\s;'"=])\//
/** The quotes a shell removes from inside a word (`w'h'oami`), as rce's shellUnquote does for quotes alone. */
const unquote = (lower: string) =>
  lower
    .replace(/(?<=[a-z])(?:''|""|'|")(?=[a-z])/g, '')
    .replace(/^['"]|(?<=[;|&`(\s])['"](?=[a-z])/g, '')
const isCommand = (word: string) =>
  word !== '' &&
  (UNIX_COMMANDS.has(word) || WINDOWS_COMMANDS.has(word) || AMBIGUOUS_COMMANDS.has(word))
/** A character of a command word after its first letter (`[\\w.+-]`). */
const wordChar = (code: number) =>
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  code === 95 ||
  code === 46 ||
  code === 43 ||
  code === 45
/**
 * Whether the word a shell would run at the start of `text` is a command, as rce's commandWord
 * reads it; a scan where the text starts with a letter and holds no `/` (no path before the word).
 */
function startsWithCommand(text: string, slash: boolean): boolean {
  const first = text.charCodeAt(0)
  if (slash || !(first >= 97 && first <= 122)) return isCommand(commandWord(text).word)
  let end = 1
  while (end < text.length && wordChar(text.charCodeAt(end))) end++
  const word = text.slice(0, end)
  return isCommand(word.endsWith('.exe') ? word.slice(0, -4) : word)
}
/** Whether a command starts the value or follows one of its `;` (the only separator left). */
function commandAtSeparator(text: string, slash: boolean): boolean {
  if (startsWithCommand(text, slash)) return true
  for (let at = text.indexOf(';'); at !== -1; at = text.indexOf(';', at + 1)) {
    if (startsWithCommand(text.slice(at + 1), slash)) return true
  }
  return false
}
function mayRce(lower: string, shape: Shape, kind: InputKind, paranoia: Paranoia): boolean {
  if (kind === 'path') return false
  // Headers and user agents: Shellshock's `() {`, or a separator opening the value.
  if (kind === 'user-agent' || kind === 'header') {
    return has(shape, OPEN_PAREN) || /^\s*[;|`]/.test(lower)
  }
  if (has(shape, RCE_CHARS) || (shape.other & NEWLINE) !== 0) return true
  if (paranoia === 2 && has(shape, SEMICOLON)) return true
  if (RCE_WORDS.some((p) => p.test(lower))) return true
  if (has(shape, DASH) && RCE_DASHED.test(lower)) return true
  const slash = has(shape, SLASH)
  if (has(shape, SLASH_EQUALS) && RCE_PATHS.test(lower)) return true
  if (slash && has(shape, QUESTION) && RCE_OPEN_SLASH.test(lower)) return true
  return commandAtSeparator(has(shape, QUOTES) ? unquote(lower) : lower, slash)
}

// SQL injection. A condition (`or 1=1`) counts only after a closed value, which at paranoia 1
// is a number, a string or `)` opening the value (unquoted) or a quote (quoted): so operators
// alone (`a?b=1` in a URL) need a digit first, a quote, or `)`. Otherwise: a call `(`, a variable
// `@`, NoSQL `$` and `[`, a cast `::`, a comment `/*`, a backtick; a quote with a logic word,
// `--`, `#` or `;` after it (O'Brien has none); a digit opening the value, or with `order`/`group`/`as`;
// `;` before a statement as the tokenizer's stacked-statement test reads it (`; drop by` is not);
// or a statement word (`union` before `select`, `select` followed by a space). Paranoia 2 reads more.
const SQL_CHARS = bit('`()@$[{|&')
const SQL_QUOTED = /\b(?:or|and|xor|div|not)\b|--|#|;/
const SQL_DIGITS = /^\s*(?:json\.)?[-+.]?\d|order|group|\d\.e|\d\s+as\s/
export const SQL_STACKED = [
  /;\s*(?:insert|replace|update|delete|select|exec|declare|shutdown|waitfor)/,
  /;\s*(?:drop|create|alter|truncate)\s+(?:table|database|schema|view|user|function|procedure|trigger|index)/,
  /;\s*(?:grant|revoke|union|set|load|backup|call|merge|handler|rename|begin|if|copy|attach|pragma|use)\s*(?:$|@)/,
]
export const SQL_WORDS = [
  /union\s*(?:(?:all|distinct)\s+)?select|select\s|create\s/,
  /waitfor|outfile|dumpfile|table|when|exec|analyse|pg_|xp_|msdb|tempdb|schema|information|mysql|sysobjects|syscolumns|sysdatabases|sqlite|msys|northwind|master/,
]
const maySqli = (lower: string, shape: Shape, paranoia: Paranoia) =>
  paranoia === 2 ||
  has(shape, SQL_CHARS) ||
  lower.includes('::') ||
  lower.includes('/*') ||
  (has(shape, QUOTES) && SQL_QUOTED.test(lower)) ||
  ((shape.other & DIGIT) !== 0 && SQL_DIGITS.test(lower)) ||
  (has(shape, SEMICOLON) && SQL_STACKED.some((p) => p.test(lower))) ||
  SQL_WORDS.some((p) => p.test(lower))

/** Whether the detector of `category` may fire on `lower`; false is a proof it cannot. */
export function mayFire(
  category: string,
  lower: string,
  shape: Shape,
  kind: InputKind,
  paranoia: Paranoia,
): boolean {
  switch (category) {
    case 'prototype-pollution':
      return kind !== 'user-agent' && mayPrototypePollution(lower)
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
        RFI_FIRST_WORD.test(lower)
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
