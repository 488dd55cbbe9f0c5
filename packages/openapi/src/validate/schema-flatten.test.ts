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

  it('returns a schema without composition as itself, and the same list each time', () => {
    const root: OpenAPISchema = { type: 'object', properties: { id: { type: 'string' } } }
    const flat = new FlatSchemas(root)
    const list = flat.flatten(root)
    expect(list).toHaveLength(1)
    expect(list[0]).toBe(root)
    expect(flat.flatten(root)).toBe(list)
  })

  it.each<[string, OpenAPISchema]>([
    ['$ref', { $ref: '#/$defs/Cat' }],
    ['allOf', { allOf: [cat] }],
    ['anyOf', { anyOf: [cat] }],
    ['oneOf', { oneOf: [cat] }],
  ])('expands a bare %s into what it stands for, and nothing of its own', (_, schema) => {
    const root: OpenAPISchema = { $defs: { Cat: cat }, ...schema }
    const flat = new FlatSchemas(root).flatten(schema)
    expect(flat).toHaveLength(1)
    expect(flat[0]).toBe(cat)
  })

  it.each([
    'type',
    'properties',
    'patternProperties',
    'additionalProperties',
    'items',
    'prefixItems',
    'required',
    'enum',
    'const',
  ])('keeps a composite’s own %s keyword as a schema that applies', (keyword) => {
    const schema: OpenAPISchema = { allOf: [cat], [keyword]: {}, description: 'd' }
    const flat = new FlatSchemas(schema).flatten(schema)
    expect(flat).toHaveLength(2)
    expect(flat[1]).toEqual({ [keyword]: {}, description: 'd' })
  })

  it('drops a composite’s annotations alone (they say nothing about the value)', () => {
    const schema: OpenAPISchema = { allOf: [cat], description: 'd', title: 't', example: {} }
    expect(new FlatSchemas(schema).flatten(schema)).toEqual([cat])
  })

  it('ignores a $ref that is not a string and an allOf that is not an array', () => {
    const schema = { $ref: 5, allOf: 'x', type: 'object' } as unknown as OpenAPISchema
    const flat = new FlatSchemas(schema).flatten(schema)
    expect(flat).toEqual([{ type: 'object' }])
    expect(unresolvedOf(flat[0] as OpenAPISchema)).toBeUndefined()
  })

  it('stops at a cycle of $ref and allOf, keeping every declaration on the way', () => {
    const root: OpenAPISchema = {
      $defs: {
        A: { allOf: [{ $ref: '#/$defs/B' }], properties: { a: { type: 'string' } } },
        B: { allOf: [{ $ref: '#/$defs/A' }], properties: { b: { type: 'string' } } },
      },
      allOf: [{ $ref: '#' }, { $ref: '#/$defs/A' }],
      properties: { top: { type: 'string' } },
    }
    const flat = new FlatSchemas(root).flatten(root)
    const view = objectView(expand(flat, () => undefined).schemas)
    expect([...(view?.keys.keys() ?? [])].sort()).toEqual(['a', 'b', 'top'])
    // Nothing but the declarations: the cut cycle adds no schema that would open the view.
    expect(flat).toHaveLength(3)
    expect(view?.open).toBe(false)
  })

  it('keeps a union with fewer than two object alternatives as a plain union', () => {
    const root: OpenAPISchema = { oneOf: [cat, { type: 'null' }, { type: 'string' }] }
    expect(new FlatSchemas(root).flatten(root)).toEqual([cat, { type: 'null' }, { type: 'string' }])
  })

  it('counts a nested tagged union as an object alternative', () => {
    const inner: OpenAPISchema = { oneOf: [cat, dog] }
    const root: OpenAPISchema = { anyOf: [inner, { type: 'null' }, { ...cat, title: 'again' }] }
    const [choice] = new FlatSchemas(root).flatten(root)
    expect(choice).toBeInstanceOf(Choice)
  })

  it('tags by the first property every object alternative restricts to values', () => {
    const a: OpenAPISchema = {
      type: 'object',
      properties: { x: { const: 1 }, y: { type: 'string' }, t: { enum: ['a'] } },
    }
    const b: OpenAPISchema = {
      type: 'object',
      properties: { x: { type: 'integer' }, y: { type: 'string' }, t: { const: 'b' } },
    }
    const root: OpenAPISchema = { anyOf: [a, b] }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect(choice?.property).toBe('t')
    expect(choice?.select({ t: 'b', x: 1 })).toEqual([1])
  })

  it('tags by false and null values, and by an enum or const behind a $ref or allOf', () => {
    const root: OpenAPISchema = {
      $defs: { No: { const: false } },
      oneOf: [
        { type: 'object', properties: { ok: { allOf: [{ enum: [true] }] } } },
        { type: 'object', properties: { ok: { $ref: '#/$defs/No' } } },
        { type: 'object', properties: { ok: { const: null } } },
      ],
    }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect(choice?.select({ ok: true })).toEqual([0])
    expect(choice?.select({ ok: false })).toEqual([1])
    expect(choice?.select({ ok: null })).toEqual([2])
    expect(choice?.select({})).toBeUndefined()
  })

  it('reads the first declaration of the tagging property within an alternative', () => {
    const a: OpenAPISchema = {
      allOf: [
        { type: 'object', properties: { kind: { const: 'a' } } },
        { type: 'object', properties: { kind: { type: 'string' } } },
      ],
    }
    const root: OpenAPISchema = { oneOf: [a, cat] }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect(choice?.property).toBe('kind')
    expect(choice?.select({ kind: 'a' })).toEqual([0])
  })

  it('selects every alternative that allows a value, and only the values named', () => {
    const a: OpenAPISchema = { type: 'object', properties: { t: { enum: ['x', 'y'] } } }
    const b: OpenAPISchema = { type: 'object', properties: { t: { const: 'y' }, b: {} } }
    const root: OpenAPISchema = { oneOf: [a, b] }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect(choice?.select({ t: 'x' })).toEqual([0])
    expect(choice?.select({ t: 'y' })).toEqual([0, 1])
    expect([...(choice?.byValue.keys() ?? [])]).toEqual(['x', 'y'])
  })

  it('tags by a property some alternatives do not declare only when all restrict it', () => {
    const a: OpenAPISchema = {
      type: 'object',
      properties: { extra: { const: 1 }, t: { const: 'a' } },
    }
    const b: OpenAPISchema = { type: 'object', properties: { t: { const: 'b' } } }
    const root: OpenAPISchema = { oneOf: [a, b] }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect(choice?.property).toBe('t')
    expect([...(choice?.byValue.keys() ?? [])]).toEqual(['a', 'b'])
  })

  it('selects by the own property only, never an inherited one', () => {
    const root: OpenAPISchema = { oneOf: [cat, dog] }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect(choice?.select(Object.create({ kind: 'cat' }))).toBeUndefined()
    expect(choice?.select(Object.assign(Object.create(null), { kind: 'dog' }))).toEqual([1])
  })

  it('adds an alternative that names no value to every value, once, and lists each once', () => {
    const free: OpenAPISchema = { type: 'object', properties: { note: { type: 'string' } } }
    const root: OpenAPISchema = {
      $defs: { Cat: cat },
      oneOf: [{ $ref: '#/$defs/Cat' }, dog, free],
      // 'cat' names the Cat alternative by its const and by the mapping: listed once.
      discriminator: { propertyName: 'kind', mapping: { cat: '#/$defs/Cat', other: '#/x' } },
    }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect(choice?.property).toBe('kind')
    expect(choice?.select({ kind: 'cat' })).toEqual([0, 2])
    expect(choice?.select({ kind: 'Cat' })).toEqual([0, 2])
    expect(choice?.select({ kind: 'dog' })).toEqual([1, 2])
    expect(choice?.select({ kind: 'puppy' })).toEqual([1, 2])
    expect(choice?.select({ kind: 'other' })).toBeUndefined()
    expect(choice?.select({ kind: 'cow' })).toBeUndefined()
    // The values that select something: the consts, the mapping's keys to a listed $ref, the
    // component's name; nothing else.
    expect([...(choice?.byValue.keys() ?? [])]).toEqual(['cat', 'Cat', 'dog', 'puppy'])
  })

  it('tells apart alternatives tagged by the mapping alone (no const in them)', () => {
    const root: OpenAPISchema = {
      $defs: { A: { type: 'object' }, B: { type: 'object' } },
      oneOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }],
      discriminator: { propertyName: 'k', mapping: { a: '#/$defs/A', z: '#/$defs/Z' } },
    }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect([...(choice?.byValue.entries() ?? [])]).toEqual([
      ['a', [0]],
      ['A', [0]],
      ['B', [1]],
    ])
  })

  it('names no component without a discriminator, and needs a string propertyName', () => {
    const root: OpenAPISchema = {
      $defs: { Cat: cat, Dog: dog },
      oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }],
    }
    const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
    expect(choice?.property).toBe('kind')
    expect(choice?.select({ kind: 'Cat' })).toBeUndefined()
    expect(choice?.select({ kind: 'cat' })).toEqual([0])
    expect([...(choice?.byValue.keys() ?? [])]).toEqual(['cat', 'dog', 'puppy'])
    const odd = { ...root, discriminator: { propertyName: 7, mapping: { Dog: '#/$defs/Cat' } } }
    const [tagged] = new FlatSchemas(odd as OpenAPISchema).flatten(odd as OpenAPISchema) as Choice[]
    expect(tagged?.property).toBe('kind')
    expect(tagged?.select({ kind: 'dog' })).toEqual([1])
  })

  it('keeps alternatives no property tells apart as a plain union, discriminator or not', () => {
    const a: OpenAPISchema = { type: 'object', properties: { k: { type: 'string' } } }
    const b: OpenAPISchema = { type: 'object', properties: { k: { const: 'b' } } }
    const root: OpenAPISchema = { oneOf: [a, b], discriminator: { propertyName: 7 } } as never
    expect(new FlatSchemas(root).flatten(root)).toEqual([a, b])
  })
})

describe('expand', () => {
  const root: OpenAPISchema = { oneOf: [cat, dog] }
  const [choice] = new FlatSchemas(root).flatten(root) as Choice[]
  const other = new FlatSchemas({ anyOf: [cat, dog] }).flatten({ anyOf: [cat, dog] })[0] as Choice

  it('replaces a choice by the alternatives picked, or all of them', () => {
    const plain: OpenAPISchema = { type: 'object' }
    expect(expand([plain, choice as Choice], () => [1]).schemas).toEqual([plain, dog])
    expect(expand([choice as Choice], () => undefined).schemas).toEqual([cat, dog])
    expect(expand([choice as Choice], () => [1, 0]).schemas).toEqual([dog, cat])
  })

  it('reads a choice listed twice once', () => {
    const once = expand([choice as Choice], () => [0])
    const twice = expand([choice as Choice, choice as Choice], () => [0])
    expect(twice).toEqual(once)
  })

  it('keys a selection so that different selections never share a key', () => {
    const c = choice as Choice
    const picks: ((x: Choice) => number[] | undefined)[] = [
      () => undefined,
      () => [0],
      () => [1],
      () => [0, 1],
      () => [],
      (x) => (x === c ? undefined : [0]),
      (x) => (x === c ? [0] : undefined),
    ]
    const keys = picks.map((pick) => expand([c, other], pick).key)
    expect(new Set(keys).size).toBe(picks.length)
    // Past ten alternatives too: [1, 0] is not [10].
    const many: OpenAPISchema = {
      oneOf: Array.from({ length: 11 }, (_, i) => ({
        type: 'object',
        properties: { t: { const: i } },
      })),
    }
    const [wide] = new FlatSchemas(many).flatten(many) as Choice[]
    expect(wide?.alternatives).toHaveLength(11)
    const one = expand([wide as Choice], () => [1, 0])
    const ten = expand([wide as Choice], () => [10])
    expect(one.key).not.toBe(ten.key)
    expect(expand([c, other], () => [0]).key).toBe(keys[1])
  })
})
