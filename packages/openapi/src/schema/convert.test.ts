// Over 300 lines: one conversion table run against zod 4, zod/mini, zod 3 and zod/v3, plus the
// other schema sources; splitting it would split the table.
import { describe, expect, it } from 'vitest'
import { z as z4 } from 'zod'
import * as zm from 'zod/mini'
import { z as z3from4 } from 'zod/v3'
import { z as z4sub } from 'zod/v4'
import { z as z3 } from 'zod3'
import { toOpenAPISchema } from './convert'

// SPEC "Schema conversion", zod 3 table: one row each, for the zod 3 package and for zod/v3.
describe.each([
  ['zod@3', z3],
  ['zod/v3', z3from4 as unknown as typeof z3],
])('zod 3 table (%s)', (_label, z) => {
  it.each([
    ['string', z.string(), { type: 'string' }],
    ['number', z.number(), { type: 'number' }],
    ['boolean', z.boolean(), { type: 'boolean' }],
    ['null', z.null(), { type: 'null' }],
    ['date', z.date(), { type: 'string', format: 'date-time' }],
    ['literal', z.literal('on'), { type: 'string', const: 'on' }],
    ['enum', z.enum(['a', 'b']), { type: 'string', enum: ['a', 'b'] }],
    [
      'object',
      z.object({ name: z.string(), age: z.number().optional() }),
      {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'number' } },
        required: ['name'],
      },
    ],
    ['array', z.array(z.string()), { type: 'array', items: { type: 'string' } }],
    ['optional', z.string().optional(), { type: 'string' }],
    ['nullable', z.string().nullable(), { anyOf: [{ type: 'string' }, { type: 'null' }] }],
    [
      'union',
      z.union([z.string(), z.number()]),
      { oneOf: [{ type: 'string' }, { type: 'number' }] },
    ],
    [
      'discriminated union',
      z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b') })]),
      {
        oneOf: [
          { type: 'object', properties: { k: { type: 'string', const: 'a' } }, required: ['k'] },
          { type: 'object', properties: { k: { type: 'string', const: 'b' } }, required: ['k'] },
        ],
      },
    ],
    [
      'record',
      z.record(z.string(), z.number()),
      { type: 'object', additionalProperties: { type: 'number' } },
    ],
    ['default', z.string().default('x'), { type: 'string', default: 'x' }],
  ])('converts %s', (_kind, schema, expected) => {
    expect(toOpenAPISchema(schema)).toEqual(expected)
  })

  it('carries descriptions, formats, lengths and bounds', () => {
    expect(toOpenAPISchema(z.string().email().min(3).max(50).describe('Work email'))).toEqual({
      type: 'string',
      format: 'email',
      minLength: 3,
      maxLength: 50,
      description: 'Work email',
    })
    expect(toOpenAPISchema(z.string().uuid())).toEqual({ type: 'string', format: 'uuid' })
    expect(toOpenAPISchema(z.string().url())).toEqual({ type: 'string', format: 'uri' })
    expect(toOpenAPISchema(z.number().int().gt(0).lte(100))).toEqual({
      type: 'integer',
      exclusiveMinimum: 0,
      maximum: 100,
    })
    expect(toOpenAPISchema(z.array(z.string()).min(1).max(5))).toEqual({
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      maxItems: 5,
    })
  })

  it('converts intersections, tuples, strict objects and native enums', () => {
    expect(
      toOpenAPISchema(z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() }))),
    ).toEqual({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] },
      ],
    })
    expect(toOpenAPISchema(z.tuple([z.string(), z.number()]))).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }],
      minItems: 2,
      maxItems: 2,
    })
    expect(toOpenAPISchema(z.object({ a: z.string() }).strict())).toMatchObject({
      additionalProperties: false,
    })
    enum Level {
      Low = 1,
      High = 2,
    }
    expect(toOpenAPISchema(z.nativeEnum(Level))).toEqual({ type: 'integer', enum: [1, 2] })
  })

  it('documents what a refined, transformed or piped schema accepts', () => {
    expect(toOpenAPISchema(z.string().refine((s) => s.length > 0))).toEqual({ type: 'string' })
    expect(toOpenAPISchema(z.string().transform(Number))).toEqual({ type: 'string' })
    expect(toOpenAPISchema(z.string().pipe(z.string().min(1)))).toEqual({ type: 'string' })
    expect(toOpenAPISchema(z.string().brand('Id'))).toEqual({ type: 'string' })
  })
})

// SPEC "Schema conversion", zod 4 table: one row each, for zod (4) and zod/v4.
describe.each([
  ['zod', z4],
  ['zod/v4', z4sub as unknown as typeof z4],
])('zod 4 table (%s)', (_label, z) => {
  it.each([
    [
      'string with minLength, maxLength, pattern',
      z
        .string()
        .min(1)
        .max(9)
        .regex(/^[a-z]+$/),
      { type: 'string', minLength: 1, maxLength: 9, pattern: '^[a-z]+$' },
    ],
    [
      'number with minimum, maximum',
      z.number().min(0).max(10),
      { type: 'number', minimum: 0, maximum: 10 },
    ],
    ['integer', z.int().min(1), { type: 'integer', minimum: 1 }],
    ['boolean', z.boolean(), { type: 'boolean' }],
    [
      'object',
      z.object({ id: z.string(), note: z.string().optional() }),
      {
        type: 'object',
        properties: { id: { type: 'string' }, note: { type: 'string' } },
        required: ['id'],
      },
    ],
    ['array', z.array(z.number()), { type: 'array', items: { type: 'number' } }],
    ['enum', z.enum(['x', 'y']), { type: 'string', enum: ['x', 'y'] }],
    [
      'union',
      z.union([z.string(), z.boolean()]),
      { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
    ],
    [
      'intersection',
      z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
        ],
      },
    ],
    [
      'record',
      z.record(z.string(), z.boolean()),
      { type: 'object', additionalProperties: { type: 'boolean' } },
    ],
    [
      'tuple',
      z.tuple([z.string(), z.number()]),
      {
        type: 'array',
        prefixItems: [{ type: 'string' }, { type: 'number' }],
        minItems: 2,
        maxItems: 2,
      },
    ],
    ['literal', z.literal('on'), { type: 'string', enum: ['on'] }],
  ])('converts %s', (_kind, schema, expected) => {
    expect(toOpenAPISchema(schema)).toEqual(expected)
  })

  it('carries descriptions, metadata, defaults and string formats', () => {
    expect(toOpenAPISchema(z.email().describe('Contact'))).toEqual({
      type: 'string',
      format: 'email',
      description: 'Contact',
    })
    expect(
      toOpenAPISchema(z.string().meta({ title: 'Slug', examples: ['a-b'], deprecated: true })),
    ).toEqual({
      type: 'string',
      title: 'Slug',
      examples: ['a-b'],
      deprecated: true,
    })
    expect(toOpenAPISchema(z.number().default(5))).toEqual({ type: 'number', default: 5 })
    expect(toOpenAPISchema(z.uuid())).toEqual({ type: 'string', format: 'uuid' })
    expect(toOpenAPISchema(z.url())).toEqual({ type: 'string', format: 'uri' })
    expect(toOpenAPISchema(z.iso.date())).toMatchObject({ type: 'string', format: 'date' })
    expect(toOpenAPISchema(z.iso.datetime())).toMatchObject({ type: 'string', format: 'date-time' })
    expect(toOpenAPISchema(z.number().gt(1).lt(2))).toEqual({
      type: 'number',
      exclusiveMinimum: 1,
      exclusiveMaximum: 2,
    })
  })

  it('marks optional and defaulted properties as not required', () => {
    const s = toOpenAPISchema(
      z.object({ a: z.string(), b: z.string().optional(), c: z.string().default('c') }),
    )
    expect(s.required).toEqual(['a'])
  })

  it('keeps strictness of objects and records', () => {
    expect(toOpenAPISchema(z.strictObject({ a: z.string() }))).toMatchObject({
      additionalProperties: false,
    })
    expect(toOpenAPISchema(z.looseObject({ a: z.string() }))).not.toHaveProperty(
      'additionalProperties',
    )
    expect(toOpenAPISchema(z.record(z.enum(['a', 'b']), z.number()))).toEqual({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    })
  })

  it('uses anyOf when union options overlap, oneOf when they exclude each other', () => {
    expect(toOpenAPISchema(z.union([z.string(), z.email()]))).toHaveProperty('anyOf')
    expect(toOpenAPISchema(z.union([z.literal('a'), z.literal('b')]))).toHaveProperty('oneOf')
    expect(toOpenAPISchema(z.union([z.int(), z.number()]))).toHaveProperty('anyOf')
  })

  it('documents a preprocessed or transformed input by what zod validates', () => {
    expect(toOpenAPISchema(z.string().transform((s) => s.length))).toEqual({ type: 'string' })
    expect(toOpenAPISchema(z.preprocess((v) => v, z.number()))).toEqual({ type: 'number' })
    expect(toOpenAPISchema(z.stringbool())).toEqual({ type: 'string' })
  })
})

describe('other schema sources', () => {
  it('converts zod/mini schemas, which share zod 4 definitions', () => {
    const s = zm.object({ a: zm.string().check(zm.minLength(2)), b: zm.optional(zm.email()) })
    expect(toOpenAPISchema(s)).toEqual({
      type: 'object',
      properties: { a: { type: 'string', minLength: 2 }, b: { type: 'string', format: 'email' } },
      required: ['a'],
    })
  })

  it('passes a raw JSON Schema through unchanged', () => {
    const raw = { type: 'object', properties: { x: { type: 'integer' } }, 'x-custom': true }
    expect(toOpenAPISchema(raw)).toBe(raw)
    expect(raw).toEqual({
      type: 'object',
      properties: { x: { type: 'integer' } },
      'x-custom': true,
    })
  })

  it('uses toJSONSchema() output without $schema', () => {
    const custom = {
      toJSONSchema: () => ({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'string',
        minLength: 2,
      }),
    }
    expect(toOpenAPISchema(custom)).toEqual({ type: 'string', minLength: 2 })
  })

  it('recognises zod 4 by _zod.def before its own toJSONSchema method', () => {
    const s = z4.string().min(2)
    expect(typeof (s as unknown as { toJSONSchema: unknown }).toJSONSchema).toBe('function')
    expect(toOpenAPISchema(s)).toEqual({ type: 'string', minLength: 2 })
  })

  it('rejects a toJSONSchema() that does not return an object', () => {
    expect(() => toOpenAPISchema({ toJSONSchema: () => 'nope' })).toThrow(
      /toJSONSchema\(\) did not return an object/,
    )
  })

  it.each([
    ['a string', 'string'],
    ['a number', 42],
    ['null', null],
  ])('rejects %s with a TypeError', (_label, value) => {
    expect(() => toOpenAPISchema(value)).toThrow(TypeError)
  })
})

describe('edge cases', () => {
  it('turns a recursive lazy schema into a $ref cycle instead of looping', () => {
    interface Node {
      name: string
      children: Node[]
    }
    const Node4: z4.ZodType<Node> = z4.object({
      name: z4.string(),
      children: z4.lazy(() => z4.array(Node4)),
    })
    expect(toOpenAPISchema(Node4)).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name', 'children'],
    })
    const Node3: z3.ZodType<Node> = z3.object({
      name: z3.string(),
      children: z3.lazy(() => z3.array(Node3)),
    })
    expect(toOpenAPISchema(Node3)).toMatchObject({
      properties: { children: { items: { $ref: '#' } } },
    })
    // Nested: the cycle goes through the root's $defs.
    expect(toOpenAPISchema(z4.object({ tree: Node4 }))).toEqual({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/NameAndChildren' } },
      required: ['tree'],
      $defs: {
        NameAndChildren: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/NameAndChildren' } },
          },
          required: ['name', 'children'],
        },
      },
    })
  })

  it('keeps a "__proto__" property as data, not as a prototype', () => {
    const s = toOpenAPISchema(z4.object({ ['__proto__']: z4.string() }))
    expect(Object.keys(s.properties ?? {})).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(s.properties)).toBe(Object.prototype)
  })

  it('leaves out a regex pattern whose flags JSON Schema cannot express', () => {
    expect(toOpenAPISchema(z4.string().regex(/^abc$/i))).toEqual({ type: 'string' })
    expect(toOpenAPISchema(z3.string().regex(/^abc$/i))).toEqual({ type: 'string' })
  })

  it('keeps both patterns of a doubly constrained string', () => {
    expect(toOpenAPISchema(z4.string().startsWith('a').endsWith('z'))).toEqual({
      type: 'string',
      pattern: '^a.*',
      allOf: [{ pattern: '.*z$' }],
    })
  })

  it('describes schemas no JSON value satisfies as { not: {} }', () => {
    expect(toOpenAPISchema(z4.never())).toEqual({ not: {} })
    expect(toOpenAPISchema(z3.undefined())).toEqual({ not: {} })
  })

  it('drops defaults JSON cannot carry', () => {
    expect(toOpenAPISchema(z4.date().default(new Date(0)))).toEqual({
      type: 'string',
      format: 'date-time',
    })
  })
})
