import { describe, expect, it } from 'vitest'
import { ComponentRegistry, canonicalJSON, schemaName } from './naming'

describe('schemaName', () => {
  it.each([
    [{ type: 'object', properties: { name: {}, email: {} } }, 'NameAndEmail'],
    [
      { type: 'object', properties: { first_name: {}, 'last-name': {}, zipCode: {} } },
      'FirstNameAndLastNameAndZipCode',
    ],
    [
      { type: 'object', properties: { a: {}, b: {}, c: {}, d: {}, e: {}, f: {} } },
      'AAndBAndCAndDAnd2More',
    ],
    [{ type: 'object', properties: { ünï: {}, id: {} } }, 'NAndId'],
    [{ type: 'object', properties: { '€': {} } }, 'Property'],
    [{ type: 'object' }, 'Object'],
    [{ type: 'object', additionalProperties: { type: 'number' } }, 'NumberMap'],
    [{ type: 'array', items: { type: 'object', properties: { id: {} } } }, 'IdList'],
    [{ type: 'array', prefixItems: [{}, {}] }, 'Tuple'],
    [{ type: 'string' }, 'String'],
    [{ type: 'integer' }, 'Integer'],
    [{ type: ['string', 'null'] }, 'StringOrNull'],
    [{ type: 'string', enum: ['a'] }, 'StringEnum'],
    [{ type: 'number', const: 1 }, 'NumberConst'],
    [{ oneOf: [{ type: 'string' }, { type: 'number' }] }, 'StringOrNumber'],
    [{ anyOf: [{ type: 'object', properties: { id: {} } }, { type: 'null' }] }, 'NullableId'],
    [{ allOf: [{ properties: { a: {} } }, { properties: { b: {} } }] }, 'AAndB'],
    [{}, 'Any'],
    [{ title: 'User Profile!', type: 'object', properties: { id: {} } }, 'UserProfile'],
    [{ title: '***', type: 'string' }, 'String'],
  ])('names %j as %s', (schema, name) => {
    expect(schemaName(schema as never)).toBe(name)
    expect(schemaName(schema as never)).toMatch(/^[A-Za-z0-9._-]+$/)
  })
})

describe('canonicalJSON', () => {
  it('is the same for objects that differ only in key order', () => {
    expect(canonicalJSON({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: 2 } })).toBe(
      canonicalJSON({ a: { c: 2, d: [1, { x: 2, y: 1 }] }, b: 1 }),
    )
  })

  it('keeps array order significant', () => {
    expect(canonicalJSON({ enum: ['a', 'b'] })).not.toBe(canonicalJSON({ enum: ['b', 'a'] }))
  })
})

describe('ComponentRegistry', () => {
  const user = {
    type: 'object',
    properties: { name: { type: 'string' }, email: { type: 'string' } },
  } as const

  it('shares one component between structurally equal schemas', () => {
    const r = new ComponentRegistry()
    const a = r.ref(structuredClone(user) as never)
    const b = r.ref({
      properties: { email: { type: 'string' }, name: { type: 'string' } },
      type: 'object',
    })
    expect(a).toEqual({ $ref: '#/components/schemas/NameAndEmail' })
    expect(b).toEqual(a)
    expect(Object.keys(r.schemas)).toEqual(['NameAndEmail'])
  })

  it('gives a different schema with the same name a numbered suffix, never overwriting', () => {
    const r = new ComponentRegistry()
    r.ref(structuredClone(user) as never)
    const other = {
      type: 'object',
      properties: { name: { type: 'string' }, email: { type: 'number' } },
    }
    const third = {
      type: 'object',
      properties: { name: { type: 'number' }, email: { type: 'number' } },
    }
    expect(r.ref(other as never).$ref).toBe('#/components/schemas/NameAndEmail2')
    expect(r.ref(third as never).$ref).toBe('#/components/schemas/NameAndEmail3')
    expect(r.ref(structuredClone(other) as never).$ref).toBe('#/components/schemas/NameAndEmail2')
    expect(r.schemas.NameAndEmail).toEqual(user)
    expect(r.schemas.NameAndEmail2).toEqual(other)
  })

  it('skips a suffix that another schema already owns as its base name', () => {
    const r = new ComponentRegistry()
    r.ref({ title: 'Thing2', type: 'string' })
    r.ref({ title: 'Thing', type: 'string' })
    r.ref({ title: 'Thing', type: 'number' })
    expect(Object.keys(r.schemas)).toEqual(['Thing2', 'Thing', 'Thing3'])
  })

  it('stores a copy, so later changes to the input do not leak into the document', () => {
    const r = new ComponentRegistry()
    const input = { type: 'object', properties: { id: { type: 'string' } } }
    r.ref(input as never)
    input.properties.id.type = 'number'
    expect(r.schemas.Id).toEqual({ type: 'object', properties: { id: { type: 'string' } } })
  })

  it('stores a title "__proto__" as a component, not a prototype', () => {
    const r = new ComponentRegistry()
    r.ref({ title: '__proto__', type: 'string' })
    expect(Object.keys(r.schemas)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(r.schemas)).toBe(Object.prototype)
  })
})
