// objectView: what the schemas that apply to an object value declare about its keys, merged.
// Whether the view is closed decides whether the response check removes an undeclared key.
import { describe, expect, it } from 'vitest'
import type { OpenAPISchema } from '../schema/types'
import { objectView } from './object-view'
import { FlatSchemas } from './schema-flatten'

const Id: OpenAPISchema = { type: 'string' }
const closed: OpenAPISchema = { type: 'object', properties: { id: Id } }

describe('objectView', () => {
  it('has no view when no schema admits an object', () => {
    expect(objectView([])).toBeUndefined()
    expect(objectView([{ type: 'string' }, { type: ['integer', 'null'] }])).toBeUndefined()
  })

  it('leaves out a schema that admits no object: a string member does not open the view', () => {
    const view = objectView([{ type: 'string' }, closed, { type: ['array', 'null'] }])
    expect(view?.open).toBe(false)
    expect([...(view?.keys.keys() ?? [])]).toEqual(['id'])
  })

  it('leaves out an unresolved $ref (it throws before a view is read) rather than opening', () => {
    const root: OpenAPISchema = { $ref: '#/$defs/missing' }
    const [mark] = new FlatSchemas(root).flatten(root) as OpenAPISchema[]
    expect(objectView([mark as OpenAPISchema])).toBeUndefined()
    expect(objectView([mark as OpenAPISchema, closed])?.open).toBe(false)
  })

  it('merges the declarations of a key across schemas, in order', () => {
    const a: OpenAPISchema = { type: 'string', minLength: 1 }
    const b: OpenAPISchema = { type: 'string', maxLength: 9 }
    const view = objectView([
      { type: 'object', properties: { id: a } },
      { type: 'object', properties: { id: b, name: Id } },
    ])
    expect(view?.keys.get('id')).toEqual([a, b])
    expect(view?.keys.get('name')).toEqual([Id])
    expect(view?.open).toBe(false)
  })

  it.each<[string, OpenAPISchema]>([
    ['properties', { type: 'object', properties: {} }],
    ['patternProperties', { type: 'object', patternProperties: { '^x-': Id } }],
    ['additionalProperties: false', { type: 'object', additionalProperties: false }],
    ['properties and additionalProperties: false', { ...closed, additionalProperties: false }],
  ])('is closed for a schema that declares keys by %s', (_, schema) => {
    expect(objectView([schema])).toMatchObject({ open: false, extra: [] })
  })

  it.each<[string, OpenAPISchema]>([
    ['an object schema that declares nothing', { type: 'object' }],
    ['a schema without a type', { required: ['id'] }],
    ['additionalProperties: true', { ...closed, additionalProperties: true }],
    [
      'patternProperties and additionalProperties: true',
      {
        type: 'object',
        patternProperties: { '^x-': Id },
        additionalProperties: true,
      },
    ],
  ])('is open for %s', (_, schema) => {
    const view = objectView([closed, schema])
    expect(view?.open).toBe(true)
    expect(view?.extra).toEqual([])
  })

  it('is open with the schema of extra keys for additionalProperties: <schema>', () => {
    const view = objectView([{ ...closed, additionalProperties: Id }])
    expect(view).toMatchObject({ open: true, extra: [Id] })
  })

  it('compiles patterns with the u flag, as JSON Schema reads them', () => {
    const view = objectView([{ type: 'object', patternProperties: { '^\\p{Lu}+$': Id } }])
    const [pattern] = view?.patterns ?? []
    expect(pattern?.schema).toBe(Id)
    expect(pattern?.re.test('ÄB')).toBe(true)
    expect(pattern?.re.test('p{Lu}')).toBe(false)
    expect(view?.open).toBe(false)
  })

  it('opens the view for a pattern it cannot compile, rather than removing the keys it names', () => {
    // `\a` is a valid escape without the u flag, and an error with it.
    for (const source of ['(', '^\\a$']) {
      const view = objectView([
        { type: 'object', properties: { id: Id }, patternProperties: { [source]: Id } },
      ])
      expect(view?.open, source).toBe(true)
      expect(view?.patterns, source).toEqual([])
    }
  })
})
