// The matchers that replaced patterns recheck's automaton could not decide (an alternation split
// into one pattern per family, names looked up in a set, a prefix or a lookahead read by hand) give
// what the old pattern gave. The old patterns are kept here as the oracles, out of the engine (the
// ReDoS test reads only the engine's sources): on every CRS input and benign value, and on random
// values built from each oracle's own words and characters, so both outcomes are exercised.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { wordCalls } from '../../packages/middleware/src/shield/detect/calls'
import { GADGETS } from '../../packages/middleware/src/shield/detect/java'
import { OS_FILES } from '../../packages/middleware/src/shield/detect/lfi'
import { dropBeforeCall, firstFunctionCall } from '../../packages/middleware/src/shield/detect/php'
import {
  iniLine,
  JAVA_WORDS,
  numberOpens,
  RCE_WORDS,
  SQL_DIGITS_REST,
  SQL_STACKED,
  SQL_WORDS,
  urlMarkInFirstWord,
} from '../../packages/middleware/src/shield/detect/prefilter'
import { PROTO_KEY } from '../../packages/middleware/src/shield/detect/prototype-pollution'
import {
  aliasDefinition,
  WINDOWS_IF,
  WINDOWS_VARIABLES,
} from '../../packages/middleware/src/shield/detect/rce'
import { internalHost } from '../../packages/middleware/src/shield/detect/rfi'
import { probePath } from '../../packages/middleware/src/shield/detect/scanner'
import {
  jsonLiteralCompared,
  SQL_SIGNS,
  SQL_STATEMENTS,
  sqlFunction,
} from '../../packages/middleware/src/shield/detect/sqli'
import { loadBenign, loadCases } from '../../tests/fixtures/crs/measure'
import { inputsOf } from '../../tests/fixtures/crs/requests'

const any = (patterns: RegExp[]) => (text: string) => patterns.some((p) => p.test(text))

/** The patterns as they were before the rewrite. */
const OLD = {
  GADGETS:
    /\b(?:runtime\s*\.\s*getruntime\s*\(|new\s+processbuilder|processbuilder\s*\(|\.exec\s*\(\s*["']|getclass\s*\(\s*\)\s*\.\s*forname|class\s*\.\s*forname|\.getmethod\s*\(|\.newinstance\s*\(|class\.module\.classloader|class\.classloader|@java\.lang|#_memberaccess|#context\s*\[|ognlcontext|xwork\.methodaccessor|\(#[a-z_]+\s*=)/,
  OS_FILES:
    /(?:^|[/\\\s'"=:])(?:etc[/\\](?:passwd|shadow|group|hosts|issue|master\.passwd|subuid|subgid|sudoers|crontab|fstab|motd|mysql|httpd|apache2|nginx|ssh|security|pam\.d|environment|profile|hostname|resolv\.conf)|proc[/\\](?:self|version|cmdline|environ|interrupts|cpuinfo|meminfo|mounts|net|\d+)|sys[/\\](?:class|kernel|devices|power|firmware)|(?:boot|win|system)\.ini|windows[/\\](?:system32|win\.ini|repair)|winnt[/\\]|\.ssh[/\\]|id_(?:rsa|dsa|ecdsa|ed25519)\b|authorized_keys|\.(?:bash_|zsh_|mysql_|psql_)?history\b|\.htaccess|\.htpasswd|\.git[/\\]|\.svn[/\\]|\.docker[/\\]|\.aws[/\\]|\.kube[/\\]|web\.config|wp-config\.php|httpd\.conf|php\.ini|\.env(?:\.[a-z]+)?$|var[/\\]log[/\\]|usr[/\\]local[/\\]apps)/,
  PHP_FUNCTIONS:
    /\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|eval|assert|create_function|call_user_func(?:_array)?|base64_decode|gzinflate|gzuncompress|gzdecode|str_rot13|file_get_contents|file_put_contents|fopen|fwrite|fputs|fputcsv|readfile|file|include|include_once|require|require_once|unserialize|phpinfo|posix_\w+|preg_replace|array_map|array_filter|usort|uasort|register_shutdown_function|register_tick_function|ob_start|highlight_file|show_source|php_uname|getenv|putenv|ini_set|ini_get|set_time_limit|move_uploaded_file|copy|unlink|rmdir|mkdir|chmod|chown|symlink|curl_exec|fsockopen|pfsockopen|stream_socket_client|mail|dl|extract|parse_str|var_dump|print_r|echo|print|die|exit|is_array|is_string|substr|strrev|str_replace|chr|ord|hex2bin|bin2hex|dirname|basename|glob|scandir|opendir|readdir|filemtime|touch|escapeshellcmd|escapeshellarg|get_defined_vars|get_defined_functions|func_get_args|debug_zval_refcount|apache_child_terminate)\s*\(/,
  PHP_CALL_QUOTES: /["'()]\s*(?=\()/g,
  PROTO_KEY:
    /(?:^|[[.\s"'])__proto__(?:$|[\].\s"'])|^__proto__|constructor\s*(?:\]\s*\[|\.|\[)\s*['"]?prototype\b|\b__(?:definegetter|definesetter|lookupgetter|lookupsetter)__\b/,
  ALIAS: /\balias\s{1,16}(?:-\w{1,48}\s{1,16})*[\w'"+-]{1,48}=/,
  WINDOWS_IF:
    /(?:^|[&|(])\s{0,8}if\s{1,8}"[^"]{0,64}"\s{0,8}==|(?:^|[&|(])\s*if(?:\s*\/i)?\s+(?:not\s+)?(?:(?:exist|defined|errorlevel|cmdextversion)\s+\S|[^\s]+\s*(?:==|\s(?:equ|neq|lss|leq|gtr|geq)\s))/,
  WINDOWS_VARIABLES:
    /%[a-z_]{3,20}%|%(?:comspec|systemroot|windir|programfiles|appdata|temp|userprofile|path|errorlevel|cd|random|date|time|cmdcmdline)%|%[a-z_]+:~-?\d/,
  INTERNAL_HOST:
    /^\s*(?:[a-z][\w+.-]*:(?:\/\/)?)?(?:[^@/\s]*@)?(?:localhost\d?(?:\.localdomain\d?)?|ipv6-localhost|ip6-localhost|ip6-loopback|[\w-]+\.docker\.internal|host\.containers\.internal|host\.docker\.internal|kubernetes\.docker\.internal|kubernetes\.default(?:\.svc)?(?:\.cluster\.local)?|[\w.-]+\.svc\.cluster\.local|localtest\.me|lvh\.me|metadata(?:\.google)?\.internal|metadata\.packet\.net|metadata\.azure\.com|instance-data|169\.254\.169\.254|\[?fd00:ec2::254\]?|100\.100\.100\.200|192\.0\.0\.192|0x[0-9a-f]{8}|\d{8,10}|0+\.0+\.0+\.0+|127(?:\.\d{1,3}){3}|0177\.\d+\.\d+\.\d+|\[?::1?\]?|\[?::ffff:[\d.]+\]?)(?::\d+)?(?:[/?#]|$)/,
  PROBE_PATHS:
    /^\/(?:[^?]*\/)?(?:\.env(?:\.[\w.-]+)?|\.git\/(?:config|head|index|logs)|\.gitconfig|\.svn\/(?:entries|wc\.db)|\.hg\/|\.bzr\/|\.ds_store|\.htpasswd|\.htaccess|\.aws\/credentials|\.npmrc|\.dockerenv|wp-login\.php|xmlrpc\.php|wp-config\.php(?:\.\w+)?|phpmyadmin|pma|myadmin|adminer(?:[\w.-]*)\.php|phpinfo\.php|info\.php|server-status|server-info|cgi-bin\/|actuator(?:\/(?:env|heapdump|jolokia|gateway))?|jolokia|solr\/admin|hnap1|boaform|vendor\/phpunit|eval-stdin\.php|shell\.php|cmd\.php|c99\.php|r57\.php|config\.(?:php|json|yml|yaml)\.(?:bak|old|save|swp)|web\.config|id_rsa|\.ssh\/|backup\.(?:zip|tar|tar\.gz|tgz|sql|7z)|dump\.sql|database\.sql|db\.sql|sftp-config\.json|docker-compose\.ya?ml|\.well-known\/security\.txt\.bak)(?:$|[/?#])/,
  SQL_FUNCTION:
    /\b(ascii|bin|char|chr|coalesce|concat|concat_ws|conv|cos|sin|tan|cot|acos|asin|atan2?|pow|power|rand|random|md5|sha[12]?|hex|unhex|ifnull|isnull|nullif|iif|instr|length|len|locate|lower|upper|lpad|rpad|ltrim|rtrim|trim|mid|ord|position|repeat|replace|reverse|round|floor|ceil|ceiling|substr|substring|substring_index|uncompress|compress|database|schema|user|current_user|session_user|system_user|version|now|sysdate|count|sum|avg|min|max|cast|convert|xmltype|extractvalue|updatexml|json_extract|json_object|json_build_object|json_array|jsonb_\w+|starts_with|unistr|to_char|to_number|elt|field|find_in_set|make_set|exp|log|ln|abs|sqrt|datediff|date_add|date_format|str_to_date|unix_timestamp|from_unixtime|group_concat|load_file|benchmark|sleep|pg_sleep|weight_string|quote|soundex|strcmp|bit_length|octet_length|char_length|character_length|uuid|last_insert_id|row_count|found_rows|connection_id|schema_name|db_name|object_id|col_name|host_name|suser_name|is_member|has_perms_by_name|dbms_\w+|utl_\w+|sys_context|nvl2?|decode|regexp_\w+)\s*\(/g,
  SQL_SIGNS: [
    /\bxp_(?:cmdshell|dirtree|regread|fileexist|availablemedia|servicecontrol)\b|\bexec(?:ute)?\s+master\.|\bexecute\s+immediate\b|\bdeclare\s+@|\bprocedure\s+analyse\b|\bwaitfor[\s+]+(?:delay|time)\b|\bpg_sleep\b/,
    /'[[{][^']{0,200}[\]}]'\s*(?:::\s*jsonb?|->>?|#>>?|@>|<@|@\?|\?[|&]?|@@|\|\||[<>=]|-\s{0,8}\d)|[\w)]::\s{0,8}\s*(?:int|integer|bool|boolean|text|jsonb?|double|varchar|numeric|regclass|bigint)\b|\bor\s+'[[{]/,
    /\bcase\s{1,16}when\b[^;]{0,48}?\bthen\b|\)\s{0,16}like\s{0,16}\(|\bif\s{0,16}\(\s{0,16}\w{1,48}\s{0,16}[<>=!~]|\bmerge\b[^;]{0,48}?\busing\s{0,16}\(|\bmatch\s{0,16}\([^)]{0,48}\)\s{0,16}against\s{0,16}\(/,
    /(?:^[^a-z_]+|;\s*)create\s+(?:or\s+replace\s+)?(?:function|procedure|table|trigger|view|user|database)\s+[\w.`"]+|\bcreate\s+(?:or\s+replace\s+)?(?:function|procedure|table|trigger|view|user|database)\s+[`"]|(?:^[^a-z_]+|;\s*)(?:alter|drop|truncate)\s+table\s+[\w.`"]+|\b(?:alter|drop|truncate)\s+table\s+[`"]|\/\*!\d*\s*[a-z]|\d\.e[(.,]|(?:^|[\s(])(?:msdb|tempdb|schema_name)(?:$|[\s).,])|`\s*(?:regexp|rlike|like)\b/,
  ],
  SQL_STATEMENTS: [
    /\bselect\s{1,16}(?:if|sleep|benchmark)\s{0,16}\(|unionselect|\bselect\s{1,16}\*\s{1,16}from\b|\bselect\s{1,16}[\w.`"]{1,64}(?:\s{0,8},\s{0,8}[\w.`"]{1,64}){1,16}\s{1,16}from\s{1,16}[\w.`"]{1,64}|\b\d{1,16}\s{1,16}as\s{1,16}["'`\w]{1,64}\s{1,16}from\b/,
  ],
  JAVA_WORDS:
    /\b(?:javax?\.|org\.|com\.|class\s*\.|xwork\.|runtime|processbuilder|classloader|scriptenginemanager|invokertransformer|instantiatetransformer|chainedtransformer|constanttransformer|clonetransformer|forclosure|instantiatefactory|prototypeclonefactory|prototypeserializationfactory|whileclosure|templatesimpl|annotationinvocationhandler|badattributevalueexpexception|xsltc|jdbcrowsetimpl|unicastref|remoteobjectinvocationhandler|ognlcontext|aced0005|ro0ab|h4siaaaaaaaa)|\.jsp/,
  RCE_WORDS:
    /^\s*if\s|process|__js_function|this\.constructor|xhuwmdc3xhuwmdy4awxl|xyqktkrfrlvoqyqk|xyqkxhuwmdrlxhuwmdq0x0zvtkmkjf9c|d2hpbguodhj1zsk|d2hpbguoms|x19qc19mdw5jdglvbi|downloadstring|downloadfile|frombase64string|webclient/,
  SQL_STACKED:
    /;\s*(?:insert|replace|update|delete|(?:drop|create|alter|truncate)\s+(?:table|database|schema|view|user|function|procedure|trigger|index)|select|exec|declare|shutdown|waitfor|(?:grant|revoke|union|set|load|backup|call|merge|handler|rename|begin|if|copy|attach|pragma|use)\s*(?:$|@))/,
  SQL_DIGITS: /^\s*(?:json\.)?[-+.]?\d|order|group|\d\.e|\d\s+as\s/,
  RFI_FIRST_WORD: /^\s*[^\s:/?#]*[:/?#]/,
  PHP_INI_LINE: /^\s*[a-z_]+\s*=/,
  SQL_WORDS:
    /union\s*(?:(?:all|distinct)\s+)?select|select\s|waitfor|outfile|dumpfile|create\s|table|when|exec|analyse|pg_|xp_|msdb|tempdb|schema|information|mysql|sysobjects|syscolumns|sysdatabases|sqlite|msys|northwind|master/,
}

/** `[index, text]` of every match: what the SQL detector reads of its function calls. */
const sqlCallsOld = (text: string) =>
  [...text.matchAll(OLD.SQL_FUNCTION)].map((m) => [m.index, m[0]])
const sqlCallsNew = (text: string) =>
  [...wordCalls(text)].filter((m) => sqlFunction(m.name)).map((m) => [m.index, m.text])
const phpCallOld = (text: string) => {
  const m = OLD.PHP_FUNCTIONS.exec(text)
  return m === null ? null : [m.index, m[0]]
}
const phpCallNew = (text: string) => {
  const m = firstFunctionCall(text)
  return m === undefined ? null : [m.index, m.text]
}

interface Pair {
  name: string
  old: (text: string) => unknown
  now: (text: string) => unknown
  /** Oracle whose source gives the generator its words and characters. */
  vocabulary: RegExp[]
  /** Fragments the oracle's words alone rarely build (a path's `/`, a URL's parts). */
  extra?: string[]
  /** Values shaped like a match, for an oracle that random words seldom satisfy. */
  shaped?: fc.Arbitrary<string>
}

/** Every kind of white space `\s` reads, and characters next to it that it does not. */
const WHITE_SPACE_AND_NEAR = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u180e',
  '\u200b',
  '\u0085',
]

const spaces = fc.integer({ min: 0, max: 18 }).map((n) => ' '.repeat(n))
const word = (max: number) => fc.stringMatching(/^[a-z0-9_'"+-]+$/).filter((w) => w.length <= max)
/** `alias -p -g ll=`, with counts on both sides of the old pattern's bounds. */
const aliasShaped = fc
  .tuple(
    fc.constantFrom('', 'x', ' ', '-', ';'),
    spaces,
    fc.array(fc.tuple(fc.constantFrom('-', ''), word(50), spaces), { maxLength: 4 }),
    fc.oneof(
      word(50),
      fc.integer({ min: 46, max: 50 }).map((n) => 'a'.repeat(n)),
    ),
    fc.constantFrom('=', '', ' =', "='ls'"),
  )
  .map(
    ([before, gap, options, name, end]) =>
      `${before}alias${gap}${options.map(([dash, w, s]) => dash + w + s).join('')}${name}${end}`,
  )

const PAIRS: Pair[] = [
  {
    name: 'java gadgets',
    old: (t) => OLD.GADGETS.test(t),
    now: any(GADGETS),
    vocabulary: [OLD.GADGETS],
  },
  {
    name: 'lfi OS files',
    old: (t) => OLD.OS_FILES.test(t),
    now: any(OS_FILES),
    vocabulary: [OLD.OS_FILES],
  },
  { name: 'php function call', old: phpCallOld, now: phpCallNew, vocabulary: [OLD.PHP_FUNCTIONS] },
  {
    name: 'php quotes before a call',
    old: (t) => t.replace(OLD.PHP_CALL_QUOTES, (m) => (m.startsWith(')') ? m : '')),
    now: dropBeforeCall,
    vocabulary: [OLD.PHP_CALL_QUOTES],
    extra: ['system', 'x'],
  },
  {
    name: 'prototype keys',
    old: (t) => OLD.PROTO_KEY.test(t),
    now: any(PROTO_KEY),
    vocabulary: [OLD.PROTO_KEY],
  },
  {
    name: 'alias definition',
    old: (t) => OLD.ALIAS.test(t),
    now: aliasDefinition,
    vocabulary: [OLD.ALIAS],
    shaped: aliasShaped,
  },
  {
    name: 'windows if',
    old: (t) => OLD.WINDOWS_IF.test(t),
    now: any(WINDOWS_IF),
    vocabulary: [OLD.WINDOWS_IF],
    extra: ['&', '(', 'if ', ' if', '/i', 'not ', 'exist ', '"x"', ' == ', '==', ' equ ', 'a'],
  },
  {
    name: 'windows variables',
    old: (t) => OLD.WINDOWS_VARIABLES.test(t),
    now: any(WINDOWS_VARIABLES),
    vocabulary: [OLD.WINDOWS_VARIABLES],
  },
  {
    name: 'internal host',
    old: (t) => OLD.INTERNAL_HOST.test(t),
    now: internalHost,
    vocabulary: [OLD.INTERNAL_HOST],
    extra: [
      'http://',
      'gopher:',
      '//',
      'user:pw@',
      '@',
      ':80',
      '/',
      '?',
      '#',
      '127.0.0.1',
      '[::1]',
      '0x7f000001',
      '2130706433',
      '169.254.169.254',
      'a.svc.cluster.local',
      'x.docker.internal',
    ],
  },
  {
    name: 'probe paths',
    old: (t) => OLD.PROBE_PATHS.test(t),
    now: probePath,
    vocabulary: [OLD.PROBE_PATHS],
    extra: ['/', '/', '?', '#', '/.env', '/.git/config', 'a', '.bak', '.php'],
  },
  {
    name: 'sql function calls',
    old: sqlCallsOld,
    now: sqlCallsNew,
    vocabulary: [OLD.SQL_FUNCTION],
  },
  {
    name: 'sql signs',
    old: (t) => OLD.SQL_SIGNS.some((p) => p.test(t)),
    now: (t) => SQL_SIGNS.some((p) => p.test(t)) || jsonLiteralCompared(t),
    vocabulary: OLD.SQL_SIGNS,
    extra: ["'", "'{", "}'", "'[", "]'", '::jsonb', '@>', '- 1', 'x'.repeat(199)],
  },
  {
    name: 'sql statements',
    old: (t) => OLD.SQL_STATEMENTS.some((p) => p.test(t)),
    now: any(SQL_STATEMENTS),
    vocabulary: OLD.SQL_STATEMENTS,
  },
  {
    name: 'pre-filter java words',
    old: (t) => OLD.JAVA_WORDS.test(t),
    now: any(JAVA_WORDS),
    vocabulary: [OLD.JAVA_WORDS],
  },
  {
    name: 'pre-filter rce words',
    old: (t) => OLD.RCE_WORDS.test(t),
    now: any(RCE_WORDS),
    vocabulary: [OLD.RCE_WORDS],
  },
  {
    name: 'pre-filter sql stacked',
    old: (t) => OLD.SQL_STACKED.test(t),
    now: any(SQL_STACKED),
    vocabulary: [OLD.SQL_STACKED],
  },
  {
    name: 'pre-filter sql digits (a number opening the value read by hand)',
    old: (t) => OLD.SQL_DIGITS.test(t),
    now: (t) => numberOpens(t) || SQL_DIGITS_REST.test(t),
    vocabulary: [OLD.SQL_DIGITS],
    // Every white space `\s` reads, signs and a prefix that almost opens a number.
    extra: [
      'json.',
      'json',
      '-',
      '+',
      '.',
      '7',
      '\u00a0',
      '\u2028',
      '\ufeff',
      '\u3000',
      '\r',
      'jsonx',
    ],
    shaped: fc
      .tuple(
        fc.array(fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', '\u180e', 'x'), {
          maxLength: 3,
        }),
        fc.constantFrom('', 'json.', 'json', 'json..', 'jso.'),
        fc.constantFrom('', '-', '+', '.', '--', '-.', 'e'),
        fc.constantFrom('0', '9', '٣', 'a', '', ' 1'),
        fc.string({ maxLength: 12 }),
      )
      .map(([space, json, sign, first, rest]) => space.join('') + json + sign + first + rest),
  },
  {
    name: 'pre-filter rfi first word (read by hand)',
    old: (t) => OLD.RFI_FIRST_WORD.test(t),
    now: urlMarkInFirstWord,
    vocabulary: [OLD.RFI_FIRST_WORD],
    // Every white space `\s` reads (and one it does not), words, and a URL's parts.
    extra: WHITE_SPACE_AND_NEAR.concat(['http', 'x', 'a.b', '//', 'example.com', '']),
    shaped: fc
      .tuple(
        fc.array(fc.constantFrom(...WHITE_SPACE_AND_NEAR), { maxLength: 3 }),
        fc.stringMatching(/^[a-z.\u00e9_-]{0,8}$/),
        fc.constantFrom('', ':', '/', '?', '#', ' ', '\u00a0', '\u180e', 'x'),
        fc.string({ maxLength: 12 }),
      )
      .map(([space, first, mark, rest]) => space.join('') + first + mark + rest),
  },
  {
    name: 'pre-filter php ini line (read by hand)',
    old: (t) => OLD.PHP_INI_LINE.test(t),
    now: iniLine,
    vocabulary: [OLD.PHP_INI_LINE],
    extra: WHITE_SPACE_AND_NEAR.concat(['engine', 'a_b', 'x1', 'X', '==', '-', '.']),
    shaped: fc
      .tuple(
        fc.array(fc.constantFrom(...WHITE_SPACE_AND_NEAR), { maxLength: 3 }),
        fc.stringMatching(/^[a-z_A-Z0-9.\u00e9]{0,8}$/),
        fc.array(fc.constantFrom(...WHITE_SPACE_AND_NEAR), { maxLength: 3 }),
        fc.constantFrom('=', '', '==', ' =', 'x=', '1'),
        fc.string({ maxLength: 12 }),
      )
      .map(
        ([space, name, gap, equals, rest]) => space.join('') + name + gap.join('') + equals + rest,
      ),
  },
  {
    name: 'pre-filter sql words',
    old: (t) => OLD.SQL_WORDS.test(t),
    now: any(SQL_WORDS),
    vocabulary: [OLD.SQL_WORDS],
  },
]

/** The words of a pattern's source, its punctuation, and separators that sit between them. */
function tokens(patterns: RegExp[], extra: string[] = []): string[] {
  const out = new Set<string>([' ', '  ', '\t', '\n', 'a', '0', '12345678', ...extra])
  for (const { source } of patterns) {
    const plain = source.replace(/\\[sSdDwWbB]/g, ' ')
    for (const word of plain.match(/[a-z0-9_]{2,}/g) ?? []) out.add(word)
    for (const char of plain.replace(/\\/g, '').match(/[^a-z0-9_\s]/g) ?? []) out.add(char)
  }
  return [...out]
}

const values: string[] = []
for (const test of loadCases()) for (const input of inputsOf(test)) values.push(input.value)
for (const sample of loadBenign()) values.push(sample.value)
const lowered = values.map((value) => value.toLowerCase())

/** Whether the oracle found something in `value`: a match, a call, a quote it dropped. */
function hit(pair: Pair, value: string): boolean {
  const found = pair.old(value)
  if (typeof found === 'string') return found !== value
  if (Array.isArray(found)) return found.length > 0
  return found === true
}

describe('each rewritten matcher agrees with the pattern it replaced', () => {
  it.each(PAIRS.map((pair) => [pair.name, pair] as const))(
    '%s, on every CRS input and benign value, lowercased',
    (_, pair) => {
      const wrong = lowered.filter(
        (value) => JSON.stringify(pair.old(value)) !== JSON.stringify(pair.now(value)),
      )
      expect(wrong).toEqual([])
    },
  )

  it.each(PAIRS.map((pair) => [pair.name, pair] as const))(
    '%s, on random values of its words and characters, and on corpus matches spliced with them',
    (_, pair) => {
      const parts = fc
        .array(fc.constantFrom(...tokens(pair.vocabulary, pair.extra)), { maxLength: 24 })
        .map((words) => words.join(''))
      // What the oracle finds in the corpus, cut and spliced: near-misses as well as matches.
      const found = lowered.filter((value) => hit(pair, value))
      const spliced = fc
        .tuple(fc.constantFrom(...found, 'x'), parts, fc.nat(), fc.nat(), fc.boolean())
        .map(([value, insert, at, to, cut]) => {
          const i = at % (value.length + 1)
          return cut
            ? value.slice(0, i) + value.slice(i + (to % 8))
            : value.slice(0, i) + insert + value.slice(i)
        })
      const text = fc.oneof(pair.shaped ?? parts, parts, spliced, fc.string({ maxLength: 60 }))
      let hits = 0
      let misses = 0
      fc.assert(
        fc.property(text, (value) => {
          if (hit(pair, value)) hits++
          else misses++
          expect(JSON.stringify(pair.now(value))).toBe(JSON.stringify(pair.old(value)))
        }),
        { numRuns: 3000 },
      )
      // The generator reached both sides of the oracle.
      expect(hits).toBeGreaterThan(30)
      expect(misses).toBeGreaterThan(30)
    },
  )
})
