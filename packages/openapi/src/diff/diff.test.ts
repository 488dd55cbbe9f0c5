import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { blockingChanges, diff, formatDiff, openapiProblem } from './index'
import { DIFF_RULES } from './rules'

type Json = Record<string, unknown>

const doc = (paths: Json, extra: Json = {}): Json => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths,
  ...extra,
})
const answer = (schema: unknown) => ({
  responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } },
})

/** The value at a JSON pointer, or undefined. */
function at(value: unknown, pointer: string): unknown {
  if (pointer === '') return value
  let node = value
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined
    node = (node as Json)[key]
  }
  return node
}

// Documents: a few paths with operations, parameters, bodies, responses and security, whose
// schemas may point into components (and components at each other, cycles included).
const name = fc.constantFrom('a', 'b', 'c', 'id', 'x-y', 'a/b', '~t', '__proto__', 'constructor')
const ref = fc.constantFrom('A', 'B', 'C').map((n) => ({ $ref: `#/components/schemas/${n}` }))
const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    ref,
    fc.record(
      {
        type: fc.oneof(
          fc.constantFrom('string', 'integer', 'number', 'boolean', 'object', 'array', 'null'),
          fc.constant(['string', 'null']),
        ),
        format: fc.constantFrom('uuid', 'date-time', 'email'),
        enum: fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 3 }),
        maxLength: fc.nat(20),
        minimum: fc.integer(),
        pattern: fc.constantFrom('^a$', '[0-9]+'),
        nullable: fc.boolean(),
        readOnly: fc.boolean(),
        properties: fc.dictionary(name, tie('schema'), { maxKeys: 3 }),
        required: fc.array(name, { maxLength: 3 }),
        items: tie('schema'),
        allOf: fc.array(tie('schema'), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
  ),
}))
const content = fc.dictionary(
  fc.constantFrom('application/json', 'text/plain', 'Application/JSON'),
  fc.record({ schema }),
  { maxKeys: 2 },
)
const operation = fc.record(
  {
    parameters: fc.array(
      fc.record(
        {
          in: fc.constantFrom('query', 'header', 'path', 'cookie'),
          name,
          required: fc.boolean(),
          schema,
        },
        { requiredKeys: ['in', 'name'] },
      ),
      { maxLength: 3 },
    ),
    requestBody: fc.record({ required: fc.boolean(), content }, { requiredKeys: [] }),
    responses: fc.dictionary(
      fc.constantFrom('200', '201', '404', 'default', '2XX'),
      fc.record({ description: fc.constant('r'), content }, { requiredKeys: ['description'] }),
      { maxKeys: 3 },
    ),
    security: fc.array(
      fc.dictionary(fc.constantFrom('bearer', 'oauth'), fc.array(fc.constantFrom('r', 'w'))),
      { maxLength: 2 },
    ),
    deprecated: fc.boolean(),
    'x-sunset': fc.constantFrom('2000-01-01', '2999-01-01', 'soon'),
  },
  { requiredKeys: [] },
)
const documents = fc
  .record(
    {
      paths: fc.dictionary(
        fc.constantFrom('/a', '/a/{id}', '/a/{other}', '/b/{x}/c', '/c'),
        fc.dictionary(fc.constantFrom('get', 'post', 'put', 'delete', 'parameters'), operation, {
          maxKeys: 3,
        }),
        { maxKeys: 4 },
      ),
      components: fc.record({ schemas: fc.dictionary(fc.constantFrom('A', 'B', 'C'), schema) }),
      security: fc.array(fc.dictionary(fc.constantFrom('bearer', 'key'), fc.constant([]))),
      servers: fc.array(fc.record({ url: fc.constantFrom('https://a', 'https://b', '/') })),
    },
    { requiredKeys: ['paths'] },
  )
  .map((parts) => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, ...parts }))

describe('diff: properties', () => {
  it('diff(a, a) is empty for generated documents (same object and a copy)', () => {
    fc.assert(
      fc.property(documents, (a) => {
        expect(diff(a, a)).toEqual([])
        expect(diff(a, structuredClone(a))).toEqual([])
      }),
      { numRuns: 200 },
    )
  }, 60_000) // a hang guard on a loaded machine, not a speed assertion

  it('classifies any two generated documents by known rules, located in their documents', () => {
    fc.assert(
      fc.property(documents, documents, (a, b) => {
        const changes = diff(a, b)
        for (const change of changes) {
          expect(DIFF_RULES.get(change.id)?.level).toBe(change.level)
          if (change.old !== undefined) expect(at(a, change.old)).toBeDefined()
          if (change.new !== undefined) expect(at(b, change.new)).toBeDefined()
          expect(change.old ?? change.new).toBeDefined()
        }
        for (const format of ['text', 'markdown', 'json'] as const) formatDiff(changes, format)
      }),
      { numRuns: 200 },
    )
  }, 60_000) // a hang guard on a loaded machine, not a speed assertion

  it('never throws on arbitrary JSON, on either side', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), documents, (x, y, d) => {
        diff(x, y)
        diff(x, d)
        diff(d, x)
        openapiProblem(x)
      }),
      { numRuns: 500 },
    )
    // Parsed JSON may carry keys that name Object.prototype members.
    const tricky = JSON.parse(
      '{"openapi":"3.1.0","paths":{"__proto__":{"get":{}},"constructor":{"toString":{}}},"servers":[{"url":"__proto__"}]}',
    )
    expect(() => diff(tricky, doc({}))).not.toThrow()
  })
})

describe('diff: references and cycles', () => {
  it('ends on recursive and mutually recursive schemas, however wide', () => {
    // 12 schemas, each with a property pointing at every one of them: a walk that does not
    // remember the pairs it compared would take 12^12 steps.
    const schemas = (extra: number) => {
      const out: Json = {}
      for (let i = 0; i < 12; i++) {
        const properties: Json = { v: { type: 'string', maxLength: i === 11 ? extra : 5 } }
        for (let j = 0; j < 12; j++) properties[`p${j}`] = { $ref: `#/components/schemas/S${j}` }
        out[`S${i}`] = { type: 'object', properties }
      }
      return out
    }
    const make = (extra: number) =>
      doc(
        { '/x': { get: answer({ $ref: '#/components/schemas/S0' }) } },
        { components: { schemas: schemas(extra) } },
      )
    const changes = diff(make(5), make(9))
    expect(changes.map((c) => c.id)).toEqual(['response-property-max-length-increased'])
    expect(changes[0]?.old).toBe('/components/schemas/S11/properties/v')
  })

  it('ends on a $ref chain that loops, and on a schema that is its own allOf', () => {
    const looped = doc(
      { '/x': { get: answer({ $ref: '#/components/schemas/A' }) } },
      {
        components: {
          schemas: {
            A: { $ref: '#/components/schemas/B' },
            B: { $ref: '#/components/schemas/A' },
            C: { allOf: [{ $ref: '#/components/schemas/C' }] },
          },
        },
      },
    )
    expect(diff(looped, structuredClone(looped))).toEqual([])
    const selfAllOf = doc(
      { '/x': { get: answer({ $ref: '#/components/schemas/C' }) } },
      {
        components: looped.components,
      },
    )
    expect(diff(looped, selfAllOf)).toEqual([])
  })

  it('reports the pointer of the change in each document (the $ref target, not the use)', () => {
    const before = doc(
      { '/x': { get: answer({ $ref: '#/components/schemas/Old' }) } },
      {
        components: {
          schemas: {
            Old: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
          },
        },
      },
    )
    const after = doc(
      { '/x': { get: answer({ $ref: '#/components/schemas/New' }) } },
      {
        components: { schemas: { New: { type: 'object', properties: { a: { type: 'string' } } } } },
      },
    )
    expect(diff(before, after)).toEqual([
      {
        id: 'response-property-became-optional',
        level: 'breaking',
        operation: 'GET /x',
        message: "property 'a' of the 200 response (application/json) became optional",
        old: '/components/schemas/Old/properties/a',
        new: '/components/schemas/New/properties/a',
      },
    ])
  })
})

describe('diff: allowing breaking changes', () => {
  const before = doc({
    '/x': { get: { parameters: [], responses: { '200': { description: 'ok' } } } },
  })
  const withParam = (note?: unknown) =>
    doc({
      '/x': {
        get: {
          ...(note === undefined ? {} : { 'x-palisade-breaking-ok': note }),
          parameters: [{ in: 'query', name: 'q', required: true, schema: { type: 'string' } }],
          security: [{ bearer: [] }],
          responses: { '200': { description: 'ok' } },
        },
      },
    })

  it('blocks a breaking change nothing allows', () => {
    const changes = diff(before, withParam())
    expect(blockingChanges(changes).map((c) => c.id)).toEqual([
      'new-required-request-parameter',
      'api-security-added',
    ])
  })

  it('allows by --allow (the option), keeping the change in the report', () => {
    const changes = diff(before, withParam(), { allow: ['api-security-added'] })
    expect(changes.find((c) => c.id === 'api-security-added')?.allowed).toBe('option')
    expect(blockingChanges(changes).map((c) => c.id)).toEqual(['new-required-request-parameter'])
  })

  it('allows by an x-palisade-breaking-ok note on the new operation: true, an id or a list', () => {
    expect(blockingChanges(diff(before, withParam(true)))).toEqual([])
    expect(blockingChanges(diff(before, withParam('api-security-added'))).map((c) => c.id)).toEqual(
      ['new-required-request-parameter'],
    )
    expect(
      blockingChanges(
        diff(before, withParam(['new-required-request-parameter', 'api-security-added'])),
      ),
    ).toEqual([])
    // Anything else allows nothing.
    for (const note of [false, 1, 'yes', { all: true }, ['*']])
      expect(blockingChanges(diff(before, withParam(note)))).toHaveLength(2)
  })

  it('reads a new response enum value as breaking with strictEnums', () => {
    const a = doc({ '/x': { get: answer({ type: 'string', enum: ['a'] }) } })
    const b = doc({ '/x': { get: answer({ type: 'string', enum: ['a', 'b'] }) } })
    expect(diff(a, b).map((c) => c.level)).toEqual(['info'])
    expect(diff(a, b, { strictEnums: true }).map((c) => c.level)).toEqual(['breaking'])
  })

  it('compares x-sunset with `now`', () => {
    const a = doc({ '/x': { get: { deprecated: true, 'x-sunset': '2030-06-01', responses: {} } } })
    const b = doc({})
    expect(diff(a, b, { now: new Date('2030-01-01') })[0]?.id).toBe(
      'api-path-removed-before-sunset',
    )
    expect(diff(a, b, { now: new Date('2031-01-01') })[0]?.id).toBe(
      'api-path-removed-with-deprecation',
    )
  })
})

describe('openapiProblem', () => {
  it('accepts 3.0 and 3.1, names what else it got', () => {
    expect(openapiProblem(doc({}))).toBeUndefined()
    expect(openapiProblem({ ...doc({}), openapi: '3.0.3' })).toBeUndefined()
    expect(openapiProblem([])).toBe('not a JSON object')
    expect(openapiProblem({ swagger: '2.0' })).toMatch(/Swagger 2\.0/)
    expect(openapiProblem({ openapi: '4.0.0' })).toMatch(/OpenAPI 4\.0\.0/)
    expect(openapiProblem({ openapi: '3.1.0', paths: [] })).toMatch(/paths/)
    expect(openapiProblem({ info: {} })).toMatch(/no "openapi"/)
  })
})

describe('formatDiff', () => {
  const changes = diff(
    doc({ '/x': { get: answer({ type: 'string' }) }, '/y|z': { get: answer({}) } }),
    doc({ '/x': { get: answer({ type: 'integer' }) } }),
    { allow: ['api-path-removed-without-deprecation'] },
  )

  it('writes text, markdown (cells escaped) and JSON with a summary', () => {
    expect(formatDiff(changes, 'text')).toContain('breaking     response-body-type-changed')
    const md = formatDiff(changes, 'markdown')
    expect(md).toMatch(/^\*\*API diff: 1 breaking change\(s\)\*\*/)
    expect(md).toContain('`GET /y\\|z`')
    expect(md).toContain('allowed by --allow')
    const json = JSON.parse(formatDiff(changes, 'json'))
    expect(json.summary).toEqual({ breaking: 2, blocking: 1, info: 0, nonBreaking: 0 })
    expect(json.changes).toHaveLength(2)
    expect(formatDiff([], 'text')).toBe('diff: no changes\n')
  })
})
