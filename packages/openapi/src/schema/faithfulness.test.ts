// Over 300 lines because the case tables are the test: each zod 4 and zod 3 schema with the
// values its converted JSON Schema must accept and refuse, checked by one loop.
import { describe, expect, it } from 'vitest'
import { z as z4 } from 'zod'
import { z as z3from4 } from 'zod/v3'
import { z as z3 } from 'zod3'
import { createAjv } from '../../../../tests/openapi/validate'
import { toOpenAPISchema } from './convert'

/**
 * Faithfulness: for each schema, zod's safeParse and Ajv (JSON Schema 2020-12, with formats) on
 * the converted schema must agree on every sample. Samples are JSON values, since that is all a
 * request body or response can carry; each case has samples on both sides of the line.
 */
interface Case {
  name: string
  schema: { safeParse: (v: unknown) => { success: boolean } }
  samples: unknown[]
}

enum Color {
  Red = 0,
  Green = 1,
}

const v4Cases: Case[] = [
  { name: 'string', schema: z4.string(), samples: ['a', '', 1, null] },
  {
    name: 'string min/max',
    schema: z4.string().min(2).max(4),
    samples: ['ab', 'abcd', 'a', 'abcde', 3],
  },
  { name: 'string length', schema: z4.string().length(3), samples: ['abc', 'ab', 'abcd'] },
  { name: 'string regex', schema: z4.string().regex(/^[a-z]+$/), samples: ['abc', 'aBc', ''] },
  { name: 'email', schema: z4.email(), samples: ['a@b.co', 'nope', 'a@b', 1] },
  {
    name: 'uuid',
    schema: z4.uuid(),
    samples: ['123e4567-e89b-42d3-a456-426614174000', 'nope', ''],
  },
  { name: 'url', schema: z4.url(), samples: ['https://example.com/x', 'not a url'] },
  {
    name: 'iso datetime (Z only)',
    schema: z4.iso.datetime(),
    samples: [
      '2024-01-02T03:04:05Z',
      '2024-01-02T03:04:05.123Z',
      '2024-01-02T03:04:05+02:00',
      '2024-01-02',
      'x',
    ],
  },
  {
    name: 'iso datetime with offset',
    schema: z4.iso.datetime({ offset: true }),
    samples: ['2024-01-02T03:04:05+02:00', '2024-01-02T03:04:05Z', '2024-13-02T03:04:05Z'],
  },
  { name: 'iso date', schema: z4.iso.date(), samples: ['2024-02-29', '2023-02-29', '2024-1-1'] },
  { name: 'iso time', schema: z4.iso.time(), samples: ['12:00', '12:00:30', '25:00', '12:00Z'] },
  { name: 'ipv4', schema: z4.ipv4(), samples: ['127.0.0.1', '256.0.0.1', 'x'] },
  {
    name: 'startsWith/endsWith',
    schema: z4.string().startsWith('ab').endsWith('yz'),
    samples: ['abxyz', 'xabyz', 'abyz'],
  },
  { name: 'lowercase', schema: z4.string().lowercase(), samples: ['abc', 'aBc', ''] },
  {
    name: 'template literal',
    schema: z4.templateLiteral(['user-', z4.number()]),
    samples: ['user-1', 'user-x'],
  },
  { name: 'number', schema: z4.number(), samples: [1, 1.5, -3, '1', null] },
  { name: 'number min/max', schema: z4.number().min(1).max(10), samples: [1, 10, 0.99, 10.01] },
  { name: 'number exclusive', schema: z4.number().gt(0).lt(1), samples: [0.5, 0, 1] },
  // No 2 ** 53: zod's safe-integer range is deliberately left out of the document (noise bounds).
  { name: 'int', schema: z4.int(), samples: [1, 1.5, -5, 2 ** 52] },
  {
    name: 'int positive multipleOf',
    schema: z4.number().int().positive().multipleOf(5),
    samples: [5, 10, 0, 7, -5],
  },
  { name: 'int32', schema: z4.int32(), samples: [2147483647, 2147483648, -1] },
  { name: 'boolean', schema: z4.boolean(), samples: [true, false, 'true', 0] },
  { name: 'null', schema: z4.null(), samples: [null, 0, ''] },
  { name: 'literal', schema: z4.literal('a'), samples: ['a', 'b'] },
  { name: 'multi literal', schema: z4.literal([1, 'x']), samples: [1, 'x', 2] },
  { name: 'enum', schema: z4.enum(['red', 'green']), samples: ['red', 'blue'] },
  { name: 'TS numeric enum', schema: z4.enum(Color), samples: [0, 1, 'Red', 2] },
  {
    name: 'object with optional',
    schema: z4.object({ name: z4.string(), age: z4.number().optional() }),
    samples: [
      { name: 'a' },
      { name: 'a', age: 1 },
      { age: 1 },
      { name: 'a', age: '1' },
      { name: 'a', x: 1 },
      'x',
    ],
  },
  {
    name: 'strict object',
    schema: z4.strictObject({ a: z4.string() }),
    samples: [{ a: 'x' }, { a: 'x', b: 1 }],
  },
  {
    name: 'object catchall',
    schema: z4.object({ a: z4.string() }).catchall(z4.number()),
    samples: [
      { a: 'x', b: 1 },
      { a: 'x', b: 'y' },
    ],
  },
  {
    name: 'object with default',
    schema: z4.object({ a: z4.string().default('x') }),
    samples: [{}, { a: 'y' }, { a: 1 }],
  },
  {
    name: 'nullish field',
    schema: z4.object({ a: z4.number().nullish() }),
    samples: [{}, { a: null }, { a: 1 }, { a: 'x' }],
  },
  {
    name: 'array bounds',
    schema: z4.array(z4.number()).min(1).max(2),
    samples: [[1], [1, 2], [], [1, 2, 3], ['a']],
  },
  { name: 'nonempty array', schema: z4.array(z4.string()).nonempty(), samples: [[], ['a']] },
  { name: 'union', schema: z4.union([z4.string(), z4.number()]), samples: ['a', 1, true] },
  {
    name: 'overlapping union',
    schema: z4.union([z4.string(), z4.email()]),
    samples: ['a@b.co', 'x', 1],
  },
  {
    name: 'discriminated union',
    schema: z4.discriminatedUnion('kind', [
      z4.object({ kind: z4.literal('a'), x: z4.string() }),
      z4.object({ kind: z4.literal('b'), y: z4.number() }),
    ]),
    samples: [{ kind: 'a', x: '1' }, { kind: 'b', y: 1 }, { kind: 'a', y: 1 }, { kind: 'c' }],
  },
  {
    name: 'intersection',
    schema: z4.intersection(z4.object({ a: z4.string() }), z4.object({ b: z4.number() })),
    samples: [{ a: 'x', b: 1 }, { a: 'x' }, { b: 1 }],
  },
  {
    name: 'record',
    schema: z4.record(z4.string(), z4.number()),
    samples: [{ a: 1 }, {}, { a: 'x' }],
  },
  {
    name: 'enum-keyed record',
    schema: z4.record(z4.enum(['a', 'b']), z4.number()),
    samples: [{ a: 1, b: 2 }, { a: 1 }, { a: 1, b: 2, c: 3 }],
  },
  {
    name: 'tuple',
    schema: z4.tuple([z4.string(), z4.number()]),
    samples: [['a', 1], ['a'], ['a', 1, 2], [1, 'a']],
  },
  {
    name: 'tuple with rest',
    schema: z4.tuple([z4.string()], z4.number()),
    samples: [['a'], ['a', 1, 2], ['a', 'b'], []],
  },
  { name: 'nullable', schema: z4.string().nullable(), samples: ['a', null, 1] },
  {
    name: 'nested',
    schema: z4.object({ user: z4.object({ tags: z4.array(z4.enum(['a', 'b'])).max(2) }) }),
    samples: [
      { user: { tags: ['a'] } },
      { user: { tags: ['c'] } },
      { user: { tags: ['a', 'b', 'a'] } },
      { user: {} },
    ],
  },
]

const v3Cases = (z: typeof z3): Case[] => [
  {
    name: 'string min/max',
    schema: z.string().min(2).max(4),
    samples: ['ab', 'abcd', 'a', 'abcde', 3],
  },
  { name: 'string length', schema: z.string().length(3), samples: ['abc', 'ab'] },
  { name: 'email', schema: z.string().email(), samples: ['a@b.co', 'nope'] },
  {
    name: 'uuid',
    schema: z.string().uuid(),
    samples: ['123e4567-e89b-42d3-a456-426614174000', 'nope'],
  },
  { name: 'url', schema: z.string().url(), samples: ['https://example.com', 'not a url'] },
  { name: 'regex', schema: z.string().regex(/^\d+$/), samples: ['123', '12a'] },
  {
    name: 'startsWith/endsWith/includes',
    schema: z.string().startsWith('a.').endsWith('z').includes('m'),
    samples: ['a.mz', 'abmz', 'a.z'],
  },
  {
    name: 'datetime',
    schema: z.string().datetime(),
    samples: ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05+02:00', 'x'],
  },
  { name: 'date', schema: z.string().date(), samples: ['2024-02-29', '2023-02-29', '2024-1-1'] },
  {
    name: 'time',
    schema: z.string().time(),
    samples: ['12:00:00', '12:00:00.5', '12:00', '24:00:00'],
  },
  {
    name: 'time with precision',
    schema: z.string().time({ precision: 2 }),
    samples: ['12:00:00.12', '12:00:00', '12:00:00.123'],
  },
  {
    name: 'datetime with offset and precision',
    schema: z.string().datetime({ offset: true, precision: 0 }),
    samples: [
      '2024-01-02T03:04:05+02:00',
      '2024-01-02T03:04:05Z',
      '2024-01-02T03:04:05.1Z',
      '2023-02-29T00:00:00Z',
    ],
  },
  { name: 'number bounds', schema: z.number().gt(0).lte(10), samples: [0, 0.1, 10, 10.5] },
  { name: 'int', schema: z.number().int().nonnegative(), samples: [0, 3, 1.5, -1] },
  { name: 'multipleOf', schema: z.number().multipleOf(3), samples: [9, 10] },
  { name: 'boolean', schema: z.boolean(), samples: [true, 'false'] },
  { name: 'null', schema: z.null(), samples: [null, 'null'] },
  { name: 'literal', schema: z.literal(42), samples: [42, 41, '42'] },
  { name: 'enum', schema: z.enum(['a', 'b']), samples: ['a', 'c'] },
  { name: 'native enum', schema: z.nativeEnum(Color), samples: [0, 1, 'Red', 3] },
  {
    name: 'object',
    schema: z.object({ name: z.string(), age: z.number().optional() }),
    samples: [{ name: 'a' }, { name: 'a', age: 1 }, { age: 1 }, { name: 'a', more: true }],
  },
  {
    name: 'strict object',
    schema: z.object({ a: z.string() }).strict(),
    samples: [{ a: 'x' }, { a: 'x', b: 1 }],
  },
  {
    name: 'passthrough object',
    schema: z.object({ a: z.string() }).passthrough(),
    samples: [{ a: 'x', b: 1 }, { b: 1 }],
  },
  {
    name: 'array bounds',
    schema: z.array(z.string()).min(1).max(2),
    samples: [['a'], [], ['a', 'b', 'c'], [1]],
  },
  { name: 'array exact length', schema: z.array(z.number()).length(2), samples: [[1, 2], [1]] },
  { name: 'union', schema: z.union([z.string(), z.number()]), samples: ['a', 1, false] },
  {
    name: 'discriminated union',
    schema: z.discriminatedUnion('t', [
      z.object({ t: z.literal('x'), a: z.string() }),
      z.object({ t: z.literal('y'), b: z.boolean() }),
    ]),
    samples: [{ t: 'x', a: 'a' }, { t: 'y', b: true }, { t: 'x', b: true }, { t: 'z' }],
  },
  {
    name: 'intersection',
    schema: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    samples: [{ a: 'x', b: 1 }, { a: 'x' }],
  },
  { name: 'record', schema: z.record(z.string(), z.boolean()), samples: [{ a: true }, { a: 1 }] },
  {
    name: 'tuple with rest',
    schema: z.tuple([z.string(), z.number()]).rest(z.boolean()),
    samples: [['a', 1], ['a', 1, true], ['a', 1, 'x'], ['a']],
  },
  { name: 'nullable', schema: z.number().nullable(), samples: [1, null, 'x'] },
  {
    name: 'default in object',
    schema: z.object({ n: z.number().default(3) }),
    samples: [{}, { n: 1 }, { n: 'x' }],
  },
  { name: 'described', schema: z.string().describe('a name'), samples: ['x', 1] },
]

const ajv = createAjv()

function check(cases: Case[]) {
  it.each(cases.map((c) => [c.name, c] as const))('agrees with zod: %s', (_name, c) => {
    const validate = ajv.compile(toOpenAPISchema(c.schema))
    const outcomes = c.samples.map((sample) => {
      const zod = c.schema.safeParse(sample).success
      const json = validate(sample)
      return { sample, zod, json }
    })
    expect(outcomes.filter((o) => o.zod !== o.json)).toEqual([])
    // A case only proves something when it has samples on both sides.
    expect(new Set(outcomes.map((o) => o.zod))).toEqual(new Set([true, false]))
  })
}

describe('zod 4 conversion is faithful', () => {
  it('has a table of at least 30 schemas', () => expect(v4Cases.length).toBeGreaterThanOrEqual(30))
  check(v4Cases)
})

describe('zod 3 conversion is faithful (zod@3 package)', () => {
  it('has a table of at least 30 schemas', () =>
    expect(v3Cases(z3).length).toBeGreaterThanOrEqual(30))
  check(v3Cases(z3))
})

describe('zod 3 conversion is faithful (zod/v3 from zod 4)', () => {
  check(v3Cases(z3from4 as unknown as typeof z3))
})
