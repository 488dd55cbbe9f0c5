/**
 * Issue 5, point 6: the public types of SPEC are exported from the package entry, with field
 * lists a user can read. The type assertions are checked by the root typecheck (`tsc`), so a
 * renamed, removed or retyped field fails it; the runtime part checks the entry's values.
 */

import type {
  OpenAPIDocument,
  OpenAPIOptions,
  OpenAPIParameter,
  OpenAPIPathItem,
  OpenAPIRequestBody,
  OpenAPIResponse,
  OpenAPISchema,
  RouteOptions,
  StoredRoute,
} from '@palisade/openapi'
import * as entry from '@palisade/openapi'
import { Hono } from 'hono'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'

describe('the @palisade/openapi entry', () => {
  it('exports the runtime API of SPEC', () => {
    expect(typeof entry.openapi).toBe('function')
    expect(typeof entry.generateSpec).toBe('function')
    expect(typeof entry.toOpenAPISchema).toBe('function')
    expect(typeof entry.explorerUIHTML).toBe('function')
    expect(typeof entry.referenceHTML).toBe('function')
    expect(entry.OPENAPI_VERSION).toBe('3.1.0')
  })

  it('exports OpenAPIOptions with info, servers and the three endpoint paths', () => {
    expectTypeOf<OpenAPIOptions['info']>().toHaveProperty('title').toEqualTypeOf<string>()
    expectTypeOf<OpenAPIOptions['info']>().toHaveProperty('version').toEqualTypeOf<string>()
    expectTypeOf<OpenAPIOptions>()
      .toHaveProperty('servers')
      .toEqualTypeOf<{ url: string; description?: string }[] | undefined>()
    expectTypeOf<OpenAPIOptions>().toHaveProperty('specPath').toEqualTypeOf<string | undefined>()
    expectTypeOf<OpenAPIOptions>()
      .toHaveProperty('explorerPath')
      .toEqualTypeOf<string | undefined>()
    expectTypeOf<OpenAPIOptions>()
      .toHaveProperty('referencePath')
      .toEqualTypeOf<string | undefined>()
    // The deprecated names of the two page paths, kept for one minor version.
    expectTypeOf<OpenAPIOptions>().toHaveProperty('docsPath').toEqualTypeOf<string | undefined>()
    expectTypeOf<OpenAPIOptions>().toHaveProperty('redocPath').toEqualTypeOf<string | undefined>()
    const options: OpenAPIOptions = { info: { title: 'T', version: '1' } }
    expect(entry.openapi(new Hono(), options).spec().info).toEqual(options.info)
  })

  it('exports StoredRoute and RouteOptions as the records the wrapper keeps', () => {
    expectTypeOf<StoredRoute['method']>().toEqualTypeOf<
      'get' | 'post' | 'put' | 'patch' | 'delete' | 'all'
    >()
    expectTypeOf<StoredRoute['path']>().toEqualTypeOf<string>()
    expectTypeOf<RouteOptions>().toHaveProperty('middlewares')
    expectTypeOf<RouteOptions>().toHaveProperty('openapi')
    const api = entry.openapi(new Hono(), { info: { title: 'T', version: '1' } })
    api.get('/a/:id', (c) => c.text('a'), { openapi: { summary: 'A' } })
    const routes: readonly StoredRoute[] = api.routes
    expect(routes).toEqual([{ method: 'get', path: '/a/:id', openapi: { summary: 'A' } }])
  })

  it('exports the document part types, matching what spec() returns', () => {
    expectTypeOf<OpenAPIParameter['in']>().toEqualTypeOf<'path' | 'query' | 'header'>()
    expectTypeOf<OpenAPIParameter['required']>().toEqualTypeOf<boolean>()
    expectTypeOf<OpenAPIParameter['schema']>().toEqualTypeOf<OpenAPISchema>()
    expectTypeOf<OpenAPIRequestBody['content']>().toEqualTypeOf<
      Record<string, { schema: OpenAPISchema }>
    >()
    expectTypeOf<OpenAPIResponse['description']>().toEqualTypeOf<string>()
    expectTypeOf<OpenAPIPathItem['responses']>().toEqualTypeOf<Record<string, OpenAPIResponse>>()
    expectTypeOf<OpenAPIPathItem['parameters']>().toEqualTypeOf<OpenAPIParameter[] | undefined>()
    expectTypeOf<OpenAPIPathItem['requestBody']>().toEqualTypeOf<OpenAPIRequestBody | undefined>()
    expectTypeOf<OpenAPIDocument['paths']>().toEqualTypeOf<
      Record<string, Record<string, OpenAPIPathItem>>
    >()

    const api = entry.openapi(new Hono(), { info: { title: 'T', version: '1' } })
    api.post('/users/:id', (c) => c.json({ id: c.req.param('id') }, 201), {
      openapi: {
        request: { body: z.object({ name: z.string() }), query: z.object({ q: z.string() }) },
        responses: { 201: { description: 'Created', schema: z.object({ id: z.string() }) } },
      },
    })
    const operation: OpenAPIPathItem | undefined = api.spec().paths['/users/{id}']?.post
    const parameters: OpenAPIParameter[] = operation?.parameters ?? []
    expect(parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['q', 'query', true],
    ])
    const body: OpenAPIRequestBody | undefined = operation?.requestBody
    expect(Object.keys(body?.content ?? {})).toEqual(['application/json'])
    const created: OpenAPIResponse | undefined = operation?.responses['201']
    expect(created?.description).toBe('Created')
    const schema: OpenAPISchema = entry.toOpenAPISchema(z.string())
    expect(schema).toEqual({ type: 'string' })
  })
})
