// jsonValue: a value as JSON.stringify would send it, own `__proto__` keys kept as data (never a
// prototype), plain objects read as they are, everything else copied.
import { describe, expect, it } from 'vitest'
import { isPlainObject, jsonValue } from './json-value'

class Box {
  constructor(readonly inner: unknown) {}
}

describe('jsonValue', () => {
  it('keeps an own "__proto__" key of a copied object as data, never as its prototype', () => {
    const hostile = new Box(1) as Box & Record<string, unknown>
    Object.defineProperty(hostile, '__proto__', {
      value: { admin: true },
      enumerable: true,
      configurable: true,
      writable: true,
    })
    const copy = jsonValue(hostile) as Record<string, unknown>
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.hasOwn(copy, '__proto__')).toBe(true)
    expect(copy.admin).toBeUndefined()
    expect(JSON.stringify(copy)).toBe('{"inner":1,"__proto__":{"admin":true}}')
    expect(JSON.stringify(copy)).toBe(JSON.stringify(hostile))
  })

  it('reads plain objects, null-prototype ones included, as they are, and copies the rest', () => {
    const bare = Object.assign(Object.create(null), { a: 1 })
    expect(isPlainObject(bare)).toBe(true)
    expect(isPlainObject({})).toBe(true)
    expect(isPlainObject(new Box(1))).toBe(false)
    expect(jsonValue(bare)).toBe(bare)
    const plain = { a: [1, 'x', null, { b: true }] }
    expect(jsonValue(plain)).toBe(plain)
    expect(jsonValue(new Box(2))).toEqual({ inner: 2 })
  })

  it.each<[string, unknown]>([
    ['a Date inside an array with a hole', Object.assign(new Array(3), { 0: new Date(0), 2: 1 })],
    ['a Date among primitives', { n: 1, s: 's', b: false, z: null, at: new Date(0) }],
    ['a class inside a plain object', { box: new Box({ deep: new Box(3) }), k: 1 }],
    ['a boxed number and string', { n: new Number(4), s: new String('t') }],
    ['a toJSON reading its key', { when: { toJSON: (k: string) => `key:${k}` } }],
    ['an array of instances', [new Box(1), new Box([new Date(1)])]],
  ])('serialises %s as JSON.stringify does', (_, value) => {
    expect(JSON.stringify(jsonValue(value))).toBe(JSON.stringify(value))
  })
})
