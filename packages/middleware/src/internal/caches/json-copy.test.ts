import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { copyJson, copyStoredJson, isFlatJson } from './json-copy'

/** Every object and array reachable from `value`. */
function containers(value: unknown, out: object[] = []): object[] {
  if (typeof value === 'object' && value !== null) {
    out.push(value)
    for (const item of Object.values(value)) containers(item, out)
  }
  return out
}

describe('copyJson', () => {
  it('gives what JSON.parse of the same text gives, sharing no object with the original', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (generated) => {
        const text = JSON.stringify(generated)
        const parsed = JSON.parse(text)
        const copy = copyJson(parsed)
        expect(copy).toStrictEqual(JSON.parse(text))
        // Same keys in the same order, all the way down (toStrictEqual does not look at order).
        expect(JSON.stringify(copy)).toBe(text)
        const originals = new Set(containers(parsed))
        for (const inner of containers(copy)) expect(originals.has(inner)).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps an own __proto__ key an own key, as JSON.parse does, and never sets the prototype', () => {
    const text = '{"__proto__":{"admin":true},"a":[{"__proto__":null}],"constructor":1}'
    const copy = copyJson(JSON.parse(text)) as Record<string, unknown>
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.hasOwn(copy, '__proto__')).toBe(true)
    expect((copy as { admin?: unknown }).admin).toBeUndefined()
    expect(Object.keys(copy)).toEqual(['__proto__', 'a', 'constructor'])
    expect(JSON.stringify(copy)).toBe(text)
    const inner = (copy.a as Record<string, unknown>[])[0] as Record<string, unknown>
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype)
    expect(Object.hasOwn(inner, '__proto__')).toBe(true)
  })

  it('changes to a copy leave the original and later copies alone', () => {
    const original = JSON.parse('{"roles":["reader"],"prefs":{"theme":"dark"},"n":-0}')
    const first = copyJson(original)
    first.roles.push('admin')
    first.prefs.theme = 'light'
    expect(copyJson(original)).toEqual({ roles: ['reader'], prefs: { theme: 'dark' }, n: -0 })
    expect(Object.is(copyJson(original).n, -0)).toBe(true)
  })
})

describe('copyStoredJson', () => {
  it('copies what isFlatJson calls flat by one spread, with the answers of copyJson', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (generated) => {
        const text = JSON.stringify(generated)
        const parsed = JSON.parse(text)
        const flat = isFlatJson(parsed)
        const copy = copyStoredJson(parsed, flat)
        expect(copy).toStrictEqual(JSON.parse(text))
        expect(JSON.stringify(copy)).toBe(text)
        const originals = new Set(containers(parsed))
        for (const inner of containers(copy)) expect(originals.has(inner)).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })

  it('calls flat only an object with no object or array inside', () => {
    expect(isFlatJson(JSON.parse('{"sub":"u","exp":1,"n":null,"b":true}'))).toBe(true)
    expect(isFlatJson(JSON.parse('{}'))).toBe(true)
    expect(isFlatJson(JSON.parse('{"a":{"b":1}}'))).toBe(false)
    expect(isFlatJson(JSON.parse('{"a":[]}'))).toBe(false)
    expect(isFlatJson(JSON.parse('[1,2]'))).toBe(false)
    expect(isFlatJson(null)).toBe(false)
    expect(isFlatJson('a')).toBe(false)
  })

  it('keeps an own __proto__ key an own key on the spread path too', () => {
    const text = '{"__proto__":1,"constructor":2,"sub":"u"}'
    const parsed = JSON.parse(text)
    expect(isFlatJson(parsed)).toBe(true)
    const copy = copyStoredJson(parsed, true) as Record<string, unknown>
    expect(copy).not.toBe(parsed)
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.hasOwn(copy, '__proto__')).toBe(true)
    expect(Object.keys(copy)).toEqual(['__proto__', 'constructor', 'sub'])
    expect(JSON.stringify(copy)).toBe(text)
  })
})
