// OS command injection: a shell command where a value was expected. The value is read as a shell
// would (quotes and backslashes that split a word removed, `$IFS` as a space), split at the
// command separators, and the first word of each command is looked up; plus the shell constructs
// no form field holds (command substitution, Shellshock, redirection to /dev/tcp, globbed system
// paths) and the Windows ones (cmd /c, FOR … IN (…) DO, IF EXIST, PowerShell cmdlets).

import { jsInjection } from './js-injection'
import { AMBIGUOUS_COMMANDS, UNIX_COMMANDS, WINDOWS_COMMANDS } from './shell-commands'
import type { InputKind, Paranoia, Subject } from './subject'

const SHELLSHOCK = /(?:^|[;&|'"=\s])\(\s*\)\s*\{/
const SUBSTITUTION =
  /\$\(\s{0,16}[a-z/.$({]|[<>]\(\s{0,16}[a-z/$]|\$\{\s{0,16}[a-z_]{0,48}\s{0,16}[#%:/^,@]{1,2}[^${}]{0,48}\}|\$\(\(|\$\{ifs\}|\$ifs\b|\/dev\/(?:tcp|udp)\/|<<<|\|\s{0,16}(?:ba|z|da|k)?sh\b/
const GLOBBED_PATH =
  /(?:^|[\s;|&`'"=(])\/(?:[a-z?*[\]!-]{0,48}[?[][a-z?*[\]!-]{0,48})\/[a-z?*[\]!.-]{0,48}|\/(?:bin|etc|usr|sbin|dev|proc|tmp)\/[a-z]{0,48}[?*[]/
const SYSTEM_BINARY = /(?:^|[\s;|&`'"=(<>{])\/?(?:usr\/(?:local\/)?)?s?bin\/[a-z][\w.+-]*/
/** Tilde and history expansion, brace expansion, `sh -c`: one pattern each, so recheck decides each. */
const TILDE_OR_BRACE = [
  /^\s{0,16}~[-+]\d{0,16}\s{0,16}$/,
  /^\s{0,16}!-\d/,
  /\$\[/,
  /\{\s{0,8},\s{0,8}[a-z]{1,32}\s{0,8}\}/,
  />\s{0,8}\$?\w{0,16}\/tcp\//,
  /\{\s{0,16},?\s{0,16}[a-z]{1,48}\s{0,16},[^}]{0,48}\}/,
  /\b(?:ba|z|da|k|tc)?sh\s{1,16}-c\s/,
  /-wrapper\s{1,16}sh,-c/,
  /\$\{?(?:shell|ifs|bash_env|home)\}?\s/,
  /[a-z]\{[a-z]{0,48},[a-z,]{0,48}\}[a-z]/,
]
const WINDOWS_FOR =
  /(?:^|[&|(])\s{0,16}for\s{1,16}(?:\/[a-z][^%]{0,48})?%{1,2}[^\s]{0,30}\s{1,16}in\s{0,16}\(/
/** `if "%x%"=="y"`, `if exist`, `if /i not a equ b`: one pattern per form, so recheck decides each. */
export const WINDOWS_IF = [
  /(?:^|[&|(])\s{0,8}if\s{1,8}"[^"]{0,64}"\s{0,8}==/,
  /(?:^|[&|(])\s*if(?:\s*\/i)?\s+(?:not\s+)?(?:exist|defined|errorlevel|cmdextversion)\s+\S/,
  /(?:^|[&|(])\s*if(?:\s*\/i)?\s+(?:not\s+)?[^\s]+\s*(?:==|\s(?:equ|neq|lss|leq|gtr|geq)\s)/,
]
/** `%comspec%`, `%path:~-3%`: one pattern per form, so recheck decides each. */
export const WINDOWS_VARIABLES = [
  /%[a-z_]{3,20}%/,
  /%(?:comspec|systemroot|windir|programfiles|appdata|temp|userprofile|path|errorlevel|cd|random|date|time|cmdcmdline)%/,
  /%[a-z_]+:~-?\d/,
]
const POWERSHELL =
  /\b(?:invoke-(?:webrequest|expression|restmethod|command|item|wmimethod|shellcode|mimikatz)|new-object|start-process|get-(?:content|process|childitem|wmiobject|item|service|acl)|set-(?:content|item|executionpolicy|acl)|remove-item|copy-item|out-file|downloadstring|downloadfile|net\.webclient|frombase64string|-encodedcommand|-executionpolicy|-nop\b|-noprofile|-windowstyle)\b/
const WORD_CHAR = /\w/
const ALIAS_NAME_CHAR = /[\w'"+-]/
const SPACE = /\s/

/** The length of the run of characters matching `char` from `at`. */
function runLength(text: string, at: number, char: RegExp): number {
  let end = at
  while (end < text.length && char.test(text[end] as string)) end++
  return end - at
}

/**
 * `alias ll='ls -la'`, `alias -p -g x=`: what `\balias\s{1,16}(?:-\w{1,48}\s{1,16})*[\w'"+-]{1,48}=`
 * matches, read by hand. As a regex it was quadratic (`alias -alias -alias …` restarts the option
 * run at every `alias`) and recheck could not decide it; here an option already read from one
 * `alias` is not read again from the next.
 */
export function aliasDefinition(lower: string): boolean {
  const read = new Set<number>()
  for (let at = lower.indexOf('alias'); at !== -1; at = lower.indexOf('alias', at + 1)) {
    if (at > 0 && WORD_CHAR.test(lower[at - 1] as string)) continue
    let spaces = runLength(lower, at + 5, SPACE)
    let i = at + 5 + spaces
    while (spaces >= 1 && spaces <= 16 && !read.has(i)) {
      read.add(i)
      const name = runLength(lower, i, ALIAS_NAME_CHAR)
      if (name >= 1 && name <= 48 && lower[i + name] === '=') return true
      if (lower[i] !== '-') break
      const option = runLength(lower, i + 1, WORD_CHAR)
      if (option < 1 || option > 48) break
      spaces = runLength(lower, i + 1 + option, SPACE)
      i += 1 + option + spaces
    }
  }
  return false
}

/** Where a new command starts; the captured separator tells how strong the boundary is. */
const SEPARATORS = /(\|\||&&|\$\(|[;|&`\n\r(){}])/

/** The word a shell executes: quotes, backslashes and empty expansions that split it removed. */
export function shellUnquote(text: string): string {
  if (!/['"\\$]/.test(text)) return text
  return text
    .replace(/\$\{ifs\}|\$ifs\b|\$\{?[@*#?!$0-9]\}?/g, (m) => (m.includes('ifs') ? ' ' : ''))
    .replace(/\\(?=[a-z/.])/g, '')
    .replace(/(?<=[a-z])(?:''|""|'|")(?=[a-z])/g, '')
    .replace(/^['"]|(?<=[;|&`(\s])['"](?=[a-z])/g, '')
}

/** The word a shell would run at the start of `segment`, and what follows it. */
export function commandWord(segment: string): { word: string; rest: string } {
  const trimmed = segment.replace(/^[\s'"\\{(!]+/, '')
  const match = /^(?:\/?(?:[\w.-]+\/)*)?([a-z][\w.+-]*)/.exec(trimmed)
  if (match === null) return { word: '', rest: '' }
  return { word: (match[1] as string).replace(/\.exe$/, ''), rest: trimmed.slice(match[0].length) }
}

/** An argument a command takes rather than the next word of a sentence. */
const SHELL_ARGUMENT =
  /^\s+(?:-{1,2}[a-z0-9]|\/[a-z.~]|\.{1,2}\/|~|\$|\*|[a-z0-9_.-]+\s*[|;&>]|[a-z0-9._-]+\/|'|"|[0-9.]+\s*$)|^\s*$|^\s*[|;&><]/

/** Commands whose argument is another command (`nohup ifconfig`, `strace sh`). */
export const WRAPPERS: ReadonlySet<string> = new Set([
  'nohup',
  'strace',
  'ltrace',
  'time',
  'sudo',
  'doas',
  'env',
  'nice',
  'timeout',
  'xargs',
  'exec',
  'busybox',
  'watch',
  'setsid',
  'stdbuf',
  'unbuffer',
  'chroot',
  'runuser',
])

/** Whether `rest`, what follows a wrapper, starts with the command it wraps (the pre-filter asks too). */
export function wrapped(rest: string): boolean {
  const { word } = commandWord(rest)
  return word !== '' && UNIX_COMMANDS.has(word) && !AMBIGUOUS_COMMANDS.has(word)
}

/** Commands that are a whole attack by themselves (recon, privilege). */
const TOOLS_ALONE = new Set([
  'whoami',
  'ifconfig',
  'ipconfig',
  'visudo',
  'netstat',
  'systeminfo',
  'uname',
  'getent',
  'lsattr',
  'pkexec',
])

/** Names no word of prose has: long, or with a dash or a digit (encodings such as base64 aside). */
function toolLike(word: string, rest: string): boolean {
  if (/^base(?:32|64)$/.test(word)) return false
  const alone = rest.trim() === ''
  // A versioned name alone (`c99`, `python3`, `7z`) is an everyday value (a standard, a language, a
  // format); with arguments it is a command line.
  if (/\d/.test(word) && !word.includes('-')) return !alone
  if (word.includes('-')) return true
  return alone && TOOLS_ALONE.has(word)
}

function commandAfterSeparator(lower: string, requireSeparator = false): boolean {
  // A Markdown code fence is not command substitution.
  const text = shellUnquote(lower.includes('```') ? lower.replaceAll('```', '\n') : lower)
  // split() with a capturing group alternates text and separators: parts[i - 1] precedes parts[i].
  const parts = text.split(SEPARATORS)
  for (let i = 0; i < parts.length; i += 2) {
    const part = parts[i] as string
    const { word, rest } = commandWord(part)
    if (word === '' || !(UNIX_COMMANDS.has(word) || WINDOWS_COMMANDS.has(word))) continue
    const separator = i > 0 ? (parts[i - 1] as string) : ''
    // `&copy;`, `&reg;` are HTML's character references, not a command sent to the background:
    // a name alone between `&` and `;` counts only if it is a tool no text names (`&whoami;`).
    if (separator === '&' && parts[i + 1] === ';' && /^[a-z][a-z0-9]*$/.test(part)) {
      if (toolLike(word, rest)) return true
      continue
    }
    const argument = rest.trim() !== '' && SHELL_ARGUMENT.test(rest)
    // A line break separates commands, but prose has lines too: it needs an argument after.
    const lineBreak = separator === '\n' || separator === '\r'
    const strong = separator !== '' && !'(){}'.includes(separator) && (!lineBreak || argument)
    if (WRAPPERS.has(word) && wrapped(rest) && (strong || !requireSeparator)) return true
    if (requireSeparator && !strong) continue
    // A tool's name alone (`visudo`, `ansible-console`, `python3.10 cmd`) is a command too.
    if (i === 0 && !AMBIGUOUS_COMMANDS.has(word) && toolLike(word, rest)) return true
    if (AMBIGUOUS_COMMANDS.has(word)) {
      // `time`, `set`, `find` are English: a separator right before, and nothing or an option after.
      if (strong && !/^\s/.test(part) && (argument || rest.trim() === '')) return true
      continue
    }
    if (separator === '`' && parts[i + 1] === '`') return true
    // A command followed by `;`, `|` or `&&` is a command line; by a single `&` it may be a name
    // (`Cat & Dog`, `Fish & Chips`): what follows the `&` is read at its own separator.
    const next = parts[i + 1]
    if (strong || argument || (next !== undefined && /^(?:[;|]|&&)/.test(next))) return true
  }
  return false
}

export function detectRce(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  const lower = subject.lower
  if (kind === 'path') return false
  if (SHELLSHOCK.test(lower)) return true
  if (kind === 'name')
    return SUBSTITUTION.test(lower) || jsInjection(lower) || commandAfterSeparator(lower, true)
  if (kind === 'user-agent' || kind === 'header')
    return /^\s*[;|`]\s*[a-z]/.test(lower) && commandAfterSeparator(lower)
  if (jsInjection(lower)) return true
  if (SUBSTITUTION.test(lower) || GLOBBED_PATH.test(lower) || SYSTEM_BINARY.test(lower)) return true
  if (
    TILDE_OR_BRACE.some((p) => p.test(lower)) ||
    aliasDefinition(lower) ||
    WINDOWS_FOR.test(lower) ||
    WINDOWS_IF.some((p) => p.test(lower))
  )
    return true
  if (WINDOWS_VARIABLES.some((p) => p.test(lower)) || POWERSHELL.test(lower)) return true
  if (commandAfterSeparator(lower)) return true
  return paranoia === 2 && /[;|`]\s*[a-z]/.test(lower)
}
