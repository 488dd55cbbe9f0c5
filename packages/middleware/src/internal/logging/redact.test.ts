import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import {
  MAX_DEPTH,
  MAX_ENTRIES,
  MAX_NODES,
  redactFields,
  redactValue,
  SECRET_HEADERS,
  secretNames,
} from './redact'

const secrets = secretNames(['X-Custom-Secret'])
const copy = (value: unknown) => JSON.parse(JSON.stringify(redactValue(value, secrets)))

describe('redactValue', () => {
  it('knows the built-in names and the extra ones, in any case', () => {
    expect([...secrets]).toEqual([
      'authorization',
      'proxy-authorization',
      'cookie',
      'set-cookie',
      'x-api-key',
      'x-xsrf-token',
      'x-csrf-token',
      'x-custom-secret',
    ])
    expect(copy({ 'X-CUSTOM-SECRET': 's', 'x-custom': 'kept' })).toEqual({
      'X-CUSTOM-SECRET': '[redacted]',
      'x-custom': 'kept',
    })
  })

  it('redacts a secret name whatever its value is, without reading a getter', () => {
    let read = false
    const value = Object.defineProperty({}, 'Cookie', {
      enumerable: true,
      get() {
        read = true
        return 'sid=1'
      },
    })
    expect(copy({ a: value, b: { authorization: { nested: ['s'] } } })).toEqual({
      a: { Cookie: '[redacted]' },
      b: { authorization: '[redacted]' },
    })
    expect(read).toBe(false)
  })

  it('redacts the element after a secret name in any array, and only that one', () => {
    expect(copy(['cookie', 'cookie', 'authorization', 'x', 'accept', 'y'])).toEqual([
      'cookie',
      '[redacted]',
      '[redacted]',
      '[redacted]',
      'accept',
      'y',
    ])
  })

  it('takes a HAR-style { key, value } entry as well as { name, value }', () => {
    expect(
      copy([
        { key: 'Authorization', value: 's' },
        { key: 'Accept', value: '*/*' },
      ]),
    ).toEqual([
      { key: 'Authorization', value: '[redacted]' },
      { key: 'Accept', value: '*/*' },
    ])
  })

  it('applies toJSON as JSON.stringify does, and scrubs what it gives', () => {
    const when = new Date(0)
    expect(copy({ when, doc: { toJSON: () => ({ cookie: 's', id: 1 }) } })).toEqual({
      when: '1970-01-01T00:00:00.000Z',
      doc: { cookie: '[redacted]', id: 1 },
    })
  })

  it('writes Sets as arrays, bigints as text, functions not at all', () => {
    expect(copy({ set: new Set(['authorization', 's']), big: 2n ** 70n, fn: () => 1 })).toEqual({
      set: ['authorization', '[redacted]'],
      big: '1180591620717411303424',
    })
  })

  it(`cuts at depth ${MAX_DEPTH}, ${MAX_ENTRIES} entries and ${MAX_NODES} objects`, () => {
    let deep: unknown = 'leaf'
    for (let i = 0; i < MAX_DEPTH + 1; i++) deep = [deep]
    expect(JSON.stringify(copy(deep))).toBe(`${'['.repeat(MAX_DEPTH)}"[…]"${']'.repeat(MAX_DEPTH)}`)
    const map = new Map(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]))
    expect(Object.keys(copy(map))).toHaveLength(MAX_ENTRIES + 1)
    // A DAG that would be 100^3 objects written out: the node budget stops it.
    const leaf = { a: 1 }
    const mid = Array.from({ length: 100 }, () => leaf)
    const top = Array.from({ length: 100 }, () => mid)
    const text = JSON.stringify(copy([top, top]))
    expect(text.match(/\{"a":1\}/g)?.length).toBeLessThan(MAX_NODES)
    expect(text).toContain('[…]')
  })

  it('never throws: a Proxy whose every trap throws', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('get')
        },
        getPrototypeOf() {
          throw new Error('proto')
        },
        ownKeys() {
          throw new Error('keys')
        },
      },
    )
    expect(copy({ hostile })).toEqual({ hostile: '[unreadable]' })
    expect(JSON.parse(JSON.stringify(redactFields(hostile, secrets)))).toEqual({
      value: '[unreadable]',
    })
  })
})

describe('redactFields', () => {
  it('puts an Error under err and anything that is not an object under value', () => {
    expect(redactFields(new TypeError('bad'), secrets)).toMatchObject({
      err: { type: 'TypeError', message: 'bad' },
    })
    expect({ ...redactFields('text', secrets) }).toEqual({ value: 'text' })
    expect({ ...redactFields(['cookie', 's'], secrets) }).toEqual({
      value: ['cookie', '[redacted]'],
    })
    expect({ ...redactFields(undefined, secrets) }).toEqual({})
  })
})

/** How many objects deep `value` goes before a cut (`[…]`) or a leaf. */
function levels(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0
  const children = Object.values(value as object)
  return 1 + Math.max(0, ...children.map(levels))
}

/** `n` plain objects nested in one another. */
function nested(n: number): unknown {
  let value: unknown = 'leaf'
  for (let i = 0; i < n; i++) value = { k: value }
  return value
}

// Edges the mutation run (pnpm mutate --folder=redact, bench/MUTATION.md) showed untested.
describe('redactValue at its edges', () => {
  it('knows only the built-in names when given no extra ones', () => {
    expect([...secretNames()]).toEqual(SECRET_HEADERS)
  })

  it('keeps null and drops functions, at the top and inside', () => {
    const secretsOnly = secretNames()
    expect(redactValue(null, secretsOnly)).toBeNull()
    expect(redactValue(() => 'token', secretsOnly)).toBeUndefined()
    const out = redactValue({ a: null, f: () => 'token' }, secretsOnly) as Record<string, unknown>
    expect(out.a).toBeNull()
    expect(out.f).toBeUndefined()
  })

  it('says how many keys and entries it left out, under the key …', () => {
    const wide = Object.fromEntries(Array.from({ length: MAX_ENTRIES + 3 }, (_, i) => [`k${i}`, i]))
    const out = redactValue(wide, secrets) as Record<string, unknown>
    expect(out['…']).toBe('3 more keys left out')
    expect(Object.keys(out)).toHaveLength(MAX_ENTRIES + 1)
    const map = new Map(Array.from({ length: MAX_ENTRIES + 3 }, (_, i) => [`k${i}`, i]))
    expect((redactValue(map, secrets) as Record<string, unknown>)['…']).toBe(
      'more entries left out',
    )
  })

  it('stops reading an endless Set after one entry too many', () => {
    class Endless extends Set<number> {
      override *values(): SetIterator<number> {
        for (;;) yield 1
      }
    }
    const out = redactValue(new Endless(), secrets) as unknown[]
    expect(out).toHaveLength(MAX_ENTRIES + 1)
    expect(out.at(-1)).toBe('[…][+1]')
  })

  it('writes bytes by type and size, also when the constructor is gone', () => {
    const bytes = new Uint8Array(3)
    Object.defineProperty(bytes, 'constructor', { value: undefined })
    expect(redactValue(bytes, secrets)).toBe('[ArrayBuffer(3)]')
    expect(redactValue(new Uint16Array(2), secrets)).toBe('[Uint16Array(4)]')
  })

  it("calls toJSON with the key '' and copies an object whose toJSON returns itself", () => {
    expect(redactValue({ toJSON: (key: string) => ({ key }) }, secrets)).toEqual({ key: '' })
    const self = {
      a: 1,
      toJSON() {
        return this
      },
    }
    expect({ ...(redactValue(self, secrets) as object) }).toEqual({ a: 1, toJSON: undefined })
  })

  it('a toJSON that keeps answering fresh objects costs a few nodes, not the budget', () => {
    const fresh = (): object => ({ toJSON: fresh })
    const out = redactValue([fresh(), nested(3)], secrets) as unknown[]
    expect(out[0]).toBe('[…]')
    expect(out[1]).toEqual(nested(3))
  })

  it(`counts depth the same through Maps and errors (cut at ${MAX_DEPTH})`, () => {
    let map: unknown = 'leaf'
    for (let i = 0; i < MAX_DEPTH + 4; i++) map = new Map([['k', map]])
    expect(levels(redactValue(map, secrets))).toBe(MAX_DEPTH)
    const error = new Error('x')
    Object.assign(error, { name: nested(MAX_DEPTH + 4) })
    Object.defineProperty(error, 'message', { value: nested(MAX_DEPTH + 4) })
    Object.defineProperty(error, 'stack', { value: nested(MAX_DEPTH + 4) })
    const out = redactValue(error, secrets) as Record<string, unknown>
    expect(levels(out.type)).toBe(MAX_DEPTH - 1)
    expect(levels(out.message)).toBe(MAX_DEPTH - 1)
    expect(levels(out.stack)).toBe(MAX_DEPTH - 1)
  })

  it(`visits exactly ${MAX_NODES} objects`, () => {
    const value = Array.from({ length: 20 }, () => Array.from({ length: 100 }, () => ({})))
    let objects = 0
    const count = (v: unknown): void => {
      if (v === null || typeof v !== 'object') return
      objects++
      for (const child of Object.values(v)) count(child)
    }
    count(redactValue(value, secrets))
    expect(objects).toBe(MAX_NODES)
  })

  it('an error: type, message and stack first, no cause it does not have, an own type kept out', () => {
    const plain = redactValue(new Error('x'), secrets) as object
    expect(Object.keys(plain)).toEqual(['type', 'message', 'stack'])
    const typed = Object.assign(new Error('x'), { type: 'forged', extra: 1 })
    expect(redactValue(typed, secrets)).toMatchObject({ type: 'Error', extra: 1 })
    const caused = new Error('x', { cause: { authorization: 'Bearer t' } })
    expect(redactValue(caused, secrets)).toMatchObject({ cause: { authorization: '[redacted]' } })
  })

  it('an error from another realm is an error too, its secrets redacted', () => {
    const foreign = runInNewContext('Object.assign(new Error("x"), { headers: { cookie: "s" } })')
    expect(foreign instanceof Error).toBe(false)
    expect(redactFields(foreign, secrets)).toMatchObject({
      err: { type: 'Error', message: 'x', headers: { cookie: '[redacted]' } },
    })
    const tagged = Object.assign(() => 1, { [Symbol.toStringTag]: 'Error' })
    expect(Object.keys(redactFields(tagged, secrets))).toEqual([])
  })

  it('an array element that cannot be read is written as unreadable', () => {
    const hostile = new Proxy(['a', 'b'], {
      get(target, key) {
        if (key === '1') throw new Error('trap')
        return Reflect.get(target, key)
      },
    })
    expect(redactValue(hostile, secrets)).toEqual(['a', '[unreadable]'])
  })
})

describe('redactValue without a global Headers (an older or smaller runtime)', () => {
  it('still reads Maps', () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'Headers')
    Reflect.deleteProperty(globalThis, 'Headers')
    try {
      expect({ ...(redactValue(new Map([['cookie', 's']]), secrets) as object) }).toEqual({
        cookie: '[redacted]',
      })
    } finally {
      if (saved) Object.defineProperty(globalThis, 'Headers', saved)
    }
    expect(typeof Headers).toBe('function')
  })
})

describe('redactFields at its edges', () => {
  it('null goes under value, undefined gives an empty object', () => {
    expect({ ...redactFields(null, secrets) }).toEqual({ value: null })
    expect(Object.keys(redactFields(undefined, secrets))).toEqual([])
  })
})
