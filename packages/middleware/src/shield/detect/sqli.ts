// SQL injection: the value is tokenized three times, as a bare value (a number in the query), and
// after a single and a double quote (a string the application opened), and each token stream is
// checked for the shapes an injection makes: a closed string followed by logic, a union, a stacked
// statement, a comment that cuts the rest of the query, a time or file function.

import { wordCalls } from './calls'
import { stripSqlComments } from './normalize'
import { isWhiteSpace } from './prefilter-automaton'
import {
  MAX_TOKENS,
  type SqlToken,
  sqlSkipSpace,
  sqlSpaceAt,
  sqlTokens,
  sqlWordAt,
  sqlWordEnd,
  type WordsIn,
  wordsIn,
} from './sql-tokens'
import type { InputKind, Paranoia, Subject } from './subject'

const LOGIC = new Set(['or', 'and', 'xor', '||', '&&', 'div', 'not'])
const COMPARISON = new Set([
  '=',
  '<',
  '>',
  '<=',
  '>=',
  '!=',
  '<>',
  '==',
  'like',
  'rlike',
  'regexp',
  'is',
  'between',
  'in',
  'sounds',
  'glob',
  '<=>',
])
/**
 * The statements that stand stacked after `;` by themselves, at the end or before a variable
 * (`; grant`, `; set @a`): stackedStatement's last case. The pre-filter's words for that case
 * (prefilter.ts) are these, so the two cannot drift apart.
 */
export const STACKED_ALONE: readonly string[] = [
  'grant',
  'revoke',
  'union',
  'set',
  'load',
  'backup',
  'call',
  'merge',
  'handler',
  'rename',
  'begin',
  'if',
  'copy',
  'attach',
  'pragma',
  'use',
]
const STATEMENTS = new Set([
  'select',
  'insert',
  'update',
  'delete',
  'drop',
  'create',
  'alter',
  'exec',
  'execute',
  'declare',
  'shutdown',
  'waitfor',
  'truncate',
  'replace',
  ...STACKED_ALONE,
])
const words = (text: string) => new Set(text.trim().split(/\s+/))

/** Functions that mean an attack wherever they are called ("sleep(" is not English). */
const ALWAYS_FUNCTIONS = words(`
  sleep benchmark pg_sleep load_file extractvalue updatexml xp_cmdshell sys_eval sys_exec
  utl_inaddr utl_http dbms_pipe randomblob sqlite_version pg_read_file pg_ls_dir lo_import
  lo_export group_concat concat_ws make_set name_const gtid_subset dbms_xmlgen sp_executesql
  sp_oacreate openrowset opendatasource master_pos_wait get_lock current_database connection_id
  last_insert_id found_rows row_to_json is_srvrolemember has_dbaccess db_name lo_get
  sqlite_compileoption_used sqlite_compileoption_get
`)
/** Those, and the functions an injection calls to read data out (paranoia 2 and after a closed value). */
export const ATTACK_FUNCTIONS: ReadonlySet<string> = new Set([
  ...ALWAYS_FUNCTIONS,
  ...words(`
  lo_get sqlite_compileoption_used sqlite_compileoption_get elt geometrycollection multipoint
  polygon exp json_keys ctxsys xmltype pg_user schema_name information_schema version database
  user current_user system_user session_user schema row_count unhex hex char chr ascii ord
  substring substr mid concat if iif ifnull isnull nullif coalesce cast convert length count md5
  sha1 rand floor json_agg string_agg array_agg xmlagg to_char dump user_name quotename instr
  locate position lpad rpad reverse strcmp soundex
  `),
])

/**
 * SQL functions a parameter has no business calling. Named with `(` right after, or across spaces
 * for the names that are no English word; a word like `user(s)` in prose is told apart below.
 */
const SQL_FUNCTION_NAMES = new Set(
  `
  ascii bin char chr coalesce concat concat_ws conv cos sin tan cot acos asin atan atan2 pow
  power rand random md5 sha sha1 sha2 hex unhex ifnull isnull nullif iif instr length len locate
  lower upper lpad rpad ltrim rtrim trim mid ord position repeat replace reverse round floor
  ceil ceiling substr substring substring_index uncompress compress database schema user
  current_user session_user system_user version now sysdate count sum avg min max cast convert
  xmltype extractvalue updatexml json_extract json_object json_build_object json_array
  starts_with unistr to_char to_number elt field find_in_set make_set exp log ln abs sqrt
  datediff date_add date_format str_to_date unix_timestamp from_unixtime group_concat load_file
  benchmark sleep pg_sleep weight_string quote soundex strcmp bit_length octet_length
  char_length character_length uuid last_insert_id row_count found_rows connection_id
  schema_name db_name object_id col_name host_name suser_name is_member has_perms_by_name
  sys_context nvl nvl2 decode
  `
    .trim()
    .split(/\s+/),
)
/** Families of functions named by a prefix (`jsonb_each`, `dbms_pipe`, `utl_http`, `regexp_like`). */
const SQL_FUNCTION_PREFIXES = ['jsonb_', 'dbms_', 'utl_', 'regexp_']
export const sqlFunction = (name: string) =>
  SQL_FUNCTION_NAMES.has(name) ||
  SQL_FUNCTION_PREFIXES.some((prefix) => name.startsWith(prefix) && name.length > prefix.length)
/** sqlFunction() of `text[start, end)`, read in place (nameBeforeParen's names). */
const SQL_FUNCTION_NAMES_IN = wordsIn(SQL_FUNCTION_NAMES)
export const sqlFunctionIn: WordsIn = (text, start, end) =>
  SQL_FUNCTION_NAMES_IN(text, start, end) || sqlFunctionPrefixIn(text, start, end)
function sqlFunctionPrefixIn(text: string, start: number, end: number): boolean {
  for (let p = 0; p < SQL_FUNCTION_PREFIXES.length; p++) {
    const prefix = SQL_FUNCTION_PREFIXES[p] as string
    if (
      end - start > prefix.length &&
      text.charCodeAt(start) === prefix.charCodeAt(0) &&
      text.startsWith(prefix, start)
    )
      return true
  }
  return false
}
/**
 * English words among the functions, and names prose writes before a parenthesis (`ASCII (7-bit)`,
 * `MD5 (or SHA1)`, `run the benchmark (requires …)`): they count only with `(` right after and SQL
 * inside. `compress (` is not among them: CRS 942151 counts it.
 */
const WORDY_FUNCTION =
  /^(?:sleep|char|count|sum|min|max|field|log|mid|round|floor|power|repeat|replace|reverse|position|length|lower|upper|now|user|version|schema|database|trim|cast|convert|quote|decode|exp|abs|bin|len|random|rand|cos|sin|tan|pow|ord|ascii|hex|md5|sha|sha1|sha2|uuid|benchmark|ceil|ceiling|locate|soundex|sqrt)$/
/** One pattern per sign, so recheck's automaton decides each (the alternations it could not). */
export const SQL_SIGNS = [
  /\bxp_(?:cmdshell|dirtree|regread|fileexist|availablemedia|servicecontrol)\b|\bpg_sleep\b/,
  /\bexec(?:ute)?\s+master\.|\bexecute\s+immediate\b/,
  /\bdeclare\s+@|\bprocedure\s+analyse\b/,
  /\bwaitfor[\s+]+(?:delay|time)\b/,
  /[\w)]::\s*(?:int|integer|bool|boolean|text|jsonb?|double|varchar|numeric|regclass|bigint)\b/,
  /\bor\s+'[[{]/,
  /\bcase\s{1,16}when\b[^;]{0,48}?\bthen\b/,
  /\)\s{0,16}like\s{0,16}\(|\bif\s{0,16}\(\s{0,16}\w{1,48}\s{0,16}[<>=!~]/,
  /\bmerge\b[^;]{0,48}?\busing\s{0,16}\(/,
  /\bmatch\s{0,16}\([^)]{0,48}\)\s{0,16}against\s{0,16}\(/,
  // A statement that defines or drops: prose says `create user accounts`, `drop table 5 from the
  // booking`. It counts after a `;`, behind a non-letter opening the value (`/create table x`, as
  // CRS 942360 reads it), or before a quoted name (`alter table \`mails\``). One pattern per
  // shape, so recheck's automaton decides each.
  /(?:^[^a-z_]+|;\s*)create\s+(?:or\s+replace\s+)?(?:function|procedure|table|trigger|view|user|database)\s+[\w.`"]/,
  /\bcreate\s+(?:or\s+replace\s+)?(?:function|procedure|table|trigger|view|user|database)\s+[`"]/,
  /(?:^[^a-z_]+|;\s*)(?:alter|drop|truncate)\s+table\s+[\w.`"]/,
  /\b(?:alter|drop|truncate)\s+table\s+[`"]/,
  /\/\*!\d*\s*[a-z]|\d\.e[(.,]/,
  /(?:^|[\s(])(?:msdb|tempdb|schema_name)(?:$|[\s).,])|`\s*(?:regexp|rlike|like)\b/,
]
export const SQL_STATEMENTS = [
  /\bselect\s{1,16}(?:if|sleep|benchmark)\s{0,16}\(|unionselect|\bselect\s{1,16}\*\s{1,16}from\b/,
  /\bselect\s{1,16}[\w.`"]{1,64}(?:\s{0,8},\s{0,8}[\w.`"]{1,64}){1,16}\s{1,16}from\s{1,16}[\w.`"]{1,64}/,
  /\b\d{1,16}\s{1,16}as\s{1,16}["'`\w]{1,64}\s{1,16}from\b/,
]

/**
 * What each of {@link SQL_SIGNS} needs in the text to match (a word or mark every match holds):
 * prose, which holds none, skips the sign's pattern. sqli-gates.property.test.ts checks each against its sign.
 */
export const SQL_SIGN_NEEDS: ReadonlyArray<(text: string) => boolean> = [
  (t) => t.includes('xp_') || t.includes('pg_sleep'),
  (t) => t.includes('exec'),
  (t) => t.includes('declare') || t.includes('procedure'),
  (t) => t.includes('waitfor'),
  (t) => t.includes('::'),
  (t) => t.includes("'[") || t.includes("'{"),
  (t) => t.includes('case') && t.includes('when') && t.includes('then'),
  (t) => t.includes('(') && (t.includes('like') || t.includes('if')),
  (t) => t.includes('merge') && t.includes('using'),
  (t) => t.includes('match') && t.includes('against'),
  (t) => t.includes('create'),
  (t) => t.includes('create'),
  (t) => t.includes('table'),
  (t) => t.includes('table'),
  (t) => t.includes('/*!') || t.includes('.e'),
  (t) => t.includes('msdb') || t.includes('tempdb') || t.includes('schema_name') || t.includes('`'),
]
/**
 * A word or mark of each sign's and statement's need in one pattern: most prose holds none, and
 * one scan then skips all seventeen (a call of `includes` costs about what a sign's own pattern
 * does, so seventeen of them saved nothing). Each alternative is read in every match of its
 * pattern: `\bif\b` in `\bif\s{0,16}\(`, `\d\s{1,16}as\b` in `\b\d{1,16}\s{1,16}as\s{1,16}`.
 */
export const SQL_NEEDS_ANY =
  /xp_|pg_sleep|exec|declare|procedure|waitfor|::|'[[{]|\bcase\b|\bif\b|like|merge|match|create|table|\/\*!|\d\.e|msdb|tempdb|schema_name|`|select|\d\s{1,16}as\b/
/** What each of {@link SQL_STATEMENTS} needs, as {@link SQL_SIGN_NEEDS}. */
export const SQL_STATEMENT_NEEDS: ReadonlyArray<(text: string) => boolean> = [
  (t) => t.includes('select'),
  (t) => t.includes('select') && t.includes('from'),
  (t) => t.includes('as') && t.includes('from'),
]

/** What may follow a quoted JSON literal: a cast to JSON, a JSON or containment operator, a comparison. */
const JSON_OPERATOR = /\s*(?:::\s*jsonb?|->>?|#>>?|@>|<@|@\?|\?[|&]?|@@|\|\||[<>=]|-\s{0,8}\d)/y

/**
 * `'{"a":1}'::jsonb`, `'[1]' @> x`: a quoted JSON literal (at most 200 characters between its
 * brackets) followed by a JSON operator. What `'[[{][^']{0,200}[\]}]'\s*(?:::\s*jsonb?|…)` matches,
 * read quote by quote, as recheck could not decide that pattern.
 */
export function jsonLiteralCompared(text: string): boolean {
  for (let open = text.indexOf("'"); open !== -1; ) {
    const close = text.indexOf("'", open + 1)
    if (close === -1) return false
    const inside = close - open - 1
    if (
      inside >= 2 &&
      inside <= 202 &&
      '[{'.includes(text[open + 1] as string) &&
      ']}'.includes(text[close - 1] as string)
    ) {
      JSON_OPERATOR.lastIndex = close + 1
      if (JSON_OPERATOR.test(text)) return true
    }
    open = close
  }
  return false
}
const MAGIC_NUMBER =
  /^(?:json\.)?(?:429496729[56]|214748364[78]|-214748364[89]|2\.2250738585072(?:011|007)e-308|1e309|0000023456|0000012345)$/

function functionCall(lower: string, kind: InputKind): boolean {
  for (const match of wordCalls(lower)) {
    if (!sqlFunction(match.name)) continue
    // \b treats a letter like ß as a boundary: `haßelt (` is not `elt(`.
    if (match.index > 0 && lower.charCodeAt(match.index - 1) > 0x7f) continue
    const name = match.name
    if (!WORDY_FUNCTION.test(name)) return true
    if (/\s/.test(match.text)) continue
    const after = lower.slice(match.index + match.text.length, match.index + match.text.length + 40)
    // `user(s)` and `count(ed)` are prose; a call has SQL inside or nothing at all.
    if (/^\s*(?:e?s|ed|ing)\s*\)/.test(after)) continue
    if (kind === 'name' || /^\s*(?:\)|\*|\d|'|"|`|select\b|@|0x|\w+\s*[,)]|$)/.test(after))
      return true
  }
  return false
}

/**
 * Whether some `(` has before it (past white space) a name `accept` takes, read as wordCalls()
 * reads it (`\w+`, `\s*`): functionCall() only looks at those names, so without one it is false.
 * The name is `text[start, end)`, which `accept` reads in place.
 */
function nameBeforeParen(text: string, accept: WordsIn): boolean {
  for (let open = text.indexOf('('); open !== -1; open = text.indexOf('(', open + 1)) {
    let end = open
    while (end > 0 && isWhiteSpace(text.charCodeAt(end - 1))) end--
    let start = end
    while (start > 0 && isAsciiWord(text.charCodeAt(start - 1))) start--
    if (start < end && accept(text, start, end)) return true
  }
  return false
}
const isAsciiWord = (code: number) =>
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  code === 95

const METADATA =
  /\b(?:information_schema|mysql\.db|sysobjects|syscolumns|sysdatabases|mysql\.user|pg_catalog|pg_shadow|sqlite_master|sqlite_temp_master|all_tables|user_tables|msysaccessobjects|msysobjects|northwind|master\.\.sys)\b/
const ATTACK_VARIABLE = /^@@(?:version|datadir|hostname|basedir|tmpdir|servername|language|spid)\b/

const isOperand = (t: SqlToken | undefined) =>
  t !== undefined &&
  (t.type === 'string' || t.type === 'number' || t.type === 'word' || t.type === 'variable')
const isComparison = (t: SqlToken | undefined) =>
  t !== undefined && (t.type === 'operator' || t.type === 'word') && COMPARISON.has(t.value)
const isLogic = (t: SqlToken | undefined) =>
  t !== undefined && (t.type === 'word' || t.type === 'operator') && LOGIC.has(t.value)
const isFunctionCall = (tokens: SqlToken[], i: number, names: ReadonlySet<string>) =>
  tokens[i]?.type === 'word' &&
  names.has(tokens[i]?.value as string) &&
  tokens[i + 1]?.type === 'open'
const isEnd = (t: SqlToken | undefined) =>
  t === undefined || t.type === 'comment' || t.type === 'semicolon'

/** A function argument that is SQL (`sleep(5)`, `sleep(select…)`), not prose (`sleep (a lot)`). */
const sqlArgument = (t: SqlToken | undefined) =>
  t === undefined ||
  t.type !== 'word' ||
  STATEMENTS.has(t.value) ||
  /^(?:null|true|false|now|rand|char|concat|mod|if)$/.test(t.value)

/** A statement after `;` in SQL's shape (`insert into`, `drop table`, `update x set`), not a word of prose. */
function stackedStatement(tokens: SqlToken[], j: number): boolean {
  const t = tokens[j]
  if (t?.type !== 'word' || !STATEMENTS.has(t.value)) return false
  const next = tokens[j + 1]?.value ?? ''
  switch (t.value) {
    case 'insert':
    case 'replace':
      return next === 'into'
    case 'update':
      return tokens[j + 2]?.value === 'set'
    case 'delete':
      return next === 'from'
    case 'drop':
    case 'create':
    case 'alter':
    case 'truncate':
      return /^(?:table|database|schema|view|user|function|procedure|trigger|index)$/.test(next)
    case 'select':
    case 'exec':
    case 'execute':
    case 'declare':
    case 'shutdown':
    case 'waitfor':
      return true
    default:
      return tokens[j + 1] === undefined || tokens[j + 1]?.type === 'variable'
  }
}

/** `x OR 1=1`, `x AND 'a'='a'`, `x OR 1--`, `x AND sleep(5)` after a closed value. */
function logicAfterValue(tokens: SqlToken[], i: number): boolean {
  let j = i + 1
  while (tokens[j]?.type === 'open' || (tokens[j]?.type === 'word' && tokens[j]?.value === 'not'))
    j++
  if (isFunctionCall(tokens, j, ATTACK_FUNCTIONS)) return true
  if (!isOperand(tokens[j]))
    return tokens[j]?.type === 'operator' && isOperand(tokens[j + 1]) && isComparison(tokens[j + 2])
  const operand = tokens[j] as SqlToken
  if (
    isComparison(tokens[j + 1]) ||
    (tokens[j + 1]?.type === 'operator' && isOperand(tokens[j + 2]) && isComparison(tokens[j + 3]))
  ) {
    return (
      operand.type !== 'word' ||
      /^(?:true|false|null|[a-z])$/.test(operand.value) ||
      isOperand(tokens[j + 2])
    )
  }
  return (
    (operand.type === 'number' || operand.value === 'true' || operand.type === 'string') &&
    isEnd(tokens[j + 1])
  )
}

/** The shapes of an injection in one token stream; `quoted` when it begins with the string the attacker closed. */
function injected(tokens: SqlToken[], quoted: boolean, paranoia: Paranoia): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as SqlToken
    const prev = tokens[i - 1]
    const closedValue =
      prev !== undefined &&
      (prev.type === 'number' ||
        (prev.type === 'string' && !prev.open) ||
        prev.type === 'close' ||
        (paranoia === 2 && prev.type === 'word'))
    if (t.type === 'word' && t.value === 'union') {
      const next =
        tokens[i + 1]?.value === 'all' || tokens[i + 1]?.value === 'distinct'
          ? tokens[i + 2]
          : tokens[i + 1]
      if (
        next?.value === 'select' ||
        (next?.type === 'open' && tokens.slice(i + 1, i + 4).some((x) => x.value === 'select'))
      )
        return true
    }
    if (isFunctionCall(tokens, i, ALWAYS_FUNCTIONS) && sqlArgument(tokens[i + 2])) return true
    if (t.type === 'variable' && ATTACK_VARIABLE.test(t.value)) return true
    if (isLogic(t) && closedValue && (i === 1 || quoted) && logicAfterValue(tokens, i)) return true
    if (t.type === 'semicolon' && (i === 0 || closedValue) && stackedStatement(tokens, i + 1))
      return true
    if (t.type === 'comment' && quoted && i === 1 && !(tokens[0] as SqlToken).open) return true
    if (t.type === 'semicolon' && quoted && i === 1 && isEnd(tokens[i + 1])) return true
    if (
      t.type === 'word' &&
      (t.value === 'order' || t.value === 'group') &&
      tokens[i + 1]?.value === 'by' &&
      tokens[i + 2]?.type === 'number' &&
      closedValue &&
      isEnd(tokens[i + 3])
    )
      return true
    if (
      t.type === 'operator' &&
      (t.value === '+' || t.value === '||') &&
      quoted &&
      i === 1 &&
      isFunctionCall(tokens, i + 1, ATTACK_FUNCTIONS)
    )
      return true
    if (
      t.type === 'word' &&
      t.value === 'waitfor' &&
      (tokens[i + 1]?.value === 'delay' || tokens[i + 1]?.value === 'time')
    )
      return true
    if (
      t.type === 'word' &&
      t.value === 'into' &&
      (tokens[i + 1]?.value === 'outfile' || tokens[i + 1]?.value === 'dumpfile')
    )
      return true
    if (paranoia === 2 && isFunctionCall(tokens, i, ATTACK_FUNCTIONS) && (closedValue || i === 0))
      return true
  }
  return false
}

/**
 * Whether injected() may fire on any of detectSqli's three token streams (the text, and the text
 * after a `'` or a `"`); false proves none does, and the text is not tokenized.
 *
 * injected() fires only at a token of a few kinds (a trigger: a logic word or `||` `&&`, `union`,
 * `order`/`group`, `;`, a function name before `(`, a comment, `@@`, `waitfor`, `into`). What it
 * asks of the tokens after a trigger depends on the text after it alone: the tokenizer keeps no
 * state but its position, so the tokens from a trigger's start are the same in every stream
 * where a token starts there. Those are read here (a few tokens each), and the tests after the
 * trigger run on them as injected() runs them. What injected() asks of the tokens before (a
 * closed value, the trigger's index, which stream) is taken as met, but for a logic word at
 * paranoia 1: a closed value is a number, a closed string or `)`, whose last character is a
 * digit's run, a quote or `)` (prose's `, and` or `cats and` is none). The rare triggers (a
 * comment, `@@`, `waitfor`, `outfile`) run the streams at sight. A stream cut at MAX_TOKENS
 * would end where the text does not: a text that long is tokenized whole.
 *
 * Prose with an apostrophe and `and`, or a `(`, opened every stream; now the few words after
 * each `and` decide (sqli-gates.property.test.ts compares this with the streams on the same values),
 * and the word after each `;`, `union`, `order`, `group` or logic word is read before its tokens:
 * where it is a word the trigger's test cannot go on with (`; don't`, `union of`, `and talked
 * about`), nothing after it is tokenized.
 */
export function mayInject(text: string, paranoia: Paranoia): boolean {
  return (
    // A stream of n characters holds n tokens at most: the quoted ones, text.length + 1.
    text.length >= MAX_TOKENS ||
    // A function call (`sleep(`, `'+char(`, a logic word before one): a name of them before `(`.
    (text.includes('(') && nameBeforeParen(text, ATTACK_FUNCTIONS_IN)) ||
    triggerMayFire(text, paranoia)
  )
}

/**
 * Whether detectSqli may fire on `text` (a value without `/*`, so as its patterns read it) by a
 * call or a token stream: a name before `(` that functionCall(), injected() or a sign's pattern
 * reads as a call (a SQL or attack function, `if (`, `) like (`, `using (`, `against (`), or
 * what mayInject() reads. What the pre-filter asks where only a parenthesis or a quote with a
 * logic word, `;`, `--` or `#` opened the detector (prefilter.ts): every other way it fires holds
 * a character or word the pre-filter's other tests read (a NoSQL `$`, a sign's word, a
 * statement's `select `, a number opening the value…), and these are the ways left. Prose's
 * `(the one near the station)`, `don't`, `; don't drop by`, `) and talked about` fire none.
 */
export function mayCallOrInject(text: string, paranoia: Paranoia): boolean {
  // mayInject(), its call names among readAsCall's: one read back from each `(` asks both.
  return (
    text.length >= MAX_TOKENS ||
    (text.includes('(') && nameBeforeParen(text, readAsCall)) ||
    triggerMayFire(text, paranoia)
  )
}
/** The words before `(` that some sign's pattern reads (SQL_SIGNS: `if (`, `) like (`, `merge … using (`, `match (…) against (`). */
export const SIGN_CALLS: readonly string[] = ['if', 'like', 'using', 'against']
export const ATTACK_FUNCTIONS_IN = wordsIn(ATTACK_FUNCTIONS)
/**
 * A name before `(` that some part of detectSqli reads as a call: sqlFunction(), an attack
 * function or a sign's call, the three sets' names in one table.
 */
const READ_AS_CALL_NAMES_IN = wordsIn([...SQL_FUNCTION_NAMES, ...ATTACK_FUNCTIONS, ...SIGN_CALLS])
export const readAsCall: WordsIn = (text, start, end) =>
  READ_AS_CALL_NAMES_IN(text, start, end) || sqlFunctionPrefixIn(text, start, end)

/** mayInject() but for the calls: whether some trigger of injected() may fire (a text shorter than MAX_TOKENS). */
function triggerMayFire(text: string, paranoia: Paranoia): boolean {
  TRIGGER.lastIndex = 0
  let triggers = 0
  // test() and not exec(): exec() builds an array and a string for each match (a fifth of the
  // gate's time on prose), and the match's end and last characters tell which trigger it is.
  while (TRIGGER.test(text)) {
    const end = TRIGGER.lastIndex
    const trigger = triggerAt(text, end)
    if (trigger === RARE_TRIGGER || ++triggers > MAX_TRIGGERS) return true
    const at = end - (trigger & LENGTH)
    // `|||` holds two `||`: the next search starts inside this one.
    if (trigger === OPERATOR) TRIGGER.lastIndex = at + 1
    if (trigger === SEMICOLON) {
      // `; drop table`, or `'x';` ending the value (a comment or the end after it).
      if (!mayBeWord(text, end, STATEMENTS_IN)) continue
      const after = sqlTokens(text, at, 4)
      if (stackedStatement(after, 1) || isEnd(after[1])) return true
    } else if (trigger === UNION) {
      if (!mayBeWord(text, end, UNION_NEXT)) continue
      const after = sqlTokens(text, at, 4)
      const next = after[1]?.value === 'all' || after[1]?.value === 'distinct' ? after[2] : after[1]
      if (
        next?.value === 'select' ||
        (next?.type === 'open' && after.some((x) => x.value === 'select'))
      )
        return true
    } else if (trigger === ORDER_OR_GROUP) {
      if (!mayBeWord(text, end, BY)) continue
      const after = sqlTokens(text, at, 4)
      if (after[1]?.value === 'by' && after[2]?.type === 'number' && isEnd(after[3])) return true
    } else if (logicMayFire(text, at, end, paranoia)) return true
  }
  return false
}
/**
 * The triggers read before the streams run anyway. A token read after a trigger may reach far
 * (`or \\' or \\' …`: a string whose quotes are all escaped runs to the end), and so may the
 * run read back before a logic word: each costs up to the text's length, so their number is
 * bounded to keep detectSqli linear. Prose meets the bound only past a few hundred words.
 */
const MAX_TRIGGERS = 32
/**
 * A logic word, `union`, `order` or `group` as a whole word (a token is: \w is within its word
 * characters), `;`, a rare trigger (a comment, `@@`, `waitfor`, `into outfile`), or a logic
 * operator `||` `&&` (in the same search: it costs less with them than it and two indexOf loops
 * of their own, by about 25 ns on prose). No other alternative holds a `|` or `&`, so the others
 * are found where they were without them, and each `||` and `&&` where indexOf found it (the
 * search resumes inside a run of three).
 */
export const TRIGGER =
  /\b(?:or|and|xor|div|not|union|order|group)\b|;|#|--|\/\*|@@|waitfor|outfile|dumpfile|\|\||&&/g
/** A trigger's kind and length (`kind | length`), as triggerAt() tells them. */
const LENGTH = 15
const SEMICOLON = 16 | 1
const UNION = 32 | 5
const ORDER_OR_GROUP = 48 | 5
const LOGIC_OR = 64 | 2
const LOGIC_3 = 64 | 3
const OPERATOR = 80 | 2
const RARE_TRIGGER = 96
/** The kinds triggerAt() tells, by the trigger each stands for. */
export const TRIGGER_KINDS: Readonly<Record<string, number>> = {
  ';': SEMICOLON,
  union: UNION,
  order: ORDER_OR_GROUP,
  group: ORDER_OR_GROUP,
  or: LOGIC_OR,
  and: LOGIC_3,
  xor: LOGIC_3,
  div: LOGIC_3,
  not: LOGIC_3,
  '||': OPERATOR,
  '&&': OPERATOR,
  '#': RARE_TRIGGER,
  '--': RARE_TRIGGER,
  '/*': RARE_TRIGGER,
  '@@': RARE_TRIGGER,
  waitfor: RARE_TRIGGER,
  outfile: RARE_TRIGGER,
  dumpfile: RARE_TRIGGER,
}
/**
 * Which of TRIGGER's alternatives the match ending before `text[end]` is, told by its last
 * characters: `;`; `and` `div` `not` (`d` `v` `t`); `union` (`n`); `group` (`p`); and of those
 * ending in `r`, `xor`, `order`, `waitfor` by the character two before (`x` `d` `f`), `or` where
 * that is none of them (before `or` stands no word character, which those three are); `||` and
 * `&&` (`|` `&`). Every other last character (`#`, `-`, `*`, `@`, `e`) ends a rare one: `#`,
 * `--`, `/*`, `@@`, `outfile`, `dumpfile`. sqli-in-place.property.test.ts compares this
 * with the match's text.
 */
export function triggerAt(text: string, end: number): number {
  switch (text.charCodeAt(end - 1)) {
    case 59 /* ; */:
      return SEMICOLON
    case 100 /* d */:
    case 118 /* v */:
    case 116 /* t */:
      return LOGIC_3
    case 110 /* n */:
      return UNION
    case 112 /* p */:
      return ORDER_OR_GROUP
    case 124 /* | */:
    case 38 /* & */:
      return OPERATOR
    case 114 /* r */:
      switch (text.charCodeAt(end - 3)) {
        case 120 /* x */:
          return LOGIC_3
        case 100 /* d */:
          return ORDER_OR_GROUP
        case 102 /* f */:
          return RARE_TRIGGER
        default:
          return LOGIC_OR
      }
    default:
      return RARE_TRIGGER
  }
}

/**
 * Whether the token after a trigger (from `text[from]` on) may be one of `words`, the ones its
 * test goes on with; false where it is a word outside them. The tests of `;`, `union` and
 * `order`/`group` fail on any other word (`; don't`, `union of`, `order of`), and prose has one
 * after each: the tokens after are read only where this is true.
 */
function mayBeWord(text: string, from: number, words: WordsIn): boolean {
  const start = sqlSkipSpace(text, from)
  const end = sqlWordEnd(text, start)
  return end === start || words(text, start, end)
}
const STATEMENTS_IN = wordsIn(STATEMENTS)
/** The words after `union` its test reads on: `all`/`distinct` before the `select`. */
const UNION_NEXT = wordsIn(['all', 'distinct', 'select'])
const BY = wordsIn(['by'])

/**
 * Whether the logic token `text[at, end)` may fire: a closed value before it (paranoia 1),
 * logicAfterValue after it.
 */
function logicMayFire(text: string, at: number, end: number, paranoia: Paranoia): boolean {
  if (paranoia === 1 && !closedValueBefore(text, at)) return false
  if (twoPlainWordsAfter(text, end)) return false
  // logicAfterValue reads past `(` and `not`, then four tokens at most: read until those are in.
  for (let limit = 5; ; limit *= 2) {
    const after = sqlTokens(text, at, limit)
    let j = 1
    while (after[j]?.type === 'open' || (after[j]?.type === 'word' && after[j]?.value === 'not'))
      j++
    if (after.length < limit || j + 4 <= limit) return logicAfterValue(after, 0)
  }
}

/**
 * Whether the logic token ending at `text[end]` is followed by two words that make
 * logicAfterValue false: `and talked about`, prose's logic. The first is an operand that is no
 * number, string or `true` and is not skipped (`not`); a word after it is no call's `(`, no
 * comparison and no operator, so neither a condition nor a value ending the statement follows.
 */
function twoPlainWordsAfter(text: string, end: number): boolean {
  const start = sqlSkipSpace(text, end)
  const firstEnd = sqlWordEnd(text, start)
  if (firstEnd === start || NOT_OR_TRUE(text, start, firstEnd)) return false
  const second = sqlSkipSpace(text, firstEnd)
  const secondEnd = sqlWordEnd(text, second)
  return secondEnd !== second && !COMPARISON_IN(text, second, secondEnd)
}
const NOT_OR_TRUE = wordsIn(['not', 'true'])
/** COMPARISON's words (its operators are never a word). */
const COMPARISON_IN = wordsIn(COMPARISON)

/**
 * Whether the token ending before `text[at]` (past white space) may be a closed value at paranoia
 * 1: a closed string ends with its quote, `)` is one, and a number is a run of word characters
 * and dots holding a digit (it starts with one, or with `.` and one).
 */
function closedValueBefore(text: string, at: number): boolean {
  let end = at - 1
  while (sqlSpaceAt(text, end)) end--
  if (end < 0) return false
  const last = text.charCodeAt(end)
  if (last === 41 /* ) */ || last === 39 || last === 34 || last === 96 /* ' " ` */) return true
  for (let i = end; i >= 0 && (sqlWordAt(text, i) || text.charCodeAt(i) === 46); i--) {
    const code = text.charCodeAt(i)
    if (code >= 48 && code <= 57) return true
  }
  return false
}

const NOSQL_OPERATOR =
  /^(?:\[\s*)?\$(?:ne|eq|gt|gte|lt|lte|in|nin|regex|where|exists|or|and|not|nor|expr|elemmatch|function|accumulator|jsonschema|type|size|all|mod|text)(?:\s*\])?$/
const NOSQL_BRACKET =
  /\[\s*\$(?:ne|eq|gt|gte|lt|lte|in|nin|regex|where|exists|or|and|not|nor|expr|elemmatch|function)\s*\]/

export function detectSqli(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  return detectSqliWith(subject, kind, paranoia, true)
}

/**
 * detectSqli(), with its gates (`gated`) or without: without them every pattern runs and the
 * text is tokenized in full, as before the gates. The two must agree on every value
 * (tests/shield/sqli-gates.property.test.ts).
 */
export function detectSqliWith(
  subject: Subject,
  kind: InputKind,
  paranoia: Paranoia,
  gated: boolean,
): boolean {
  const lower = subject.lower
  if (kind === 'name' && (NOSQL_OPERATOR.test(lower) || NOSQL_BRACKET.test(lower))) return true
  if (NOSQL_BRACKET.test(lower)) return true
  if (METADATA.test(lower) || MAGIC_NUMBER.test(lower)) return true
  // The gates read `text`, what the patterns and the tokenizer read (its comments already cut out).
  const text = stripSqlComments(lower)
  const signs = !gated || SQL_NEEDS_ANY.test(text)
  for (let i = 0; signs && i < SQL_SIGNS.length; i++) {
    if (
      (!gated || (SQL_SIGN_NEEDS[i] as (t: string) => boolean)(text)) &&
      (SQL_SIGNS[i] as RegExp).test(text)
    )
      return true
  }
  if (jsonLiteralCompared(text)) return true
  // A path holds no prose: a whole statement or a function call there is an injection too.
  for (let i = 0; signs && i < SQL_STATEMENTS.length; i++) {
    if (
      (!gated || (SQL_STATEMENT_NEEDS[i] as (t: string) => boolean)(text)) &&
      (SQL_STATEMENTS[i] as RegExp).test(text)
    )
      return true
  }
  if (
    kind !== 'path' &&
    text.includes('(') &&
    (!gated || nameBeforeParen(text, sqlFunctionIn)) &&
    functionCall(text, kind)
  )
    return true
  if (gated && !mayInject(text, paranoia)) return false
  if (injected(sqlTokens(text), false, paranoia)) return true
  if (text.includes("'") && injected(sqlTokens(`'${text}`), true, paranoia)) return true
  if (text.includes('"') && injected(sqlTokens(`"${text}`), true, paranoia)) return true
  return false
}
