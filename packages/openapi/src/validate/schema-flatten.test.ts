import { describe, expect, it } from 'vitest'
import type { OpenAPISchema } from '../schema/types'
import { objectView } from './object-view'
import { Choice, expand, FlatSchemas, unresolvedOf } from './schema-flatten'

const cat: OpenAPISchema = {
  type: 'object',
  properties: { kind: { const: 'cat' }, lives: { type: 'integer' } },
}
const dog: OpenAPISchema = {
  type: 'object',
  properties: { kind: { enum: ['dog', 'puppy'] }, bark: { type: 'string' } },
}

describe('FlatSchemas', () => {
  it('resolves local $refs (escaped names included) and expands allOf with its own keywords', () => {
    const root: OpenAPISchema = {
      $defs: { 'a/b': { type: 'object', properties: { id: { type: 'string' } } } },
      allOf: [{ $ref: '#/$defs/a~1b' }],
      properties: { name: { type: 'string' } },
    }
    const flat = new FlatSchemas(root).flatten(root)
    expect(flat).toHaveLength(2)
    const view = objectView(expand(flat, () => undefined).schemas)
    expect([...(view?.keys.keys() ?? [])]).toEqual(['id', 'name'])
    expect(view?.open).toBe(false)
  })

  it('marks a $ref that does not resolve, rather than dropping it', () => {
    const root: OpenAPISchema = { $ref: '#/$defs/missing' }
    const [entry] = new FlatSchemas(root).flatten(root)
    expect(unresolvedOf(entry as OpenAPISchema)).toBe('#/$defs/missing')
  })

  it('tells alternatives apart by a property every object alternative tags with const/enum', () => {
    const root: OpenAPISchema = { oneOf: [cat, dog, { type: 'null' }] }
    const [choice] = new FlatSchemas(root).flatten(root)
    expect(choice).toBeInstanceOf(Choice)
    const c = choice as Choice
    expect(c.property).toBe('kind')
    expect(c.select({ kind: 'cat' })).toEqual([0])
    expect(c.select({ kind: 'puppy' })).toEqual([1])
    expect(c.select({ kind: 'cow' })).toBeUndefined()
  })

  it('uses a discriminator and its mapping, by $ref and by component name', () => {
    const root: OpenAPISchema = {
      $defs: { Cat: cat, Dog: { type: 'object', properties: { bark: { type: 'string' } } } },
      oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }],
      discriminator: { propertyName: 'pet', mapping: { woof: '#/$defs/Dog' } },
    }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect(choice?.property).toBe('pet')
    expect(choice?.select({ pet: 'woof' })).toEqual([1])
    expect(choice?.select({ pet: 'Dog' })).toEqual([1])
    expect(choice?.select({ pet: 'Cat' })).toEqual([0])
  })

  it('keeps untagged alternatives as a plain union: every alternative applies', () => {
    const a: OpenAPISchema = { type: 'object', properties: { a: { type: 'string' } } }
    const b: OpenAPISchema = { type: 'object', properties: { b: { type: 'string' } } }
    const root: OpenAPISchema = { anyOf: [a, b] }
    expect(new FlatSchemas(root).flatten(root)).toEqual([a, b])
  })
})
