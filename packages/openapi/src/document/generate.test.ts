// Over 300 lines: one suite per part of the document the builder writes, all on the `gen` and
// `op` helpers, which every document here goes through (each is checked by the external validator).
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { expectValidOpenAPI } from '../../../../tests/openapi/validate'
import type { OpenAPIDocument } from '../model/document'
import type { StoredRoute } from '../model/route'
import { generateSpec } from './generate'

const info = { title: 'Test API', version: '1.2.3' }
/** Component names other than the shared validation problem every validated operation adds. */
const userComponents = (doc: OpenAPIDocument) =>
  Object.keys(doc.components.schemas).filter((name) => name !== 'ValidationProblem')

/** Generates and checks validity with the external validator: every document in these tests. */
async function gen(routes: StoredRoute[], options: Parameters<typeof generateSpec>[1] = { info }) {
  const doc = generateSpec(routes, options)
  await expectValidOpenAPI(doc)
  return doc
}

const op = (doc: OpenAPIDocument, path: string, method: string) => {
  const operation = doc.paths[path]?.[method]
  if (!operation)
    throw new Error(`no ${method} ${path} in ${JSON.stringify(Object.keys(doc.paths))}`)
  return operation
}

describe('document shell', () => {
  it('declares openapi 3.1.0 with info, servers and empty components', async () => {
    const doc = await gen([], {
      info: { ...info, description: 'd', termsOfService: 'https://example.com/tos' },
      servers: [{ url: 'https://api.example.com', description: 'prod' }],
    })
    expect(doc).toEqual({
      openapi: '3.1.0',
      info: { ...info, description: 'd', termsOfService: 'https://example.com/tos' },
      servers: [{ url: 'https://api.example.com', description: 'prod' }],
      security: [],
      paths: {},
      components: { schemas: {} },
    })
  })

  it('says the default server (`/`) and the default requirement (none) outright', async () => {
    // Redocly's recommended rules (no-empty-servers, security-defined) fail a document without.
    const doc = await gen([])
    expect(doc.servers).toEqual([{ url: '/' }])
    expect(doc.security).toEqual([])
  })

  it('documents a route without metadata with a default 200 response', async () => {
    const doc = await gen([{ method: 'get', path: '/health' }])
    expect(doc.paths).toEqual({
      '/health': {
        get: {
          summary: 'GET /health',
          responses: { '200': { description: 'Successful response' } },
        },
      },
    })
  })

  it('is deterministic: the same routes give the same document', async () => {
    const routes = (): StoredRoute[] => [
      { method: 'post', path: '/a', openapi: { request: { body: z.object({ x: z.string() }) } } },
      {
        method: 'get',
        path: '/b/:id',
        openapi: { responses: { 200: { description: 'ok', schema: z.object({ x: z.number() }) } } },
      },
    ]
    const doc = generateSpec(routes(), { info })
    expect(JSON.stringify(generateSpec(routes(), { info }))).toBe(JSON.stringify(doc))
    expect(userComponents(doc)).toEqual(['X', 'X2'])
    await expectValidOpenAPI(doc)
  })

  it('copies info and servers instead of sharing them with the options', () => {
    const options = { info: { ...info }, servers: [{ url: '/v1' }] }
    const doc = generateSpec([], options)
    options.info.title = 'changed'
    ;(options.servers[0] as { url: string }).url = '/v2'
    expect(doc.info.title).toBe('Test API')
    expect(doc.servers[0]?.url).toBe('/v1')
  })
})

describe('paths and path parameters', () => {
  it('turns :param into {param} and documents every template variable as a required string', async () => {
    const doc = await gen([{ method: 'get', path: '/orgs/:org/repos/:repo' }])
    expect(op(doc, '/orgs/{org}/repos/{repo}', 'get').parameters).toEqual([
      { name: 'org', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
    ])
  })

  it('documents :id{[0-9]+} as {id} with an anchored pattern', async () => {
    const doc = await gen([{ method: 'get', path: '/posts/:id{[0-9]+}' }])
    expect(op(doc, '/posts/{id}', 'get').parameters).toEqual([
      {
        name: 'id',
        in: 'path',
        required: true,
        schema: { type: 'string', pattern: '^(?:[0-9]+)$' },
      },
    ])
  })

  it('documents an optional parameter as both paths', async () => {
    const doc = await gen([
      { method: 'get', path: '/posts/:slug?', openapi: { operationId: 'listPosts' } },
    ])
    expect(Object.keys(doc.paths)).toEqual(['/posts', '/posts/{slug}'])
    expect(op(doc, '/posts', 'get').parameters).toBeUndefined()
    expect(op(doc, '/posts', 'get').operationId).toBe('listPostsWithoutSlug')
    expect(op(doc, '/posts/{slug}', 'get').operationId).toBe('listPosts')
    expect(op(doc, '/posts/{slug}', 'get').parameters?.[0]).toMatchObject({
      name: 'slug',
      in: 'path',
      required: true,
    })
  })

  it('types path parameters from the params schema and moves descriptions to the parameter', async () => {
    const doc = await gen([
      {
        method: 'get',
        path: '/users/:id/posts/:n',
        openapi: {
          request: {
            params: z.object({ id: z.uuid().describe('User ID'), n: z.coerce.number().int() }),
          },
        },
      },
    ])
    expect(op(doc, '/users/{id}/posts/{n}', 'get').parameters).toEqual([
      {
        name: 'id',
        in: 'path',
        required: true,
        description: 'User ID',
        schema: { type: 'string', format: 'uuid' },
      },
      {
        name: 'n',
        in: 'path',
        required: true,
        schema: { type: 'integer' },
      },
    ])
  })

  it('keeps the path regex on a typed string parameter', async () => {
    const doc = await gen([
      {
        method: 'get',
        path: '/p/:id{[a-z]+}',
        openapi: { request: { params: z.object({ id: z.string().max(9) }) } },
      },
    ])
    expect(op(doc, '/p/{id}', 'get').parameters?.[0]?.schema).toEqual({
      type: 'string',
      maxLength: 9,
      pattern: '^(?:[a-z]+)$',
    })
  })

  it('rejects a params property that is not in the path', () => {
    expect(() =>
      generateSpec(
        [
          {
            method: 'get',
            path: '/u/:id',
            openapi: { request: { params: z.object({ uid: z.string() }) } },
          },
        ],
        {
          info,
        },
      ),
    ).toThrow('openapi: GET /u/:id: request.params has "uid", which is not in the path')
  })

  it('rejects a path that names the same parameter twice', () => {
    expect(() => generateSpec([{ method: 'get', path: '/a/:id/b/:id' }], { info })).toThrow(
      'path parameter "id" appears twice',
    )
  })

  it('rejects the same path shape with different parameter names', () => {
    expect(() =>
      generateSpec(
        [
          { method: 'get', path: '/users/:id' },
          { method: 'delete', path: '/users/:userId' },
        ],
        { info },
      ),
    ).toThrow('/users/{userId} and /users/{id} are the same path with different parameter names')
  })

  it('skips wildcard routes without metadata and refuses them with metadata', async () => {
    const doc = await gen([
      { method: 'get', path: '/static/*' },
      { method: 'get', path: '/ok' },
    ])
    expect(Object.keys(doc.paths)).toEqual(['/ok'])
    expect(() =>
      generateSpec([{ method: 'get', path: '/files/*', openapi: { summary: 'Files' } }], { info }),
    ).toThrow(/wildcard path cannot be described/)
  })

  it('keeps paths in registration order and methods in OpenAPI order', async () => {
    const doc = await gen([
      { method: 'delete', path: '/b' },
      { method: 'post', path: '/a' },
      { method: 'get', path: '/b' },
    ])
    expect(Object.keys(doc.paths)).toEqual(['/b', '/a'])
    expect(Object.keys(doc.paths['/b'] ?? {})).toEqual(['get', 'delete'])
  })
})

describe('query and header parameters', () => {
  it('turns each query property into a query parameter with its required flag', async () => {
    const doc = await gen([
      {
        method: 'get',
        path: '/search',
        openapi: {
          request: {
            query: z.object({
              q: z.string().min(1).describe('Search text'),
              page: z.coerce.number().int().min(1).default(1),
              tags: z.array(z.string()).optional(),
            }),
          },
        },
      },
    ])
    expect(op(doc, '/search', 'get').parameters).toEqual([
      {
        name: 'q',
        in: 'query',
        required: true,
        description: 'Search text',
        schema: { type: 'string', minLength: 1 },
      },
      {
        name: 'page',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, default: 1 },
      },
      {
        name: 'tags',
        in: 'query',
        required: false,
        schema: { type: 'array', items: { type: 'string' } },
      },
    ])
  })

  it('turns each header property into a header parameter, dropping those OpenAPI ignores', async () => {
    const doc = await gen([
      {
        method: 'get',
        path: '/h',
        openapi: {
          request: {
            headers: z.object({
              'x-request-id': z.string().optional(),
              'x-tenant': z.string(),
              authorization: z.string(),
            }),
          },
        },
      },
    ])
    expect(op(doc, '/h', 'get').parameters).toEqual([
      { name: 'x-request-id', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'x-tenant', in: 'header', required: true, schema: { type: 'string' } },
    ])
  })

  it('orders parameters path, query, header', async () => {
    const doc = await gen([
      {
        method: 'get',
        path: '/u/:id',
        openapi: {
          request: { headers: z.object({ 'x-a': z.string() }), query: z.object({ q: z.string() }) },
        },
      },
    ])
    expect(op(doc, '/u/{id}', 'get').parameters?.map((p) => p.in)).toEqual([
      'path',
      'query',
      'header',
    ])
  })

  it('accepts raw JSON Schema and zod 3 objects for parameters, and merges allOf parts', async () => {
    const doc = await gen([
      {
        method: 'get',
        path: '/r',
        openapi: {
          request: {
            query: {
              allOf: [
                { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
                { type: 'object', properties: { b: { type: 'integer' } } },
              ],
            },
            headers: z3.object({ 'x-v': z3.string() }),
          },
        },
      },
    ])
    expect(op(doc, '/r', 'get').parameters).toEqual([
      { name: 'a', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'b', in: 'query', required: false, schema: { type: 'integer' } },
      { name: 'x-v', in: 'header', required: true, schema: { type: 'string' } },
    ])
  })

  it.each([
    ['a string schema', z.string()],
    ['a union', z.union([z.object({ a: z.string() }), z.object({ b: z.string() })])],
    ['an array', z.array(z.string())],
  ])('rejects %s as a query schema', (_label, query) => {
    expect(() =>
      generateSpec([{ method: 'get', path: '/q', openapi: { request: { query } } }], { info }),
    ).toThrow('openapi: GET /q: request.query must be an object schema')
  })
})

describe('request bodies, responses and components', () => {
  const User = z.object({ name: z.string(), email: z.email() })

  it('puts the request body in components, named from its properties', async () => {
    const doc = await gen([
      { method: 'post', path: '/users', openapi: { request: { body: User } } },
    ])
    expect(op(doc, '/users', 'post').requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NameAndEmail' } } },
    })
    expect(doc.components.schemas.NameAndEmail).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } },
      required: ['name', 'email'],
    })
  })

  it('shares one component between identical schemas from different routes and libraries', async () => {
    const doc = await gen([
      { method: 'post', path: '/a', openapi: { request: { body: User } } },
      {
        method: 'put',
        path: '/b',
        openapi: { request: { body: z.object({ name: z.string(), email: z.email() }) } },
      },
      {
        method: 'patch',
        path: '/c',
        openapi: {
          responses: {
            200: {
              description: 'ok',
              schema: z3.object({ name: z3.string(), email: z3.string().email() }),
            },
          },
        },
      },
    ])
    expect(userComponents(doc)).toEqual(['NameAndEmail'])
  })

  it('gives a different schema with the same name a numbered suffix and keeps both', async () => {
    const doc = await gen([
      { method: 'post', path: '/a', openapi: { request: { body: User } } },
      {
        method: 'post',
        path: '/b',
        openapi: { request: { body: z.object({ name: z.string(), email: z.number() }) } },
      },
    ])
    expect(userComponents(doc)).toEqual(['NameAndEmail', 'NameAndEmail2'])
    expect(op(doc, '/b', 'post').requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/NameAndEmail2',
    })
    expect(doc.components.schemas.NameAndEmail?.properties?.email).toEqual({
      type: 'string',
      format: 'email',
    })
  })

  it('names non-object bodies sensibly', async () => {
    const doc = await gen([
      { method: 'post', path: '/list', openapi: { request: { body: z.array(User) } } },
      { method: 'post', path: '/text', openapi: { request: { body: z.string() } } },
      {
        method: 'post',
        path: '/either',
        openapi: { request: { body: z.union([z.string(), z.number()]) } },
      },
    ])
    expect(userComponents(doc)).toEqual(['NameAndEmailList', 'String', 'StringOrNumber'])
  })

  it('documents responses with descriptions and schemas, by status code', async () => {
    const doc = await gen([
      {
        method: 'get',
        path: '/users/:id',
        openapi: {
          responses: {
            200: { description: 'The user', schema: User },
            404: { description: 'No such user' },
            201: { description: 'Plain text', schema: z.string(), contentType: 'text/plain' },
          },
        },
      },
    ])
    expect(op(doc, '/users/{id}', 'get').responses).toEqual({
      '200': {
        description: 'The user',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/NameAndEmail' } } },
      },
      '201': {
        description: 'Plain text',
        content: { 'text/plain': { schema: { $ref: '#/components/schemas/String' } } },
      },
      '404': { description: 'No such user' },
    })
  })

  it('fills in a missing response description from the status', async () => {
    const responses = { 404: {}, 499: { description: '' } } as never
    const doc = await gen([{ method: 'get', path: '/x', openapi: { responses } }])
    expect(op(doc, '/x', 'get').responses).toEqual({
      '404': { description: 'Not Found' },
      '499': { description: 'Status 499' },
    })
  })

  it('gives an operation with an empty responses object the default 200', async () => {
    const doc = await gen([{ method: 'get', path: '/x', openapi: { responses: {} } }])
    expect(op(doc, '/x', 'get').responses).toEqual({
      '200': { description: 'Successful response' },
    })
  })

  it.each(['99', '600', '2XX', 'ok'])('rejects the response key %s', (status) => {
    expect(() =>
      generateSpec(
        [
          {
            method: 'get',
            path: '/x',
            openapi: { responses: { [status]: { description: 'x' } } as never },
          },
        ],
        {
          info,
        },
      ),
    ).toThrow(`response status "${status}" is not an HTTP status code`)
  })

  it('never shares schema objects with the input', () => {
    const raw = { type: 'object', properties: { id: { type: 'string' } } }
    const query = { type: 'object', properties: { q: { type: 'string' } } }
    const doc = generateSpec(
      [{ method: 'post', path: '/x', openapi: { request: { body: raw, query } } }],
      { info },
    )
    raw.properties.id.type = 'number'
    query.properties.q.type = 'number'
    expect(doc.components.schemas.Id?.properties?.id).toEqual({ type: 'string' })
    expect(op(doc, '/x', 'post').parameters?.[0]?.schema).toEqual({ type: 'string' })
  })
})

describe('media types and header names', () => {
  it.each([
    ['an empty contentType', ''],
    ['a contentType without a subtype', 'text'],
    ['a contentType with a space', 'text/ plain'],
    ['a non-string contentType', 42],
  ])('rejects %s on a response', (_label, contentType) => {
    const route = {
      method: 'get',
      path: '/a',
      openapi: {
        responses: { 200: { description: 'ok', schema: z.string(), contentType } },
      },
    } as unknown as StoredRoute
    expect(() => generateSpec([route], { info })).toThrow(
      'openapi: GET /a: responses.200.contentType must be a media type such as "text/plain"',
    )
  })

  it('accepts media types with parameters, structured suffixes and wildcards', async () => {
    const types = ['text/plain; charset=utf-8', 'application/problem+json', 'image/*']
    const doc = await gen(
      types.map((contentType, i) => ({
        method: 'get',
        path: `/m${i}`,
        openapi: { responses: { 200: { description: 'ok', schema: z.string(), contentType } } },
      })),
    )
    expect(
      types.map(
        (_t, i) => Object.keys(op(doc, `/m${i}`, 'get').responses['200']?.content ?? {})[0],
      ),
    ).toEqual(types)
  })

  it('rejects a header property that is not an HTTP header name', () => {
    const route: StoredRoute = {
      method: 'get',
      path: '/a',
      openapi: { request: { headers: z.object({ 'bad header': z.string() }) } },
    }
    expect(() => generateSpec([route], { info })).toThrow(
      'openapi: GET /a: request.headers has "bad header", which is not an HTTP header name',
    )
  })
})

describe('schema references inside components', () => {
  /** Resolves a local `$ref` against the document, as a tool would. */
  const resolve = (doc: OpenAPIDocument, ref: string): unknown =>
    ref
      .slice(1)
      .split('/')
      .filter(Boolean)
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc)
  const refsOf = (node: unknown, out: string[] = []): string[] => {
    if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node))
        if (k === '$ref' && typeof v === 'string') out.push(v)
        else refsOf(v, out)
    return out
  }
  const Node: z.ZodType = z.object({
    name: z.string(),
    get children() {
      return z.array(Node)
    },
  })
  const body = (schema: unknown): StoredRoute[] => [
    {
      method: 'post',
      path: '/trees',
      openapi: { request: { body: schema }, responses: { 200: { description: 'ok', schema } } },
    },
  ]

  it.each([
    [
      'toJSONSchema() output with $defs',
      { toJSONSchema: () => z.toJSONSchema(z.object({ n: Node })) },
    ],
    [
      'raw JSON Schema with $defs',
      {
        type: 'object',
        properties: { a: { $ref: '#/$defs/A' } },
        $defs: { A: { type: 'string' } },
      },
    ],
  ])('keeps the $defs references of %s resolvable', async (_label, schema) => {
    const doc = await gen(body(schema))
    const refs = refsOf(doc.components.schemas)
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z0-9._-]+\/\$defs\//)
      expect(resolve(doc, ref), ref).toBeTypeOf('object')
    }
  })

  it('points a root self-reference (#) at the component, not at the document', async () => {
    const doc = await gen(body({ toJSONSchema: () => z.toJSONSchema(Node) }))
    const [name] = Object.keys(doc.components.schemas)
    expect(refsOf(doc.components.schemas)).toEqual([`#/components/schemas/${name}`])
  })

  it('leaves references to document components, and schemas with their own $id, alone', async () => {
    const toPet = { type: 'object', properties: { pet: { $ref: '#/components/schemas/Pet' } } }
    const withId = { $id: 'urn:tree', type: 'array', items: { $ref: '#' } }
    const doc = generateSpec(
      [
        ...body(toPet),
        {
          method: 'get',
          path: '/ids',
          openapi: { responses: { 200: { description: 'ok', schema: withId } } },
        },
      ],
      { info },
    )
    const schemas = Object.values(doc.components.schemas)
    expect(schemas).toContainEqual(toPet)
    expect(schemas).toContainEqual(withId)
  })
})

describe('operation metadata', () => {
  it('carries operationId, summary, description, tags and deprecated, and lists tags', async () => {
    const doc = await gen([
      {
        method: 'get',
        path: '/a',
        openapi: {
          operationId: 'getA',
          summary: 'Get A',
          description: 'Long',
          tags: ['a', 'shared'],
          deprecated: true,
        },
      },
      { method: 'get', path: '/b', openapi: { tags: ['shared', 'b'] } },
    ])
    expect(op(doc, '/a', 'get')).toEqual({
      operationId: 'getA',
      summary: 'Get A',
      description: 'Long',
      tags: ['a', 'shared'],
      deprecated: true,
      responses: { '200': { description: 'Successful response' } },
    })
    expect(doc.tags).toEqual([{ name: 'a' }, { name: 'shared' }, { name: 'b' }])
  })

  it('rejects a duplicate operationId with both routes named', () => {
    expect(() =>
      generateSpec(
        [
          { method: 'get', path: '/a', openapi: { operationId: 'same' } },
          { method: 'get', path: '/b', openapi: { operationId: 'same' } },
        ],
        { info },
      ),
    ).toThrow('openapi: GET /b: operationId "same" is already used by GET /a')
  })

  it.each([
    [{ summary: 1 }, 'openapi.summary must be a string'],
    [{ tags: 'x' }, 'openapi.tags must be an array of non-empty strings'],
    [{ deprecated: 'yes' }, 'openapi.deprecated must be a boolean'],
    [{ sumary: 'typo' }, 'unknown openapi field "sumary"'],
    [{ request: { bodyy: {} } }, 'unknown openapi.request field "bodyy"'],
    [{ responses: [] }, 'openapi.responses must be an object keyed by status code'],
    [{ operationId: '' }, 'openapi.operationId must not be empty'],
  ])('rejects malformed metadata %j', (meta, message) => {
    expect(() =>
      generateSpec([{ method: 'get', path: '/x', openapi: meta as never }], { info }),
    ).toThrow(message)
  })
})

describe('all routes and repeated registrations', () => {
  it('documents an all route under get, post, put, patch and delete with distinct operationIds', async () => {
    const doc = await gen([
      { method: 'all', path: '/echo', openapi: { operationId: 'echo', summary: 'Echo' } },
    ])
    expect(Object.keys(doc.paths['/echo'] ?? {})).toEqual(['get', 'put', 'post', 'delete', 'patch'])
    expect(Object.values(doc.paths['/echo'] ?? {}).map((o) => o.operationId)).toEqual([
      'echoGet',
      'echoPut',
      'echoPost',
      'echoDelete',
      'echoPatch',
    ])
  })

  it('lets a method route document its method over an all route, in either order', async () => {
    for (const routes of [
      [
        { method: 'all', path: '/x', openapi: { summary: 'any' } },
        { method: 'get', path: '/x', openapi: { summary: 'get' } },
      ],
      [
        { method: 'get', path: '/x', openapi: { summary: 'get' } },
        { method: 'all', path: '/x', openapi: { summary: 'any' } },
      ],
    ] as StoredRoute[][]) {
      const doc = await gen(routes)
      expect(op(doc, '/x', 'get').summary).toBe('get')
      expect(op(doc, '/x', 'post').summary).toBe('any')
    }
  })

  it('lets a route with metadata document a method+path over one without', async () => {
    const doc = await gen([
      { method: 'get', path: '/x' },
      { method: 'get', path: '/x', openapi: { summary: 'real' } },
    ])
    expect(op(doc, '/x', 'get').summary).toBe('real')
  })

  it('rejects two routes documenting the same method and path', () => {
    expect(() =>
      generateSpec(
        [
          { method: 'get', path: '/x', openapi: { summary: 'one' } },
          { method: 'get', path: '/x', openapi: { summary: 'two' } },
        ],
        { info },
      ),
    ).toThrow('GET /x is already documented by GET /x')
  })
})

describe('route records', () => {
  it.each([
    [
      { method: 'GET', path: '/x' },
      'openapi: GET /x: method must be one of get, post, put, patch, delete, all',
    ],
    [{ method: 'head', path: '/x' }, 'openapi: head /x: method must be one of'],
    [{ method: 'get' }, 'openapi: a route must be an object with a string path'],
  ])('rejects the record %j', (route, message) => {
    expect(() => generateSpec([route as never], { info })).toThrow(message)
  })
})

describe('option rules shared with openapi()', () => {
  it('rejects missing or bad options with a TypeError naming generateSpec, never a SyntaxError', () => {
    expect(() => generateSpec([], {} as never)).toThrow(
      /^generateSpec: info must be an object with `title` and `version`$/,
    )
    expect(() => generateSpec([], { info: { title: '', version: '1' } })).toThrow(
      /^generateSpec: info.title must be a non-empty string/,
    )
    expect(() => generateSpec([], { info, servers: 'x' as never })).toThrow(
      /servers must be an array/,
    )
    expect(() => generateSpec({} as never, { info })).toThrow(
      /^generateSpec: routes must be an array/,
    )
  })

  it('applies the same route rules as openapi() route registration', () => {
    expect(() =>
      generateSpec(
        [{ method: 'get', path: '/x', openapi: { responses: { 999: { description: 'x' } } } }],
        {
          info,
        },
      ),
    ).toThrow(/response status "999" is not an HTTP status code/)
  })
})
