// What middleware describe about themselves reaches the operations of the routes they run for.
// The protocol is exercised here with hand-made descriptions under the registered symbol, exactly
// as a third-party middleware would carry one; tests/openapi/ covers the Palisade middleware.
import { Hono, type MiddlewareHandler } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { expectValidOpenAPI } from '../../../../tests/openapi/validate'
import { openapi } from './openapi'

const KEY = Symbol.for('palisade.openapi.describe')
const info = { title: 'Test API', version: '1.0.0' }

function described(description: unknown): MiddlewareHandler {
  const mw: MiddlewareHandler = async (_c, next) => next()
  Object.defineProperty(mw, KEY, { value: description })
  return mw
}
const bearer = described({
  security: [[{ name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer' } }]],
  responses: [{ status: 401, description: 'No token', codes: ['token_missing'] }],
})
const keyIn = (name: string) =>
  described({
    security: [[{ name: 'apiKeyHeader', scheme: { type: 'apiKey', in: 'header', name } }]],
    responses: [{ status: 401, description: 'Bad key' }],
  })
const limit = described({
  responses: [
    {
      status: 429,
      description: 'Too many requests',
      headers: [{ name: 'Retry-After', description: 'Seconds', schema: { type: 'integer' } }],
    },
  ],
  headers: [{ name: 'RateLimit-Limit', description: 'Quota', schema: { type: 'integer' } }],
})
const traced = described({ headers: [{ name: 'X-Request-ID', description: 'ID', on: 'always' }] })
const problemHandler = Object.defineProperty(
  (_err: Error, c: { text: (s: string, n: number) => Response }) => c.text('x', 500),
  KEY,
  {
    value: {
      rejectionBody: {
        mediaType: 'application/problem+json',
        schemaName: 'Problem',
        schema: { type: 'object', properties: { code: { type: 'string' } } },
      },
    },
  },
)

const ok = (c: { text: (s: string) => Response }) => c.text('ok')

describe('middleware descriptions in the document', () => {
  it('reads route middlewares, api.use(path) and group use, outermost first', async () => {
    const api = openapi(new Hono(), { info })
    api.use('/api/*', limit)
    api.use(traced)
    api.group('/api/admin', (g) => {
      g.use(bearer)
      g.get('/stats', ok)
    })
    api.get('/api/ping', ok, [keyIn('X-Key')])
    api.get('/public', ok)
    const doc = api.spec()
    const stats = doc.paths['/api/admin/stats']?.get
    expect(stats?.security).toEqual([{ bearerAuth: [] }])
    expect(Object.keys(stats?.responses ?? {})).toEqual(['200', '401', '429'])
    expect(stats?.responses['200']?.headers).toEqual({
      'RateLimit-Limit': { description: 'Quota', schema: { type: 'integer' } },
      'X-Request-ID': { description: 'ID', schema: { type: 'string' } },
    })
    // `always` headers reach rejections too; success-only ones do not.
    expect(Object.keys(stats?.responses['401']?.headers ?? {})).toEqual(['X-Request-ID'])
    expect(Object.keys(stats?.responses['429']?.headers ?? {})).toEqual([
      'Retry-After',
      'X-Request-ID',
    ])
    expect(doc.paths['/api/ping']?.get?.security).toEqual([{ apiKeyHeader: [] }])
    const pub = doc.paths['/public']?.get
    expect(pub?.security).toEqual([])
    expect(Object.keys(pub?.responses ?? {})).toEqual(['200'])
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Key' },
    })
    await expectValidOpenAPI(doc)
  })

  it('ignores middleware registered after the route (Hono never runs it for that route)', () => {
    const api = openapi(new Hono(), { info })
    api.get('/a', ok)
    api.use('/a', bearer)
    expect(api.spec().paths['/a']?.get?.security).toBeUndefined()
  })

  it('matches use() patterns against parameterised and regex routes', () => {
    const api = openapi(new Hono(), { info })
    api.use('/books/:id/*', bearer)
    api.get('/books/:id{[0-9]+}/reviews', ok)
    api.get('/books', ok)
    const doc = api.spec()
    expect(doc.paths['/books/{id}/reviews']?.get?.security).toEqual([{ bearerAuth: [] }])
    expect(doc.paths['/books']?.get?.security).toEqual([])
  })

  it('requires several auth middleware together: one alternative holding all', () => {
    const both = described({
      security: [
        [{ name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer' } }],
        [{ name: 'jwtCookie', scheme: { type: 'apiKey', in: 'cookie', name: 'jwt' } }],
      ],
    })
    const api = openapi(new Hono(), { info })
    api.get('/x', ok, [both, keyIn('X-Key')])
    expect(api.spec().paths['/x']?.get?.security).toEqual([
      { bearerAuth: [], apiKeyHeader: [] },
      { jwtCookie: [], apiKeyHeader: [] },
    ])
  })

  it('shares a scheme name between instances that mean the same, numbers one that differs', () => {
    const api = openapi(new Hono(), { info })
    api.get('/a', ok, [keyIn('X-Key')])
    api.get('/b', ok, [keyIn('X-Key')])
    api.get('/c', ok, [keyIn('X-Other')])
    const doc = api.spec()
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual([
      'apiKeyHeader',
      'apiKeyHeader2',
    ])
    expect(doc.paths['/b']?.get?.security).toEqual([{ apiKeyHeader: [] }])
    expect(doc.paths['/c']?.get?.security).toEqual([{ apiKeyHeader2: [] }])
  })

  it('lets route security win (`[]` marks a public route) and securitySchemes declare auth that is not described', () => {
    const api = openapi(new Hono(), {
      info,
      securitySchemes: { gateway: { type: 'apiKey', in: 'header', name: 'X-Gateway' } },
    })
    api.get('/open', ok, { middlewares: [bearer], openapi: { security: [] } })
    api.get('/gw', ok, { openapi: { security: [{ gateway: [] }] } })
    api.get('/either', ok, {
      middlewares: [bearer],
      openapi: { security: [{ gateway: [] }, { bearerAuth: [] }] },
    })
    const doc = api.spec()
    expect(doc.paths['/open']?.get?.security).toEqual([])
    // The middleware still answers 401, so the document still says so.
    expect(doc.paths['/open']?.get?.responses['401']).toBeDefined()
    expect(doc.paths['/gw']?.get?.security).toEqual([{ gateway: [] }])
    expect(doc.paths['/either']?.get?.security).toEqual([{ gateway: [] }, { bearerAuth: [] }])
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual(['gateway', 'bearerAuth'])
  })

  it('refuses security naming an unknown scheme, and malformed security or schemes', () => {
    const api = openapi(new Hono(), { info })
    expect(() => api.get('/x', ok, { openapi: { security: [{ nope: [] }] } })).toThrow(
      /security names "nope"/,
    )
    expect(() => api.get('/y', ok, { openapi: { security: { bearerAuth: [] } as never } })).toThrow(
      /openapi.security must be an array/,
    )
    expect(() =>
      openapi(new Hono(), { info, securitySchemes: { x: { type: 'apiKey' } as never } }),
    ).toThrow(/securitySchemes.x an apiKey scheme needs `name`/)
    expect(() =>
      openapi(new Hono(), { info, securitySchemes: { 'a b': { type: 'mutualTLS' } } }),
    ).toThrow(TypeError)
  })

  it('never overwrites a response the route declared', () => {
    const api = openapi(new Hono(), { info })
    api.get('/x', ok, {
      middlewares: [bearer, limit],
      openapi: {
        responses: {
          200: { description: 'Fine' },
          401: { description: 'Log in first', schema: z.object({ login: z.string() }) },
        },
      },
    })
    const op = api.spec().paths['/x']?.get
    expect(op?.responses['401']?.description).toBe('Log in first')
    expect(Object.keys(op?.responses['401']?.content ?? {})).toEqual(['application/json'])
    expect(op?.responses['429']?.description).toBe('Too many requests')
  })

  it('merges several middleware answering one status into one response', () => {
    const api = openapi(new Hono(), { info })
    api.get('/x', ok, [bearer, keyIn('X-Key')])
    expect(api.spec().paths['/x']?.get?.responses['401']?.description).toBe(
      'No token (`token_missing`); Bad key',
    )
  })

  it('documents rejections as text/plain, or with the body the error handler describes', async () => {
    const plain = openapi(new Hono(), { info })
    plain.get('/x', ok, [bearer])
    expect(plain.spec().paths['/x']?.get?.responses['401']?.content).toEqual({
      'text/plain': { schema: { type: 'string' } },
    })
    const api = openapi(new Hono(), { info })
    api.onError(problemHandler as never)
    api.get('/x', ok, [bearer])
    api.get('/health', ok)
    const doc = api.spec()
    expect(doc.paths['/x']?.get?.responses['401']?.content).toEqual({
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    })
    // An operation with no client error of its own still says what one looks like.
    expect(doc.paths['/health']?.get?.responses['4XX']?.content).toEqual({
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    })
    await expectValidOpenAPI(doc)
  })

  it('shares the validation 400 with a middleware 400, listing both bodies', () => {
    const malformed = described({ responses: [{ status: 400, description: 'Malformed JSON' }] })
    const api = openapi(new Hono(), { info })
    api.onError(problemHandler as never)
    api.post('/x', ok, {
      middlewares: [malformed],
      openapi: { request: { body: z.object({ a: z.string() }) } },
    })
    const bad = api.spec().paths['/x']?.post?.responses['400']
    expect(bad?.description).toMatch(/; Malformed JSON$/)
    expect(bad?.content?.['application/problem+json']?.schema).toEqual({
      anyOf: [
        { $ref: '#/components/schemas/ValidationProblem' },
        { $ref: '#/components/schemas/Problem' },
      ],
    })
  })

  it('limits a description to its methods', () => {
    const unsafe = described({
      methods: ['POST'],
      responses: [{ status: 403, description: 'Invalid CSRF token' }],
    })
    const api = openapi(new Hono(), { info })
    api.use('/f/*', unsafe)
    api.get('/f/a', ok)
    api.post('/f/a', ok)
    const doc = api.spec()
    expect(doc.paths['/f/a']?.get?.responses['403']).toBeUndefined()
    expect(doc.paths['/f/a']?.post?.responses['403']).toBeDefined()
  })

  it('turns accepted request media types into the request body content', () => {
    const multipart = described({
      requestMediaTypes: ['multipart/form-data'],
      responses: [{ status: 415, description: 'Unsupported' }],
    })
    const json = described({ requestMediaTypes: ['application/json', 'text/*'] })
    const api = openapi(new Hono(), { info })
    api.post('/upload', ok, [multipart])
    api.post('/json', ok, {
      middlewares: [json],
      openapi: { request: { body: z.object({ a: z.string() }) } },
      validate: false,
    })
    const doc = api.spec()
    expect(doc.paths['/upload']?.post?.requestBody).toEqual({
      required: true,
      content: { 'multipart/form-data': { schema: {} } },
    })
    // A declared JSON body stays, as the guard accepts it.
    expect(Object.keys(doc.paths['/json']?.post?.requestBody?.content ?? {})).toEqual([
      'application/json',
    ])
  })

  it('skips malformed descriptions instead of trusting them', async () => {
    const junk = described({
      security: [[{ name: 'x', scheme: { type: 'magic' } }], 'nope'],
      responses: [{ status: 999, description: 'x' }, { status: 400 }, null],
      headers: [{ name: 'Bad Header', description: 'x' }],
      requestMediaTypes: ['not a type'],
      methods: 'GET',
    })
    const api = openapi(new Hono(), { info })
    api.get('/x', ok, [junk, described(null), described('string')])
    const op = api.spec().paths['/x']?.get
    expect(op?.security).toBeUndefined()
    expect(Object.keys(op?.responses ?? {})).toEqual(['200'])
    await expectValidOpenAPI(api.spec())
  })
})
