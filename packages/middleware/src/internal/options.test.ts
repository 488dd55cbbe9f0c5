import { describe, expect, it } from 'vitest'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertNonNegativeInteger,
  assertOneOf,
  assertPositiveInteger,
  assertStringArray,
  formatValue,
  optionError,
} from './options'

describe('optionError', () => {
  it('builds a TypeError prefixed with the factory name', () => {
    const err = optionError('cors', 'bad thing')
    expect(err).toBeInstanceOf(TypeError)
    expect(err.message).toBe('cors: bad thing')
  })
})

describe('assertKnownKeys', () => {
  it('accepts undefined and an object of known keys', () => {
    expect(() => assertKnownKeys('f', undefined, ['a'])).not.toThrow()
    expect(() => assertKnownKeys('f', {}, ['a'])).not.toThrow()
    expect(() => assertKnownKeys('f', { a: 1 }, ['a', 'b'])).not.toThrow()
  })

  it('names the unknown key and lists the known ones', () => {
    expect(() => assertKnownKeys('rateLimit', { maxx: 1 }, ['max', 'windowMs'])).toThrow(
      new TypeError('rateLimit: unknown option "maxx" (known: max, windowMs)'),
    )
  })

  it('accepts a key whose value is undefined', () => {
    expect(() => assertKnownKeys('f', { a: undefined }, ['a'])).not.toThrow()
  })

  it.each([
    ['null', null],
    ['an array', ['a']],
    ['a string', 'a'],
    ['a number', 1],
    ['a function', () => {}],
  ])('rejects %s as options', (_, value) => {
    expect(() => assertKnownKeys('f', value as object, ['a'])).toThrow(
      new TypeError('f: options must be an object'),
    )
  })

  it('ignores inherited properties and does not treat prototype keys as known', () => {
    const proto = { inherited: 1 }
    expect(() => assertKnownKeys('f', Object.create(proto), ['a'])).not.toThrow()
    expect(() => assertKnownKeys('f', { constructor: 1 }, ['a'])).toThrow(
      /unknown option "constructor"/,
    )
    expect(() => assertKnownKeys('f', JSON.parse('{"__proto__": 1}'), ['a'])).toThrow(
      /unknown option "__proto__"/,
    )
  })
})

describe('number assertions', () => {
  it.each([1, 2, 60_000, Number.MAX_SAFE_INTEGER])('assertPositiveInteger accepts %d', (n) => {
    expect(assertPositiveInteger('f', 'n', n)).toBe(n)
  })

  it.each<[unknown, string]>([
    [0, '0'],
    [-1, '-1'],
    [1.5, '1.5'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    ['5', '"5"'],
    [null, 'null'],
    [undefined, 'undefined'],
    [5n, 'bigint'],
  ])('assertPositiveInteger rejects %s', (value, shown) => {
    expect(() => assertPositiveInteger('rateLimit', 'max', value)).toThrow(
      new TypeError(`rateLimit: "max" must be a positive integer, got ${shown}`),
    )
  })

  it('assertNonNegativeInteger accepts 0 and rejects -1 and fractions', () => {
    expect(assertNonNegativeInteger('f', 'n', 0)).toBe(0)
    expect(() => assertNonNegativeInteger('f', 'n', -1)).toThrow(
      'f: "n" must be a non-negative integer, got -1',
    )
    expect(() => assertNonNegativeInteger('f', 'n', 0.5)).toThrow(TypeError)
    expect(() => assertNonNegativeInteger('f', 'n', '0')).toThrow(TypeError)
  })
})

describe('assertNonEmptyString', () => {
  it('returns the string', () => {
    expect(assertNonEmptyString('f', 's', 'x')).toBe('x')
  })

  it.each<[unknown, string]>([
    ['', '""'],
    [1, '1'],
    [null, 'null'],
    [{}, 'object'],
    [['a'], 'an array'],
  ])('rejects %j', (value, shown) => {
    expect(() => assertNonEmptyString('csrf', 'cookieName', value)).toThrow(
      new TypeError(`csrf: "cookieName" must be a non-empty string, got ${shown}`),
    )
  })
})

describe('assertBoolean and assertFunction', () => {
  it('accepts true and false and rejects truthy look-alikes', () => {
    expect(assertBoolean('f', 'b', true)).toBe(true)
    expect(assertBoolean('f', 'b', false)).toBe(false)
    for (const v of ['true', 1, 0, null, undefined]) {
      expect(() => assertBoolean('f', 'b', v)).toThrow(/^f: "b" must be a boolean, got /)
    }
  })

  it('accepts functions, including async and class-less arrows', () => {
    const fn = async () => 1
    expect(assertFunction('f', 'g', fn)).toBe(fn)
    expect(() => assertFunction('f', 'g', 'fn')).toThrow('f: "g" must be a function, got "fn"')
    expect(() => assertFunction('f', 'g', {})).toThrow('f: "g" must be a function, got object')
  })
})

describe('assertStringArray', () => {
  it('returns the array, empty allowed by default', () => {
    expect(assertStringArray('f', 'a', ['x', 'y'])).toEqual(['x', 'y'])
    expect(assertStringArray('f', 'a', [])).toEqual([])
  })

  it('rejects an empty array when allowEmpty is false', () => {
    expect(() => assertStringArray('f', 'a', [], { allowEmpty: false })).toThrow(
      new TypeError('f: "a" must not be empty'),
    )
  })

  it.each<[string, unknown]>([
    ['a string', 'x'],
    ['an array with an empty string', ['x', '']],
    ['an array with a number', ['x', 1]],
    ['an array with null', [null]],
    ['an object', { 0: 'x', length: 1 }],
    // biome-ignore lint/suspicious/noSparseArray: a sparse array is the case under test
    ['a sparse array', [, 'x']],
    ['an array with undefined', [undefined, 'x']],
  ])('rejects %s', (_, value) => {
    expect(() => assertStringArray('ipGuard', 'list', value)).toThrow(
      new TypeError('ipGuard: "list" must be an array of non-empty strings'),
    )
  })
})

describe('assertOneOf', () => {
  it('returns an allowed value', () => {
    expect(assertOneOf('f', 'mode', 'allow', ['allow', 'deny'])).toBe('allow')
  })

  it('lists the allowed values and rejects a near miss', () => {
    expect(() => assertOneOf('ipGuard', 'mode', 'Allow', ['allow', 'deny'])).toThrow(
      new TypeError(`ipGuard: "mode" must be one of 'allow', 'deny', got "Allow"`),
    )
    expect(() => assertOneOf('f', 'mode', 1, ['a'])).toThrow(TypeError)
  })
})

describe('formatValue (value summary for messages)', () => {
  it.each<[unknown, string]>([
    [null, 'null'],
    [undefined, 'undefined'],
    [[1, 2], 'an array'],
    ['short', '"short"'],
    ['x'.repeat(40), `"${'x'.repeat(40)}"`],
    ['x'.repeat(41), 'a long string'],
    [42, '42'],
    [false, 'false'],
    [{ secret: 'hunter2' }, 'object'],
    [() => {}, 'function'],
    [Symbol('s'), 'symbol'],
  ])('formats %s as %s', (value, expected) => {
    expect(formatValue(value)).toBe(expected)
  })

  it('never echoes a long secret into an error message', () => {
    const secret = 's3cr3t-'.repeat(10)
    expect(() => assertPositiveInteger('f', 'n', secret)).toThrow('got a long string')
  })
})
