import { describe, expect, it } from 'vitest'
import { ATTACK_CATEGORIES, detect, type InputKind } from './detect'
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
