import { toJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { expectValidOpenAPI } from '../../../../tests/openapi/validate'
import type { OpenAPIDocument } from '../model/document'
import type { StoredRoute } from '../model/route'
import { component } from '../schema/names'
import { generateSpec } from './generate'

const info = { title: 'Components', version: '1.0.0' }
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

async function gen(routes: StoredRoute[]): Promise<OpenAPIDocument> {
  const doc = generateSpec(routes, { info, converters: { valibot: toJsonSchema } })
  await expectValidOpenAPI(doc)
  return doc
}

const response = (schema: unknown) => ({ 200: { description: 'ok', schema } })

describe('components as users name them', () => {
  it('gives a nested zod 4 schema named with .meta({ id }) its own component, $ref-ed', async () => {
    const Book = z.object({ title: z.string() }).meta({ id: 'Book' })
    const BookPage = z
      .object({ items: z.array(Book), next: z.string().optional() })
      .meta({ id: 'BookPage' })
    const doc = await gen([
      { method: 'get', path: '/books', openapi: { responses: response(BookPage) } },
      { method: 'post', path: '/books', openapi: { request: { body: Book } } },
    ])
    expect(doc.components.schemas.BookPage).toEqual({
      type: 'object',
      properties: { items: { type: 'array', items: ref('Book') }, next: { type: 'string' } },
      required: ['items'],
    })
    expect(doc.components.schemas.Book).toEqual({
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
    })
    expect(
      doc.paths['/books']?.get?.responses['200']?.content?.['application/json']?.schema,
    ).toEqual(ref('BookPage'))
    expect(doc.paths['/books']?.post?.requestBody?.content['application/json']?.schema).toEqual(
      ref('Book'),
    )
  })

  it('names by zod 4 title too, and names zod 3 (or any) schemas with component()', async () => {
    const Author = z.object({ name: z.string() }).meta({ title: 'Author' })
    const Tag = component('Tag', z3.object({ label: z3.string() }))
    const doc = await gen([
      {
        method: 'get',
        path: '/a',
        openapi: { responses: response(z.object({ author: Author, first: Author.optional() })) },
      },
      { method: 'get', path: '/t', openapi: { responses: response(z3.array(Tag)) } },
    ])
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Author', 'Tag', 'TagList']),
    )
    expect(JSON.stringify(doc.paths)).not.toContain('"label"')
    expect(doc.components.schemas.TagList).toEqual({ type: 'array', items: ref('Tag') })
    expect(() => component('bad name', {})).toThrow(/^component: name must match/)
  })

  it('gives two different schemas with one name a numbered suffix', async () => {
    const A = z.object({ a: z.string() }).meta({ id: 'Item' })
    const B = z.object({ b: z.string() }).meta({ id: 'Item' })
    const doc = await gen([
      { method: 'get', path: '/x', openapi: { responses: response(z.object({ a: A, b: B })) } },
    ])
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['AAndB', 'Item', 'Item2'])
  })

  it('turns recursive zod 4 getters and zod 3 lazy schemas into $ref cycles, never {}', async () => {
    const Category4 = z
      .object({
        name: z.string(),
        get children() {
          return z.array(Category4)
        },
      })
      .meta({ id: 'Category' })
    interface Node {
      value: number
      next?: Node | undefined
    }
    const Node3: z3.ZodType<Node> = z3.object({
      value: z3.number(),
      next: z3.lazy(() => Node3).optional(),
    })
    const doc = await gen([
      { method: 'get', path: '/c', openapi: { responses: response(Category4) } },
      { method: 'get', path: '/n', openapi: { responses: response(z3.object({ head: Node3 })) } },
    ])
    expect(doc.components.schemas.Category).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: ref('Category') } },
      required: ['name', 'children'],
    })
    expect(doc.components.schemas.ValueAndNext).toEqual({
      type: 'object',
      properties: { value: { type: 'number' }, next: ref('ValueAndNext') },
      required: ['value'],
    })
    expect(JSON.stringify(doc)).not.toContain('{}')
  })

  it('reads Standard JSON Schema (arktype) and valibot through its converter', async () => {
    const doc = await gen([
      {
        method: 'post',
        path: '/ark',
        openapi: { request: { body: type({ name: 'string', age: 'number' }) } },
      },
      {
        method: 'post',
        path: '/vb',
        openapi: { request: { body: v.object({ email: v.pipe(v.string(), v.email()) }) } },
      },
    ])
    expect(doc.components.schemas.AgeAndName).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'number' } },
    })
    expect(doc.components.schemas.Email).toMatchObject({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' } },
    })
    expect(() =>
      generateSpec([{ method: 'post', path: '/vb', openapi: { request: { body: v.string() } } }], {
        info,
      }),
    ).toThrow(/converters: \{ valibot: … \}/)
  })
})
