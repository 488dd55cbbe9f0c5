import { describe, expect, it } from 'vitest'
import { MAX_DEPTH, MAX_ENTRIES, MAX_NODES, redactFields, redactValue, secretNames } from './redact'

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
