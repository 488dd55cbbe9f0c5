// The stripping rule on its own: what JSON.stringify would send is what is stripped (class
// instances, toJSON, Dates), discriminated unions strip by the selected variant, and where the
// schema cannot say what is declared (an unresolvable $ref) nothing is guessed.
import Ajv2020 from 'ajv/dist/2020'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { OpenAPISchema } from '../schema/types'
import { jsonValue } from './json-value'
import { type Removed, stripperFor, UnresolvedSchemaError } from './strip'

const User: OpenAPISchema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' } },
  required: ['id', 'name'],
}

/** An ORM entity: a class instance whose own fields include what the API must never send. */
class UserEntity {
  passwordHash = '$argon2id$secret'
  constructor(
    public id: string,
    public name: string,
  ) {}
  get display() {
    return `${this.name} (${this.id})`
  }
}

/**
 * A document as Mongoose returns it: fields behind getters on the prototype, the data in an
 * internal object, and a `toJSON()` that gives the data (with the key it is serialised under).
 */
class Doc {
  readonly _doc: Record<string, unknown>
  readonly keysSeen: string[] = []
  constructor(doc: Record<string, unknown>) {
    Object.defineProperty(this, '_doc', { value: doc, enumerable: false })
    Object.defineProperty(this, 'keysSeen', { value: [], enumerable: false })
    this._doc = doc
  }
  get id() {
    return this._doc.id
  }
  toJSON(key: string) {
    this.keysSeen.push(key)
    return { ...this._doc }
  }
}

/** Strips and says what JSON goes out and which pointers were removed. */
function run(schema: OpenAPISchema, value: unknown) {
  const removed: Removed = []
  const out = stripperFor(schema)(value, removed)
  return { sent: JSON.parse(JSON.stringify(out)) as unknown, removed }
}

describe('stripping what JSON.stringify would send', () => {
  it('strips class instances (an ORM entity), arrays of them and nested ones', () => {
    const entity = new UserEntity('u1', 'Ada')
    expect(run(User, entity)).toEqual({
      sent: { id: 'u1', name: 'Ada' },
      removed: ['/passwordHash'],
    })
    expect(run({ type: 'array', items: User }, [entity, new UserEntity('u2', 'Bo')]).sent).toEqual([
      { id: 'u1', name: 'Ada' },
      { id: 'u2', name: 'Bo' },
    ])
    const Team = {
      type: 'object',
      properties: { lead: User, members: { type: 'array', items: User } },
    } satisfies OpenAPISchema
    expect(run(Team, { lead: entity, members: [entity] }).sent).toEqual({
      lead: { id: 'u1', name: 'Ada' },
      members: [{ id: 'u1', name: 'Ada' }],
    })
    // The entity itself is left as it was.
    expect(entity.passwordHash).toBe('$argon2id$secret')
  })

  it('applies toJSON (with the key JSON.stringify passes) before stripping: a Mongoose-like document', () => {
    const doc = new Doc({ id: 'u1', name: 'Ada', passwordHash: 'h', __v: 0 })
    expect(run(User, doc)).toEqual({
      sent: { id: 'u1', name: 'Ada' },
      removed: ['/passwordHash', '/__v'],
    })
    const inList = new Doc({ id: 'u2', name: 'Bo', passwordHash: 'h' })
    const nested = new Doc({ id: 'u3', name: 'Cy', passwordHash: 'h' })
    const Page = {
      type: 'object',
      properties: { users: { type: 'array', items: User }, owner: User },
    } satisfies OpenAPISchema
    expect(run(Page, { users: [inList], owner: nested }).sent).toEqual({
      users: [{ id: 'u2', name: 'Bo' }],
      owner: { id: 'u3', name: 'Cy' },
    })
    // JSON.stringify calls toJSON('') at the top, the index as a string in arrays, the key else.
    expect([doc.keysSeen, inList.keysSeen, nested.keysSeen]).toEqual([[''], ['0'], ['owner']])
  })

  it('sends a plain copy of any object, never the object with its own toJSON or getters', () => {
    // The copy is what is serialised: toJSON is not called a second time, a getter not re-read.
    let calls = 0
    const once = {
      toJSON() {
        calls++
        return calls === 1 ? { id: 'u1', name: 'Ada' } : { id: 'u1', name: 'Ada', leak: 1 }
      },
    }
    const out = stripperFor(User)(once)
    expect(JSON.stringify(out)).toBe('{"id":"u1","name":"Ada"}')
    expect(calls).toBe(1)
    // An instance with nothing to remove is still copied: what is sent is what was read.
    const entity = Object.assign(Object.create({ inherited: 1 }), { id: 'u1', name: 'Ada' })
    const copy = stripperFor(User)(entity)
    expect(copy).not.toBe(entity)
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(copy).toEqual({ id: 'u1', name: 'Ada' })
  })

  it('reads Dates, boxed primitives and Maps as JSON does, also under open and non-object schemas', () => {
    const Event = {
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time' },
        n: { type: 'number' },
        meta: {}, // open: nothing removed, still what JSON sends
        map: { type: 'object' },
      },
      additionalProperties: false,
    } satisfies OpenAPISchema
    const value = {
      at: new Date(0),
      n: Object(3),
      meta: { when: new Date(0), who: new UserEntity('u1', 'Ada') },
      map: new Map([['a', 1]]),
    }
    const out = stripperFor(Event)(value)
    expect(out).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      n: 3,
      meta: {
        when: '1970-01-01T00:00:00.000Z',
        who: { passwordHash: '$argon2id$secret', id: 'u1', name: 'Ada' },
      },
      map: {},
    })
    expect(JSON.stringify(out)).toBe(JSON.stringify(value))
    expect(jsonValue([new Date(0)])).toEqual(['1970-01-01T00:00:00.000Z'])
  })

  it('returns a plain body with nothing to remove as the same object (the fast path)', () => {
    const body = { id: 'u1', name: 'Ada' }
    expect(stripperFor(User)(body)).toBe(body)
    const list = [body, { id: 'u2', name: 'Bo' }]
    expect(stripperFor({ type: 'array', items: User })(list)).toBe(list)
    const open = { id: 'u1', name: 'Ada', tags: [{ a: 1 }] }
    expect(jsonValue(open)).toBe(open)
  })

  it('keeps an own __proto__ key an own key in the copy, and removes it when undeclared', () => {
    const body = JSON.parse('{"id":"u1","name":"Ada","__proto__":{"x":1},"s":1}')
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"object","properties":{}},"s":{}}}',
    )
    const open = stripperFor(schema)(body) as Record<string, unknown>
    expect(Object.getPrototypeOf(open)).toBe(Object.prototype)
    expect(Object.hasOwn(open, '__proto__')).toBe(true)
    expect(JSON.stringify(open)).toBe('{"__proto__":{},"s":1}')
    expect(JSON.stringify(run(User, body).sent)).toBe('{"id":"u1","name":"Ada"}')
  })

  it('keeps the order of the kept keys wherever the removed ones and the changed ones sit', () => {
    const Pair: OpenAPISchema = {
      type: 'object',
      properties: { a: {}, b: User, c: {}, d: User },
    }
    const strip = stripperFor(Pair)
    const inner = { id: 'u1', name: 'Ada', secret: 1 }
    // Removed first, in the middle and last; a changed child before and after a removal.
    const body = { x: 1, a: 1, y: 2, b: inner, c: 3, d: inner, z: 4 }
    const sent = strip(body)
    expect(JSON.stringify(sent)).toBe(
      '{"a":1,"b":{"id":"u1","name":"Ada"},"c":3,"d":{"id":"u1","name":"Ada"}}',
    )
    expect(Object.keys(sent as object)).toEqual(['a', 'b', 'c', 'd'])
    // A changed child with nothing removed, and a removal after unchanged keys only.
    expect(JSON.stringify(strip({ a: 1, b: inner, c: 3 }))).toBe(
      '{"a":1,"b":{"id":"u1","name":"Ada"},"c":3}',
    )
    expect(JSON.stringify(strip({ a: 1, c: 3, q: 0 }))).toBe('{"a":1,"c":3}')
    expect(body).toEqual({ x: 1, a: 1, y: 2, b: inner, c: 3, d: inner, z: 4 })
    expect(inner).toEqual({ id: 'u1', name: 'Ada', secret: 1 })
  })
})

describe('stripping by schema', () => {
  it('keeps keys matching patternProperties (and strips inside them)', () => {
    const Headers = {
      type: 'object',
      properties: { id: { type: 'string' } },
      patternProperties: { '^x-': User },
      additionalProperties: false,
    } satisfies OpenAPISchema
    expect(run(Headers, { id: '1', 'x-a': { id: 'u', name: 'n', s: 1 }, y: 2, 'a-x-': 3 })).toEqual(
      {
        sent: { id: '1', 'x-a': { id: 'u', name: 'n' } },
        removed: ['/x-a/s', '/y', '/a-x-'],
      },
    )
  })

  it('refuses to guess at a $ref that does not resolve, inside anyOf too: neither leaked nor emptied', () => {
    const schemas: OpenAPISchema[] = [
      { anyOf: [{ $ref: '#/components/schemas/Missing' }, User] },
      { oneOf: [User, { $ref: 'https://example.com/user.json' }] },
      { type: 'object', properties: { user: { $ref: '#/$defs/Nope' } } },
      { type: 'array', items: { anyOf: [{ $ref: '#/$defs/Nope' }, User] } },
    ]
    const bodies = [
      { id: 'u1', name: 'Ada', passwordHash: 'h' },
      { id: 'u1', name: 'Ada', passwordHash: 'h' },
      { user: { id: 'u1', passwordHash: 'h' } },
      [{ id: 'u1', passwordHash: 'h' }],
    ]
    schemas.forEach((schema, i) => {
      const strip = stripperFor(schema)
      expect(() => strip(bodies[i]), `schema ${i}`).toThrow(UnresolvedSchemaError)
    })
    const removed: Removed = []
    try {
      stripperFor(schemas[2] as OpenAPISchema)(bodies[2], removed)
    } catch (error) {
      expect(error).toMatchObject({ pointer: '/user', ref: '#/$defs/Nope' })
    }
    // A primitive there has no properties to strip: the validator decides.
    expect(stripperFor(schemas[2] as OpenAPISchema)({ user: 'u1' })).toEqual({ user: 'u1' })
  })

  describe('discriminated unions strip by the selected variant', () => {
    const Cat = {
      type: 'object',
      properties: { kind: { type: 'string', const: 'cat' }, lives: { type: 'integer' } },
      required: ['kind'],
    } satisfies OpenAPISchema
    const Dog = {
      type: 'object',
      properties: { kind: { type: 'string', enum: ['dog', 'puppy'] }, good: { type: 'boolean' } },
      required: ['kind'],
    } satisfies OpenAPISchema

    it('selects by a property every object variant declares with const/enum (anyOf and oneOf)', () => {
      for (const key of ['anyOf', 'oneOf'] as const) {
        const Pet = { [key]: [Cat, Dog, { type: 'null' }] } as OpenAPISchema
        expect(run(Pet, { kind: 'cat', lives: 9, good: true, s: 1 }).sent).toEqual({
          kind: 'cat',
          lives: 9,
        })
        expect(run(Pet, { kind: 'puppy', lives: 9, good: true }).sent).toEqual({
          kind: 'puppy',
          good: true,
        })
        // No variant selected (an unknown or missing tag): every variant's fields are kept, as
        // for a plain anyOf; the validator then refuses the body.
        expect(run(Pet, { kind: 'cow', lives: 9, good: true, s: 1 }).sent).toEqual({
          kind: 'cow',
          lives: 9,
          good: true,
        })
        expect(run(Pet, { lives: 9, good: true, s: 1 }).sent).toEqual({ lives: 9, good: true })
      }
    })

    it('selects by an OpenAPI discriminator, with its mapping and by component name', () => {
      const root = {
        $defs: { Cat, Hound: { ...Dog, properties: { ...Dog.properties, kind: {} } } },
        type: 'object',
        properties: {
          pet: {
            oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Hound' }],
            discriminator: { propertyName: 'kind', mapping: { woof: '#/$defs/Hound' } },
          },
        },
      } as OpenAPISchema
      expect(run(root, { pet: { kind: 'woof', lives: 9, good: true } }).sent).toEqual({
        pet: { kind: 'woof', good: true },
      })
      expect(run(root, { pet: { kind: 'Hound', lives: 9, good: true } }).sent).toEqual({
        pet: { kind: 'Hound', good: true },
      })
      expect(run(root, { pet: { kind: 'cat', lives: 9, good: true } }).sent).toEqual({
        pet: { kind: 'cat', lives: 9 },
      })
    })

    it('keeps every variant of a plain anyOf (nothing tells them apart) and the allOf parts', () => {
      const A = { type: 'object', properties: { a: { type: 'number' } } } satisfies OpenAPISchema
      const B = { type: 'object', properties: { b: { type: 'number' } } } satisfies OpenAPISchema
      expect(run({ anyOf: [A, B] }, { a: 1, b: 2, c: 3 }).sent).toEqual({ a: 1, b: 2 })
      const Tagged = {
        allOf: [{ type: 'object', properties: { id: { type: 'string' } } }, { oneOf: [Cat, Dog] }],
      } satisfies OpenAPISchema
      expect(run(Tagged, { id: 'p', kind: 'dog', lives: 1, good: false }).sent).toEqual({
        id: 'p',
        kind: 'dog',
        good: false,
      })
      // Arrays under a union of array variants: every variant's items.
      const Lists = {
        anyOf: [
          { type: 'array', items: Cat },
          { type: 'array', items: Dog },
        ],
      } satisfies OpenAPISchema
      expect(run(Lists, [{ kind: 'cat', lives: 1, good: true, s: 1 }]).sent).toEqual([
        { kind: 'cat', lives: 1, good: true },
      ])
    })
  })
})

describe('stripping (property tests)', () => {
  const Item = {
    type: 'object',
    properties: { sku: { type: 'string' }, qty: { type: 'integer' } },
    required: ['sku'],
    additionalProperties: false,
  } satisfies OpenAPISchema
  const Pet: OpenAPISchema = {
    oneOf: [
      {
        type: 'object',
        properties: { kind: { const: 'cat' }, lives: { type: 'integer' } },
        required: ['kind'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { kind: { const: 'dog' }, good: { type: 'boolean' } },
        required: ['kind'],
        additionalProperties: false,
      },
    ],
  }
  const Order = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      at: { type: 'string' },
      items: { type: 'array', items: Item },
      pet: Pet,
      meta: {
        type: 'object',
        patternProperties: { '^x-': { type: 'string' } },
        additionalProperties: false,
      },
      tags: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: { v: { type: 'number' } },
          additionalProperties: false,
        },
      },
    },
    required: ['id', 'at', 'items', 'pet', 'meta', 'tags'],
    additionalProperties: false,
  } satisfies OpenAPISchema
  const ajv = new Ajv2020({ strict: false })
  const validate = ajv.compile(Order)

  const declared = new Set(['id', 'at', 'items', 'pet', 'meta', 'tags', 'sku', 'qty', 'kind'])
  const extraKey = fc
    .string({ minLength: 1, maxLength: 8 })
    .filter((k) => !declared.has(k) && !k.startsWith('x-') && !['lives', 'good', 'v'].includes(k))
  const json = fc.jsonValue({ maxDepth: 2 })
  const extras = fc.dictionary(extraKey, json, { maxKeys: 3 })
  const withExtras = <T extends object>(arb: fc.Arbitrary<T>) =>
    fc.tuple(arb, extras).map(([v, e]) => ({ ...e, ...v }))

  class Entity {}
  /** The same data as an entity, a document with toJSON, a null-prototype object, or plain. */
  const dress = (v: Record<string, unknown>, how: number): object => {
    if (how === 1) return Object.assign(new Entity(), v)
    if (how === 2) return { toJSON: () => v }
    if (how === 3) return Object.assign(Object.create(null), v)
    return v
  }
  const dressed = <T extends Record<string, unknown>>(arb: fc.Arbitrary<T>) =>
    fc.tuple(withExtras(arb), fc.nat(3)).map(([v, how]) => dress(v, how))

  const order = dressed(
    fc.record({
      id: fc.string(),
      at: fc.date({ noInvalidDate: true }) as fc.Arbitrary<unknown>,
      items: fc.array(
        dressed(fc.record({ sku: fc.string(), qty: fc.integer() }, { requiredKeys: ['sku'] })),
        { maxLength: 3 },
      ),
      pet: fc.oneof(
        dressed(fc.record({ kind: fc.constant('cat'), lives: fc.integer() })),
        dressed(fc.record({ kind: fc.constant('dog'), good: fc.boolean() })),
      ),
      meta: fc
        .tuple(
          fc.dictionary(
            fc.string().map((s) => `x-${s}`),
            fc.string(),
            { maxKeys: 3 },
          ),
          extras,
        )
        .map(([m, e]) => ({ ...e, ...m })),
      tags: fc.dictionary(
        fc.string(),
        dressed(fc.record({ v: fc.double({ noNaN: true, noDefaultInfinity: true }) })),
        {
          maxKeys: 3,
        },
      ),
    }),
  )

  it('sends JSON that validates and holds no undeclared key, whatever objects the body is made of', () => {
    const strip = stripperFor(Order)
    fc.assert(
      fc.property(order, (value) => {
        const before = JSON.stringify(value)
        const sent = JSON.parse(JSON.stringify(strip(value)))
        expect(validate(sent), JSON.stringify(validate.errors)).toBe(true)
        // Nothing left to remove: no undeclared key survived.
        const again: Removed = []
        expect(strip(sent, again)).toBe(sent)
        expect(again).toEqual([])
        // Stripping the object is stripping what JSON.stringify makes of it.
        expect(JSON.stringify(strip(value))).toBe(JSON.stringify(strip(JSON.parse(before))))
        // The handler's value is left as it was.
        expect(JSON.stringify(value)).toBe(before)
      }),
      { numRuns: 300 },
    )
  })

  it('reads any value as JSON.stringify does (jsonValue, and a stripper of {})', () => {
    const strip = stripperFor({})
    const closed = stripperFor({
      type: ['object', 'array'],
      properties: { a: { type: 'object', properties: { b: {} } }, c: {} },
      items: { $ref: '#' },
    })
    const anything = fc.anything({
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
    })
    fc.assert(
      fc.property(anything, (value) => {
        const expected = JSON.stringify(value)
        expect(JSON.stringify(jsonValue(value))).toBe(expected)
        expect(JSON.stringify(strip(value))).toBe(expected)
        // A closed schema strips the value as it strips its JSON form.
        if (expected !== undefined) {
          expect(JSON.stringify(closed(value))).toBe(JSON.stringify(closed(JSON.parse(expected))))
        }
      }),
      { numRuns: 500 },
    )
  })

  it('never keeps a key of the variant the discriminator did not select', () => {
    const strip = stripperFor(Pet)
    fc.assert(
      fc.property(
        fc.constantFrom('cat', 'dog'),
        fc.dictionary(fc.string(), json, { maxKeys: 5 }),
        fc.nat(3),
        (kind, rest, how) => {
          const sent = JSON.parse(JSON.stringify(strip(dress({ ...rest, kind }, how))))
          const allowed = kind === 'cat' ? ['kind', 'lives'] : ['kind', 'good']
          expect(Object.keys(sent).every((k) => allowed.includes(k))).toBe(true)
          expect(sent.kind).toBe(kind)
        },
      ),
      { numRuns: 300 },
    )
  })
})
