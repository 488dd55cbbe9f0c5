// Over 300 lines: request validation end to end through openapi(), for each schema library and
// each request part, on one set of helpers (splitting the file would copy them).
import { toJsonSchema } from '@valibot/to-json-schema'
import Ajv2020 from 'ajv/dist/2020'
import { type } from 'arktype'
import { type Context, Hono } from 'hono'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { expectValidOpenAPI } from '../../../../tests/openapi/validate'
import { openapi } from '../app/openapi'
import type { OpenAPIOptions } from '../model/options'
import { PROBLEM_JSON, type ValidationProblem } from './problem'

const info = { title: 'Validation', version: '1.0.0' }
const make = (options: Partial<OpenAPIOptions> = {}) =>
  openapi(new Hono(), { info, converters: { valibot: toJsonSchema }, ...options })

/** A POST with `body`; `contentType: null` sends no Content-Type at all. */
const post = (body: string, contentType: string | null = 'application/json') => {
  const headers = new Headers()
  if (contentType !== null) headers.set('Content-Type', contentType)
  return { method: 'POST', body: new TextEncoder().encode(body), headers } as RequestInit
}

async function problem(res: Response, status = 400): Promise<ValidationProblem> {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toBe(PROBLEM_JSON)
  return (await res.json()) as ValidationProblem
}

/** The same body schema in each library: `{ name: string (min 1), age: integer ≥ 0 }`. */
const libraries = {
  'zod 4': z.object({ name: z.string().min(1), age: z.number().int().min(0) }),
  'zod 3': z3.object({ name: z3.string().min(1), age: z3.number().int().min(0) }),
  valibot: v.object({
    name: v.pipe(v.string(), v.minLength(1)),
    age: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
  arktype: type({ name: 'string > 0', age: 'number.integer >= 0' }),
}

describe.each(Object.entries(libraries))('a JSON body validated with %s', (_name, schema) => {
  const api = make()
  api.post('/people', (c) => c.json({ got: c.req.valid('json') }, 201), {
    openapi: { request: { body: schema } },
  })

  it('passes the parsed body to the handler through c.req.valid("json")', async () => {
    const res = await api.request('/people', post('{"name":"Ada","age":36}'))
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ got: { name: 'Ada', age: 36 } })
  })

  it('answers 400 problem details with a JSON pointer for each bad field', async () => {
    const p = await problem(await api.request('/people', post('{"name":"","age":"x"}')))
    expect(p).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400 })
    expect(p.code).toBe('validation_failed')
    expect(p.errors.map((e) => [e.in, e.path]).sort()).toEqual([
      ['body', '/age'],
      ['body', '/name'],
    ])
    for (const e of p.errors) expect(e.message).toEqual(expect.any(String))
  })

  it.each([
    ['malformed JSON', '{bad'],
    ['an empty body', ''],
    ['whitespace only', '  \n'],
    ['null', 'null'],
    ['an array', '[1,2]'],
    ['a string', '"Ada"'],
    ['a missing field', '{"name":"Ada"}'],
  ])('answers 400, never 500, to %s', async (_what, body) => {
    const p = await problem(await api.request('/people', post(body)))
    expect(p.errors.length).toBeGreaterThan(0)
    expect(p.errors.every((e) => e.in === 'body')).toBe(true)
  })

  it.each([
    ['text/plain', '{"name":"Ada","age":1}'],
    ['application/x-www-form-urlencoded', 'name=Ada&age=1'],
    [null, '{"name":"Ada","age":1}'],
  ])('answers 415 to a body sent as %s', async (contentType, body) => {
    const p = await problem(await api.request('/people', post(body, contentType)), 415)
    expect(p.code).toBe('unsupported_media_type')
  })

  it('answers 415 with Accept-Encoding: identity to a body sent with a content coding, and documents it', async () => {
    const gzipped = new Uint8Array(
      await new Response(
        new Blob(['{"name":"Ada","age":1}']).stream().pipeThrough(new CompressionStream('gzip')),
      ).arrayBuffer(),
    )
    for (const coding of ['gzip', 'deflate, gzip', 'br']) {
      const res = await api.request('/people', {
        method: 'POST',
        body: gzipped,
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
      })
      expect(res.headers.get('accept-encoding'), coding).toBe('identity')
      const p = await problem(res, 415)
      expect(p.code).toBe('unsupported_media_type')
      expect(p.errors[0]?.message).toContain(`Content-Encoding ${coding} is not accepted`)
    }
    // `identity` is no coding: read as before.
    const plain = await api.request('/people', {
      method: 'POST',
      body: '{"name":"Ada","age":1}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    })
    expect(plain.status).toBe(201)
    const documented = api.spec().paths['/people']?.post?.responses?.['415'] as {
      headers?: Record<string, unknown>
    }
    expect(Object.keys(documented.headers ?? {})).toEqual(['Accept-Encoding'])
  })

  it('accepts application/*+json and a charset parameter', async () => {
    for (const ct of ['application/merge-patch+json', 'application/json; charset=utf-8']) {
      const res = await api.request('/people', post('{"name":"Ada","age":1}', ct))
      expect(res.status, ct).toBe(201)
    }
  })
})

describe('query, path and header validation', () => {
  const api = make()
  api.get(
    '/items/:id',
    (c) =>
      c.json({
        params: c.req.valid('param'),
        query: c.req.valid('query'),
        h: c.req.valid('header'),
      }),
    {
      openapi: {
        request: {
          params: z.object({ id: z.coerce.number().int().positive() }),
          query: z.object({
            page: z.coerce.number().int().min(1).default(1),
            tag: z.array(z.string()).optional(),
          }),
          headers: z.object({ 'X-Tenant': z.string().min(2) }),
        },
      },
    },
  )

  it('coerces, applies defaults, keeps arrays as arrays and matches headers case-insensitively', async () => {
    const res = await api.request('/items/7?tag=a', { headers: { 'x-tenant': 'acme' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      params: { id: 7 },
      query: { page: 1, tag: ['a'] },
      h: { 'X-Tenant': 'acme' },
    })
    const two = await api.request('/items/7?tag=a&tag=b&page=3', {
      headers: { 'X-Tenant': 'acme' },
    })
    expect((await two.json()).query).toEqual({ page: 3, tag: ['a', 'b'] })
  })

  it('reports every failing part at once, each with its location', async () => {
    const p = await problem(await api.request('/items/zero?page=0'))
    expect(p.errors.map((e) => `${e.in} ${e.path}`).sort()).toEqual([
      'header /X-Tenant',
      'path /id',
      'query /page',
    ])
  })

  it('answers 400 to a repeated query key the schema wants once', async () => {
    const p = await problem(
      await api.request('/items/1?page=1&page=2', { headers: { 'X-Tenant': 'ab' } }),
    )
    expect(p.errors).toEqual([expect.objectContaining({ in: 'query', path: '/page' })])
  })
})

describe('form bodies', () => {
  const api = make()
  api.post('/upload', (c) => c.json(c.req.valid('form')), {
    openapi: {
      request: {
        form: z.object({ title: z.string().min(1), tags: z.array(z.string()).default([]) }),
      },
    },
  })

  it('validates multipart/form-data', async () => {
    const fd = new FormData()
    fd.append('title', 'Report')
    fd.append('tags', 'a')
    const res = await api.request('/upload', { method: 'POST', body: fd })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ title: 'Report', tags: ['a'] })
  })

  it('validates application/x-www-form-urlencoded', async () => {
    const ok = await api.request(
      '/upload',
      post('title=Hi&tags=a&tags=b', 'application/x-www-form-urlencoded'),
    )
    expect(await ok.json()).toEqual({ title: 'Hi', tags: ['a', 'b'] })
    const p = await problem(
      await api.request('/upload', post('tags=a', 'application/x-www-form-urlencoded')),
    )
    expect(p.errors).toEqual([expect.objectContaining({ in: 'body', path: '/title' })])
  })

  it('answers 415 to JSON and 400 to a broken multipart body', async () => {
    await problem(await api.request('/upload', post('{"title":"x"}')), 415)
    const encoded = await api.request('/upload', {
      method: 'POST',
      body: 'title=Hi',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-encoding': 'gzip',
      },
    })
    expect(encoded.headers.get('accept-encoding')).toBe('identity')
    await problem(encoded, 415)
    await problem(
      await api.request('/upload', post('--x\r\nbroken', 'multipart/form-data; boundary=x')),
    )
  })

  it('documents both form media types and refuses body and form together', () => {
    const content = api.spec().paths['/upload']?.post?.requestBody?.content ?? {}
    expect(Object.keys(content)).toEqual([
      'multipart/form-data',
      'application/x-www-form-urlencoded',
    ])
    expect(() =>
      api.post('/both', (c) => c.text(''), {
        openapi: { request: { body: z.object({}), form: z.object({}) } },
      }),
    ).toThrow(/both body \(JSON\) and form/)
  })
})

describe('where validation runs and how to turn it off', () => {
  const Body = z.object({ n: z.number() })

  it('runs after route middleware and before the handler', async () => {
    const api = make()
    const seen: string[] = []
    api.post(
      '/x',
      (c) => {
        seen.push('handler')
        return c.text('ok')
      },
      {
        middlewares: [
          async (c, next) => {
            seen.push('middleware')
            if (c.req.header('x-deny')) return c.text('denied', 403)
            await next()
          },
        ],
        openapi: { request: { body: Body } },
      },
    )
    expect((await api.request('/x', post('{bad'))).status).toBe(400)
    expect(seen).toEqual(['middleware'])
    const denied = await api.request('/x', { ...post('{bad'), headers: { 'x-deny': '1' } })
    expect(denied.status).toBe(403)
    expect((await api.request('/x', post('{"n":1}'))).status).toBe(200)
    expect(seen).toEqual(['middleware', 'middleware', 'middleware', 'handler'])
  })

  it('is off for a route with validate: false, and app-wide with validation: false', async () => {
    const api = make()
    api.post('/off', (c) => c.text('reached'), {
      validate: false,
      openapi: { request: { body: Body } },
    })
    expect(await (await api.request('/off', post('{bad'))).text()).toBe('reached')
    expect(api.spec().paths['/off']?.post?.responses['400']).toBeUndefined()

    const off = make({ validation: false })
    off.post('/x', (c) => c.text('reached'), { openapi: { request: { body: Body } } })
    off.post('/on', (c) => c.text('reached'), {
      validate: true,
      openapi: { request: { body: Body } },
    })
    expect(await (await off.request('/x', post('{bad'))).text()).toBe('reached')
    expect((await off.request('/on', post('{bad'))).status).toBe(400)
    expect(off.spec().paths['/x']?.post?.responses['400']).toBeUndefined()
    expect(off.spec().paths['/on']?.post?.responses['400']).toBeDefined()
  })

  it('leaves raw JSON Schema as documentation unless jsonSchemaValidator is given', async () => {
    const raw = {
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
    }
    const docsOnly = make()
    docsOnly.post('/x', (c) => c.text('reached'), { openapi: { request: { body: raw } } })
    expect(await (await docsOnly.request('/x', post('{"n":"no"}'))).text()).toBe('reached')
    expect(docsOnly.spec().paths['/x']?.post?.responses['400']).toBeUndefined()

    const ajv = new Ajv2020({ allErrors: true })
    const api = make({
      jsonSchemaValidator: (schema) => {
        const check = ajv.compile(schema)
        return (value) =>
          check(value)
            ? { value }
            : {
                issues: (check.errors ?? []).map((e) => ({
                  message: e.message ?? 'invalid',
                  path: e.instancePath.split('/').slice(1),
                })),
              }
      },
    })
    api.post('/x', (c) => c.json(c.req.valid('json')), { openapi: { request: { body: raw } } })
    const p = await problem(await api.request('/x', post('{"n":"no"}')))
    expect(p.errors).toEqual([{ in: 'body', path: '/n', message: 'must be integer' }])
    expect(await (await api.request('/x', post('{"n":2}'))).json()).toEqual({ n: 2 })
  })

  // A validator that says "failed" without saying why still failed: an empty issue list is a
  // rejection, never a pass with an undefined value.
  it.each([
    ['synchronously', () => ({ issues: [] })],
    ['asynchronously', async () => ({ issues: [] })],
  ])('rejects with 400 when jsonSchemaValidator fails %s with no issues', async (_how, fail) => {
    const raw = { type: 'object', properties: { n: { type: 'string' } } }
    let reached = 0
    const api = make({ jsonSchemaValidator: () => fail })
    const handler = (c: Context) => {
      reached++
      return c.text('reached')
    }
    api.post('/body', handler, { openapi: { request: { body: raw } } })
    api.get('/query', handler, { openapi: { request: { query: raw } } })
    const body = await problem(await api.request('/body', post('{"n":"1"}')))
    const query = await problem(await api.request('/query?n=1'))
    expect([body.code, body.errors]).toEqual([
      'validation_failed',
      [{ in: 'body', path: '', message: 'Invalid value' }],
    ])
    expect([query.code, query.errors]).toEqual([
      'validation_failed',
      [{ in: 'query', path: '', message: 'Invalid value' }],
    ])
    expect(reached).toBe(0)
  })

  it('lets onValidationError reshape failures, per route over app-wide', async () => {
    const api = make({
      onValidationError: (p, c) => c.json({ app: p.errors.length }, 422),
    })
    api.post('/app', (c) => c.text('ok'), { openapi: { request: { body: Body } } })
    api.post('/route', (c) => c.text('ok'), {
      onValidationError: (p, c) => c.json({ route: p.status }, 400),
      openapi: { request: { body: Body } },
    })
    api.post('/default', (c) => c.text('ok'), {
      onValidationError: () => undefined,
      openapi: { request: { body: Body } },
    })
    const a = await api.request('/app', post('{}'))
    expect([a.status, await a.json()]).toEqual([422, { app: 1 }])
    const r = await api.request('/route', post('{}', 'text/plain'))
    expect([r.status, await r.json()]).toEqual([400, { route: 415 }])
    await problem(await api.request('/default', post('{}')))
  })

  it('rejects bad validation options at construction', () => {
    expect(() => make({ validation: 'yes' as never })).toThrow(
      /^openapi: validation must be a boolean/,
    )
    expect(() => make({ onValidationError: 1 as never })).toThrow(
      /onValidationError must be a function/,
    )
    const api = make()
    expect(() => api.get('/x', (c) => c.text(''), { validate: 1 as never })).toThrow(
      /validate must be a boolean/,
    )
  })
})

describe('the document', () => {
  it('gives every validated operation a 400 referencing one shared problem component', async () => {
    const api = make()
    api.post('/a', (c) => c.text(''), {
      openapi: { request: { body: z.object({ a: z.string() }) } },
    })
    api.get('/b', (c) => c.text(''), {
      openapi: { request: { query: v.object({ q: v.string() }) } },
    })
    api.post('/c', (c) => c.text(''), {
      openapi: {
        request: { body: z.object({ c: z.string() }) },
        responses: { 200: { description: 'Done' }, 400: { description: 'Our own' } },
      },
    })
    api.get('/d', (c) => c.text(''), { openapi: { summary: 'no request' } })
    const doc = api.spec()
    const ref = { $ref: '#/components/schemas/ValidationProblem' }
    for (const path of ['/a', '/b']) {
      const op = doc.paths[path]?.post ?? doc.paths[path]?.get
      expect(op?.responses['400']?.content).toEqual({ [PROBLEM_JSON]: { schema: ref } })
    }
    expect(doc.paths['/c']?.post?.responses['400']).toEqual({ description: 'Our own' })
    expect(doc.paths['/d']?.get?.responses['400']).toBeUndefined()
    expect(Object.keys(doc.components.schemas).filter((n) => n.startsWith('Validation'))).toEqual([
      'ValidationProblem',
    ])
    await expectValidOpenAPI(doc)
  })

  it('documents top-level tags with descriptions, then tags the routes use', () => {
    const api = make({ tags: [{ name: 'pets', description: 'Everything about pets' }] })
    api.get('/x', (c) => c.text(''), { openapi: { tags: ['other', 'pets'] } })
    expect(api.spec().tags).toEqual([
      { name: 'pets', description: 'Everything about pets' },
      { name: 'other' },
    ])
    expect(() => make({ tags: [{ name: 'a' }, { name: 'a' }] })).toThrow(/listed twice/)
  })
})
