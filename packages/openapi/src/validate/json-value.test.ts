// jsonValue: a value as JSON.stringify would send it, own `__proto__` keys kept as data (never a
// prototype), plain objects read as they are, everything else copied.
import { describe, expect, it } from 'vitest'
import { copyArray, isPlainObject, jsonValue } from './json-value'

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
    // An ordinary data property, as JSON.parse makes one: a validator that edits the value
    // (defaults, coercion) can still write it.
    const parsed = JSON.parse('{"__proto__":{"admin":true}}')
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')).toEqual(
      Object.getOwnPropertyDescriptor(parsed, '__proto__'),
    )
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

  it('calls a toJSON at the top with the empty key, as JSON.stringify does', () => {
    const keyed = { toJSON: (k: string) => `key:${k}` }
    expect(jsonValue(keyed)).toBe('key:')
    expect(jsonValue(keyed)).toBe(JSON.parse(JSON.stringify(keyed)))
  })

  it('returns null, primitives and a toJSON that answers null or a primitive as they are', () => {
    expect(jsonValue(null)).toBeNull()
    expect(jsonValue('s')).toBe('s')
    expect(jsonValue(undefined)).toBeUndefined()
    expect(jsonValue({ toJSON: () => null })).toBeNull()
    expect(jsonValue({ toJSON: () => 7 })).toBe(7)
    expect(jsonValue({ a: { toJSON: () => null } })).toEqual({ a: null })
  })

  it('sends a boxed primitive as the primitive, at the top and inside arrays', () => {
    expect(jsonValue(new Number(4))).toBe(4)
    expect(jsonValue(new String('t'))).toBe('t')
    expect(jsonValue(new Boolean(false))).toBe(false)
    expect(jsonValue([new Boolean(true), 1])).toEqual([true, 1])
  })

  it('copies an array only where an element changes, to its exact length', () => {
    const plain = [{ a: 1 }, [2], 'x', null]
    expect(jsonValue(plain)).toBe(plain)
    const dated = [1, new Date(0), { k: new Box(2) }]
    const copy = jsonValue(dated) as unknown[]
    expect(copy).not.toBe(dated)
    expect(copy).toHaveLength(3)
    expect(copy).toStrictEqual([1, '1970-01-01T00:00:00.000Z', { k: { inner: 2 } }])
    expect(dated[1]).toBeInstanceOf(Date)
  })

  it('copies a plain object only where a value changes, never mutating it', () => {
    const at = new Date(0)
    const plain = { n: 1, at, deep: { box: new Box('x') } }
    const copy = jsonValue(plain) as Record<string, unknown>
    expect(copy).toStrictEqual({
      n: 1,
      at: '1970-01-01T00:00:00.000Z',
      deep: { box: { inner: 'x' } },
    })
    expect(plain.at).toBe(at)
    expect(plain.deep.box).toBeInstanceOf(Box)
    const untouched = { s: 'x', list: [1] }
    expect(jsonValue({ ok: untouched }) as { ok: unknown }).toEqual({ ok: untouched })
    expect((jsonValue({ ok: untouched }) as { ok: unknown }).ok).toBe(untouched)
  })

  it('reads only own enumerable properties of a class instance, as JSON.stringify does', () => {
    const proto = { inherited: 'secret' }
    const derived = Object.assign(Object.create(proto), { own: 1 })
    expect(jsonValue(derived)).toStrictEqual({ own: 1 })
    expect(jsonValue([derived])).toStrictEqual([{ own: 1 }])
  })

  it('applies a BigInt toJSON where one is installed (a polyfill), else leaves the bigint', () => {
    expect(jsonValue({ n: 1n })).toEqual({ n: 1n })
    const big = BigInt.prototype as unknown as { toJSON?: () => string }
    big.toJSON = function (this: bigint) {
      return this.toString()
    }
    try {
      expect(jsonValue(2n)).toBe('2')
      expect(jsonValue({ n: 3n, list: [4n] })).toStrictEqual({ n: '3', list: ['4'] })
    } finally {
      delete big.toJSON
    }
  })

  it('copies an array hole as undefined (sent as null), to the same length', () => {
    const holed = copyArray(Object.assign(new Array(3), { 0: 1 }))
    expect(holed).toHaveLength(3)
    expect(1 in holed).toBe(true)
    expect(holed).toStrictEqual([1, undefined, undefined])
  })
})
