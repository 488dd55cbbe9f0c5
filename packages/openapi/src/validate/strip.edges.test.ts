// Edges of the stripping rule that the mutation run (pnpm mutate --folder=response,
// bench/MUTATION.md) found no test pinning: JSON pointers of odd keys, class instances copied,
// identity kept when nothing is removed, tuples (prefixItems), patternProperties and
// additionalProperties schemas, nested arrays.
import { describe, expect, it } from 'vitest'
import type { OpenAPISchema } from '../schema/types'
import { type Removed, stripperFor, UnresolvedSchemaError } from './strip'

const Id: OpenAPISchema = {
  type: 'object',
  properties: { id: { type: 'string' } },
}

function strip(schema: OpenAPISchema, value: unknown) {
  const removed: Removed = []
  const out = stripperFor(schema)(value, removed)
  return { out, removed }
}

describe('stripping, at its edges', () => {
  it('escapes ~ and / in the JSON pointers of what it removed (RFC 6901)', () => {
    const { out, removed } = strip(Id, { id: '1', 'a/b': 1, 'm~n': 2, '~/': 3 })
    expect(out).toEqual({ id: '1' })
    expect(removed).toEqual(['/a~1b', '/m~0n', '/~0~1'])
  })

  it('gives nested pointers through objects and arrays', () => {
    const schema: OpenAPISchema = {
      type: 'object',
      properties: { list: { type: 'array', items: Id }, one: Id },
    }
    const { out, removed } = strip(schema, {
      list: [{ id: 'a' }, { id: 'b', secret: 1 }],
      one: { id: 'c', token: 't' },
    })
    expect(out).toEqual({ list: [{ id: 'a' }, { id: 'b' }], one: { id: 'c' } })
    expect(removed).toEqual(['/list/1/secret', '/one/token'])
  })

  it('returns a plain body with nothing undeclared as the same object, and never mutates', () => {
    const schema: OpenAPISchema = {
      type: 'object',
      properties: { id: { type: 'string' }, inner: Id, list: { type: 'array', items: Id } },
    }
    const clean = { id: '1', inner: { id: '2' }, list: [{ id: '3' }, null, 4] }
    expect(stripperFor(schema)(clean)).toBe(clean)
    const dirty = { id: '1', inner: { id: '2', x: 1 }, list: [{ id: '3' }, { id: '4', y: 2 }] }
    const before = structuredClone(dirty)
    const out = stripperFor(schema)(dirty) as typeof dirty
    expect(dirty).toEqual(before)
    expect(out).toEqual({ id: '1', inner: { id: '2' }, list: [{ id: '3' }, { id: '4' }] })
    // Only what changed is copied: the untouched element is the same object.
    expect(out.list[0]).toBe(dirty.list[0])
    expect(out.list).not.toBe(dirty.list)
  })

  it('reads a class instance into a plain copy of its declared own fields, with pointers', () => {
    class Row {
      id = '1'
      secret = 's'
      nested = { id: '2', hidden: true }
    }
    const schema: OpenAPISchema = {
      type: 'object',
      properties: { id: { type: 'string' }, nested: Id },
    }
    const row = new Row()
    const { out, removed } = strip(schema, row)
    expect(out).toEqual({ id: '1', nested: { id: '2' } })
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(removed).toEqual(['/secret', '/nested/hidden'])
    expect(row.secret).toBe('s')
    expect(row.nested.hidden).toBe(true)
  })

  it('strips each tuple position by its own schema, and the rest by items', () => {
    const Name: OpenAPISchema = { type: 'object', properties: { name: { type: 'string' } } }
    const schema: OpenAPISchema = { type: 'array', prefixItems: [Id, Name], items: Id }
    const { out, removed } = strip(schema, [
      { id: '1', name: 'x' },
      { id: '2', name: 'y' },
      { id: '3', name: 'z' },
      { id: '4', name: 'w' },
    ])
    expect(out).toEqual([{ id: '1' }, { name: 'y' }, { id: '3' }, { id: '4' }])
    expect(removed).toEqual(['/0/name', '/1/id', '/2/name', '/3/name'])
  })

  it('allOf of a tuple and a plain array: each position by its own pair of schemas', () => {
    // Position 0 is Id (tuple) and Id (plain); from position 1 on, Name (the tuple's items) and
    // Id: a node for position 0 must never be reused past the tuple's prefix.
    const Name: OpenAPISchema = { type: 'object', properties: { name: { type: 'string' } } }
    const schema: OpenAPISchema = {
      allOf: [
        { type: 'array', prefixItems: [Id], items: Name },
        { type: 'array', items: Id },
      ],
    }
    const { out, removed } = strip(schema, [
      { id: '1', name: 'a' },
      { id: '2', name: 'b' },
      { id: '3', name: 'c', x: 1 },
    ])
    expect(out).toEqual([{ id: '1' }, { id: '2', name: 'b' }, { id: '3', name: 'c' }])
    expect(removed).toEqual(['/0/name', '/2/x'])
  })

  it('an array schema without items keeps any element; with items: true too', () => {
    const element = { id: '1', anything: true }
    expect(stripperFor({ type: 'array' })([element])).toEqual([element])
    expect(
      stripperFor({ type: 'array', items: true } as unknown as OpenAPISchema)([element]),
    ).toEqual([element])
  })

  it('strips keys matching patternProperties by the pattern, others removed', () => {
    const schema: OpenAPISchema = {
      type: 'object',
      properties: { id: { type: 'string' } },
      patternProperties: { '^x-': Id },
      additionalProperties: false,
    }
    const { out, removed } = strip(schema, {
      id: '1',
      'x-a': { id: 'a', drop: 1 },
      'x-b': { id: 'b', drop: 2 },
      other: 1,
    })
    expect(out).toEqual({ id: '1', 'x-a': { id: 'a' }, 'x-b': { id: 'b' } })
    expect(removed).toEqual(['/x-a/drop', '/x-b/drop', '/other'])
  })

  it('strips undeclared keys by an additionalProperties schema, and keeps them with true', () => {
    const schema: OpenAPISchema = {
      type: 'object',
      properties: { id: { type: 'string' } },
      additionalProperties: Id,
    }
    const { out, removed } = strip(schema, { id: '1', a: { id: 'a', drop: 1 }, b: 'text' })
    expect(out).toEqual({ id: '1', a: { id: 'a' }, b: 'text' })
    expect(removed).toEqual(['/a/drop'])
    const open = {
      type: 'object',
      properties: { id: { type: 'string' } },
      additionalProperties: true,
    }
    const value = { id: '1', a: { id: 'a', kept: 1 } }
    expect(stripperFor(open as OpenAPISchema)(value)).toBe(value)
  })

  it('a value under a key the schema does not describe is sent as JSON.stringify sends it', () => {
    const schema = { type: 'object', additionalProperties: true } as OpenAPISchema
    const when = new Date(0)
    expect(stripperFor(schema)({ when, n: 1 })).toEqual({ when: when.toJSON(), n: 1 })
  })
})

describe('stripping what JSON.stringify would send, at its edges', () => {
  it('a bigint with a toJSON (a common polyfill) is sent as its toJSON, and stripped', () => {
    const proto = BigInt.prototype as unknown as { toJSON?: unknown }
    const saved = Object.getOwnPropertyDescriptor(proto, 'toJSON')
    Object.defineProperty(proto, 'toJSON', {
      configurable: true,
      value(this: bigint) {
        return { id: String(this), secret: 'never sent' }
      },
    })
    try {
      const schema: OpenAPISchema = {
        type: 'object',
        properties: { one: Id, list: { type: 'array', items: Id } },
      }
      const { out, removed } = strip(schema, { one: 1n, list: [2n] })
      expect(out).toEqual({ one: { id: '1' }, list: [{ id: '2' }] })
      expect(removed).toEqual(['/one/secret', '/list/0/secret'])
      expect(stripperFor(Id)(3n)).toEqual({ id: '3' })
    } finally {
      if (saved) Object.defineProperty(proto, 'toJSON', saved)
      else delete proto.toJSON
    }
  })

  it('never sends an inherited property, even one the schema declares', () => {
    const schema: OpenAPISchema = {
      type: 'object',
      properties: { id: { type: 'string' }, inherited: { type: 'string' } },
    }
    const value = Object.assign(Object.create({ inherited: 'from the prototype' }), { id: '1' })
    expect(stripperFor(schema)(value)).toEqual({ id: '1' })
    expect(JSON.stringify(stripperFor(schema)(value))).toBe(JSON.stringify(value))
  })

  it('an object where the schema expects no object is sent as JSON.stringify would', () => {
    class Box {
      a = 1
      toString() {
        return 'box'
      }
    }
    const out = stripperFor({ type: 'string' })(new Box())
    expect(out).toEqual({ a: 1 })
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(stripperFor(Id)({ toJSON: () => null })).toBeNull()
  })

  it('only array schemas say what an array holds (an object part of allOf says nothing)', () => {
    const schema: OpenAPISchema = {
      allOf: [
        { type: 'array', items: Id },
        { type: 'object', properties: {} },
      ],
    }
    expect(stripperFor(schema)([{ id: '1', secret: 's' }])).toEqual([{ id: '1' }])
  })

  it('an element no schema describes is kept as it is, the same object', () => {
    const element = { id: '1', anything: true }
    const out = stripperFor({ type: 'array' })([element]) as unknown[]
    expect(out[0]).toBe(element)
  })

  it('an unresolvable $ref names itself and the pointer, empty when no pointers were asked', () => {
    const schema: OpenAPISchema = {
      type: 'object',
      properties: { list: { type: 'array', items: { $ref: '#/components/schemas/Gone' } } },
    }
    const value = { list: [{ id: '1' }] }
    const caught = (removed?: Removed) => {
      try {
        stripperFor(schema)(value, removed)
      } catch (error) {
        return error
      }
      return undefined
    }
    const withPointers = caught([])
    expect(withPointers).toBeInstanceOf(UnresolvedSchemaError)
    expect(withPointers).toMatchObject({
      name: 'UnresolvedSchemaError',
      pointer: '/list/0',
      ref: '#/components/schemas/Gone',
    })
    expect(caught()).toMatchObject({ pointer: '' })
    // The same for an object held directly under a key (not inside an array).
    const direct = { type: 'object', properties: { one: { $ref: '#/components/schemas/Gone' } } }
    expect(() => stripperFor(direct as OpenAPISchema)({ one: { id: '1' } })).toThrow(
      expect.objectContaining({ pointer: '' }),
    )
    expect(() => stripperFor(direct as OpenAPISchema)({ one: { id: '1' } }, [])).toThrow(
      expect.objectContaining({ pointer: '/one' }),
    )
  })

  it('strips by the alternative a discriminator selects, though another does not resolve', () => {
    const schema: OpenAPISchema = {
      $defs: { Cat: { type: 'object', properties: { pet: { type: 'string' }, lives: {} } } },
      oneOf: [{ $ref: '#/$defs/Gone' }, { $ref: '#/$defs/Cat' }],
      discriminator: { propertyName: 'pet' },
    }
    const { out, removed } = strip(schema, { pet: 'Cat', lives: 9, secret: 1 })
    expect(out).toEqual({ pet: 'Cat', lives: 9 })
    expect(removed).toEqual(['/secret'])
    // The unresolvable one, or none, selected: what is declared is unknown, so it throws.
    for (const pet of ['Gone', 'Dog'])
      expect(() => strip(schema, { pet, secret: 1 }), pet).toThrow(UnresolvedSchemaError)
  })
})
