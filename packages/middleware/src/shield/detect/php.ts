// PHP injection: an opening PHP tag, the superglobals, serialized objects, php.ini directives,
// uploads of PHP files, and calls of the functions that run code or commands, including the
// obfuscated spellings (`"sys"."tem"(…)`, `$f(…)`, comments between name and parenthesis).
import { type WordCall, wordCalls } from './calls'
import type { InputKind, Paranoia, Subject } from './subject'

/** `<?php`, `<?=`, a bare `<?` ending the value or followed by code, `<?xml:` (never `<?xml version`, `<?xpacket`, `<?xml-stylesheet`). */
const OPEN_TAG =
  /<\?\s{0,16}(?:php|=)|<\?\s{1,16}(?:echo|print|system|exec|eval|include|require|passthru|shell_exec|\$)|\[[/\\]?php\]|<\?\s{0,16}$|<\?\s[^\n<;($?]{0,80}(?:[;($]|\?>)|<\?xml\s{0,16}:|\{php\}|\[php\]/
const SUPERGLOBALS =
  /\$(?:_(?:get|post|server|cookie|request|files|env|session)\b|globals\b|http_(?:raw_post_data|get_vars|post_vars|cookie_vars|server_vars|env_vars)\b|argv\b)|\bphp:\/\/(?:input|filter|stdin|memory|temp|fd)\b/
const SERIALIZED =
  /(?:^|[;{|_])(?:o|c):\d{1,8}:"[\w\\]{1,128}":\d{1,8}:\{|^a:\d{1,8}:\{(?:[is]:\d{1,8}[:;])|\bs:\d{1,8}:"[^";]{0,64}";(?:o|a|s|i|b):/
const INI =
  /\b(?:allow_url_(?:include|fopen)|auto_(?:prepend|append)_file|disable_functions|open_basedir|safe_mode|register_globals|display_errors|short_open_tag|expose_php|upload_tmp_dir|extension_dir|sendmail_path|(?:opcache|mbstring|session|zend|pcre|mysqli|pdo_mysql|phar|assert|xdebug|suhosin|apc|user_ini)\.[a-z_][\w.]{0,48})\s{0,8}=/
const UPLOAD = /\.\s*(?:php\d*|phtml|phar|phpt|pht|phps|pgif)[\s.]*$/
const INI_LINE =
  /^\s*(?:engine|extension|precision|smtp|unserialize_max_depth|memory_limit|max_execution_time|post_max_size|upload_max_filesize|error_reporting|include_path|log_errors|html_errors|file_uploads)\s*=/
/** Functions no prose names, matched even glued to other text (`FOOcall_user_func()`). */
export const DISTINCT_FUNCTIONS =
  /(?:call_user_func(?:_array)?|fsockopen|gzdecode|gzinflate|gzuncompress|bzdecompress|shell_exec|zlib_decode|curl_init|curl_exec|file_exists|assert_options|proc_open|base64_decode|str_rot13|create_function|passthru|pcntl_exec|file_get_contents|file_put_contents|move_uploaded_file|strip_tags|filegroup|fileowner|fileperms|posix_\w{1,48}|unpack|intval|printf|sprintf|phpinfo)\s{0,16}(?:=\s{0,16})?\(/
/** The fewest characters a name of DISTINCT_FUNCTIONS holds (`unpack`, `intval`, `printf`; `posix_x` has seven). */
export const SHORTEST_DISTINCT_FUNCTION = 6
const VARIABLE_CALL =
  /\$[a-z_@{][\w@{}[\]'"!+-]{0,40}\s{0,16}(?:\/\*[^*]{0,40}\*\/\s{0,16})?\(|\$\s{0,16}\{\s{0,16}['"@$]/
/** Functions that run code or commands, read or write files, or print: `name(` with one of these names or `posix_…`. */
export const FUNCTION_NAMES: ReadonlySet<string> = new Set(
  `
  system exec shell_exec passthru popen proc_open pcntl_exec eval assert create_function
  base64_decode gzinflate gzuncompress gzdecode str_rot13 file_get_contents file_put_contents
  fopen fwrite fputs fputcsv readfile file include include_once require require_once unserialize
  phpinfo preg_replace array_map array_filter usort uasort register_shutdown_function
  register_tick_function ob_start highlight_file show_source php_uname getenv putenv ini_set
  ini_get set_time_limit move_uploaded_file copy unlink rmdir mkdir chmod chown symlink
  curl_exec fsockopen pfsockopen stream_socket_client mail dl extract parse_str var_dump print_r
  echo print die exit is_array is_string substr strrev str_replace chr ord hex2bin bin2hex
  dirname basename glob scandir opendir readdir filemtime touch escapeshellcmd escapeshellarg
  get_defined_vars get_defined_functions func_get_args debug_zval_refcount
  apache_child_terminate call_user_func call_user_func_array
  `
    .trim()
    .split(/\s+/),
)
/** Function names that are also English words: only with code around them. */
const WORDY =
  /^(?:file|copy|mail|touch|print|echo|extract|exit|die|glob|system|include|require|assert|dirname|basename|substr|chr|ord|mkdir|extract)$/

/** Comments, string concatenation and quotes removed: `"sys"."tem" /*x*\/ (` reads `system(`. */
function unobfuscate(lower: string): string {
  const folded = lower
    .replace(/\/\*[^*/]{0,64}\*\//g, '')
    .replace(/#[^\n#/]{0,64}\n|\/\/[^\n#/]{0,64}\n/g, '')
    .replace(/\s+/g, ' ')
    .replace(/["']\s*\.\s*["']/g, '')
    .replace(/\(\s*string\s*\)/g, '')
    .replace(/\[\s*['"]?([a-z_]\w*)['"]?\s*\]\s*\[\s*0\s*\]/g, '$1')
    .replace(/\( ?(?:\[ ?)?['"]?([a-z_]\w{0,48})['"]?(?: ?\])? ?\) ?(?:\[ ?0 ?\] ?)?(?=\()/g, '$1')
    .replace(/\(\s*([a-z_]+)\s*\.\s*\(\s*([a-z_]+)\s*\)\s*\.\s*([a-z_]+)\s*\)/g, '$1$2$3')
  return dropBeforeCall(folded)
}

const SPACE = /\s/

/**
 * A quote or parenthesis before a call's `(` dropped with the whitespace after it (`'system'(`,
 * `(system)(`), a `)` kept: the lookahead `/["'()]\s*(?=\()/g` read by hand, as recheck's automaton
 * cannot read a lookahead.
 */
export function dropBeforeCall(code: string): string {
  let out = ''
  let i = 0
  while (i < code.length) {
    const char = code[i] as string
    if (char === '"' || char === "'" || char === '(' || char === ')') {
      let next = i + 1
      while (next < code.length && SPACE.test(code[next] as string)) next++
      if (code[next] === '(') {
        if (char === ')') out += code.slice(i, next)
        i = next
        continue
      }
    }
    out += char
    i++
  }
  return out
}

/** The first call of a listed function, as the alternation `\b(?:system|exec|…|posix_\w+|…)\s*\(` found it. */
export function firstFunctionCall(code: string): WordCall | undefined {
  for (const call of wordCalls(code)) {
    const { name } = call
    if (FUNCTION_NAMES.has(name) || (name.startsWith('posix_') && name.length > 6)) return call
  }
  return undefined
}

function functionCall(lower: string, paranoia: Paranoia): boolean {
  const code = unobfuscate(lower)
  const match = firstFunctionCall(code)
  if (match === undefined) return false
  const name = match.text.replace(/\s{0,16}\($/, '')
  // `exec (` and nothing after is a word and a parenthesis, not a call.
  if (/\s\($/.test(match.text) && /^[\s)]*$/.test(code.slice(match.index + match.text.length)))
    return false
  if (
    !WORDY.test(name) &&
    !/^(?:print_r|var_dump|is_array|is_string|substr|str_replace|strrev|dirname|basename|getenv|ini_get|ord|chr)$/.test(
      name,
    )
  )
    return true
  // An English word before a parenthesis is prose unless code surrounds it.
  return (
    paranoia === 2 ||
    match.index === /^[^a-z]*/.exec(code)?.[0].length ||
    /[;$]|\(\s*['"$]|\)\s*;|\(\s*\)/.test(code.slice(match.index))
  )
}

export function detectPhp(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  const lower = subject.lower
  if (kind === 'name' || kind === 'header') {
    if (UPLOAD.test(lower)) return true
    if (/(?:^|[/\\])sess_[a-z0-9,-]{16,}$/.test(lower)) return true
  }
  if (OPEN_TAG.test(lower)) return true
  if (SUPERGLOBALS.test(lower) || SERIALIZED.test(lower)) return true
  if (kind === 'user-agent') return false
  if (INI.test(lower) || INI_LINE.test(lower) || DISTINCT_FUNCTIONS.test(lower)) return true
  if (lower.includes('$') && VARIABLE_CALL.test(lower)) return true
  return lower.includes('(') && functionCall(lower, paranoia)
}
