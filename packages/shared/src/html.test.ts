import { describe, expect, it } from 'vitest'
import { escapeHtml, jsonForScript } from './html'

describe('escapeHtml', () => {
  it.each([
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
    ['"', '&quot;'],
    ["'", '&#39;'],
    ['<img src=x onerror="alert(1)">', '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'],
    ["' onmouseover='x", '&#39; onmouseover=&#39;x'],
    ['&amp;', '&amp;amp;'],
    ['a < b && c > d', 'a &lt; b &amp;&amp; c &gt; d'],
  ])('encodes %j', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected)
  })

  it('returns text without special characters unchanged', () => {
    const plain = 'Hello, world: 100% safe / ünïcödé 🙂'
    expect(escapeHtml(plain)).toBe(plain)
  })

  it('gives the same answer on repeated calls (no stale regex state)', () => {
    for (let i = 0; i < 3; i++) {
      expect(escapeHtml('<b>')).toBe('&lt;b&gt;')
      expect(escapeHtml('plain')).toBe('plain')
      expect(escapeHtml('x<')).toBe('x&lt;')
    }
  })

  it('handles the empty string', () => {
    expect(escapeHtml('')).toBe('')
  })
})

describe('jsonForScript', () => {
  it('cannot close the script element', () => {
    const out = jsonForScript({ title: '</script><script>alert(1)</script>' })
    expect(out).not.toMatch(/<\/script/i)
    expect(out).not.toContain('<')
    expect(out).not.toContain('>')
  })

  it('cannot open an HTML comment or CDATA section', () => {
    const out = jsonForScript(['<!--', ']]>', '<![CDATA['])
    expect(out).not.toContain('<!')
    expect(out).not.toContain(']]>')
  })

  it('escapes &, U+2028 and U+2029', () => {
    const out = jsonForScript('a&b\u2028c\u2029d')
    expect(out).toBe('"a\\u0026b\\u2028c\\u2029d"')
  })

  it.each([
    { title: '</script>', n: 1, list: ['<', '>', '&'], nested: { ok: true, none: null } },
    'line\u2028sep\u2029',
    ['emoji 🙂', 'quote "\'', 'backslash \\'],
    42,
    null,
  ])('round-trips %j through JSON.parse', (value) => {
    expect(JSON.parse(jsonForScript(value))).toEqual(value)
  })

  it('evaluates to the same value as JavaScript', () => {
    const value = { html: '</script>&\u2028' }
    const evaluate = new Function(`return (${jsonForScript(value)})`)
    expect(evaluate()).toEqual(value)
  })
})

describe('jsonForScript with values JSON cannot represent', () => {
  it.each([undefined, () => 1, Symbol('s')])('writes null for %s instead of throwing', (value) => {
    expect(jsonForScript(value)).toBe('null')
  })
})
