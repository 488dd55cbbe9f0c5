// Request validation against bodies built to exhaust it: nesting that would overflow a recursive
// validator's stack, and (below) bodies that would produce huge problem responses.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openapi } from '../app/openapi'
import { PROBLEM_JSON, type ValidationProblem } from './problem'

const info = { title: 'Limits', version: '1.0.0' }

const post = (body: string, type = 'application/json'): RequestInit => ({
  method: 'POST',
  body,
  headers: { 'content-type': type },
})

async function problem(res: Response, status = 400): Promise<ValidationProblem> {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toBe(PROBLEM_JSON)
  return (await res.json()) as ValidationProblem
}

interface Tree {
  children: Tree[]
}
const tree: z.ZodType<Tree> = z.lazy(() => z.object({ children: z.array(tree) }))

function appWith(body: z.ZodType) {
  const api = openapi(new Hono(), { info })
  api.post('/t', (c) => c.json({ ok: true }), { openapi: { request: { body } } })
  return api
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
const nestedTree = (depth: number) =>
  `${'{"children":['.repeat(depth - 1)}{"children":[]}${']}'.repeat(depth - 1)}`

describe('request validation: JSON nesting depth', () => {
  it.each([
    ['z.json()', () => z.json(), nested(20_000)],
    ['a recursive schema', () => tree, nestedTree(20_000)],
  ])(
    'refuses a 20,000-deep body on %s with 400 body_too_deep, never a 500',
    async (_l, schema, body) => {
      const res = await appWith(schema()).request('/t', post(body))
      const p = await problem(res)
      expect(p.code).toBe('body_too_deep')
    },
  )

  it('calls valid JSON nested 1,500 deep too deep, not malformed', async () => {
    const p = await problem(await appWith(z.json()).request('/t', post(nested(1500))))
    expect(p.code).toBe('body_too_deep')
    expect(p.errors[0]?.message).toMatch(/deeper than 1000 levels/)
  })

  it('accepts a body nested exactly 1,000 deep, and validates it', async () => {
    expect((await appWith(z.json()).request('/t', post(nested(1000)))).status).toBe(200)
    // An object and an array per tree level: 500 levels of the tree are 999 of JSON.
    expect((await appWith(tree).request('/t', post(nestedTree(500)))).status).toBe(200)
  })

  it('does not count brackets inside strings', async () => {
    const body = JSON.stringify({ children: [], note: '['.repeat(5000) })
    expect((await appWith(z.json()).request('/t', post(body))).status).toBe(200)
  })

  it('calls broken JSON malformed_body', async () => {
    const p = await problem(await appWith(z.json()).request('/t', post('{"a":')))
    expect(p.code).toBe('malformed_body')
  })
})

describe('request validation: the size of the problem', () => {
  it('lists at most 100 issues for a body of many bad items, and says how many there were', async () => {
    const api = openapi(new Hono(), { info })
    const item = z.object({ id: z.number(), name: z.string() })
    api.post('/items', (c) => c.json({ ok: true }), {
      openapi: { request: { body: z.array(item) } },
    })
    const body = JSON.stringify(Array.from({ length: 20_000 }, () => ({ id: 'x', name: 1 })))
    const res = await api.request('/items', post(body))
    const text = await res.clone().text()
    const p = await problem(res)
    expect(p.errors).toHaveLength(100)
    expect(p.detail).toMatch(/the first 100 of 40000 issues/)
    expect(text.length).toBeLessThan(20_000)
  })

  it('documents maxItems on errors', async () => {
    const api = appWith(z.json())
    const doc = (await (await api.request('/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: { errors?: { maxItems?: number } } }> }
    }
    const withErrors = Object.values(doc.components.schemas).filter((s) => s.properties?.errors)
    expect(withErrors.length).toBeGreaterThan(0)
    for (const schema of withErrors) expect(schema.properties.errors?.maxItems).toBe(100)
  })
})

describe('request validation: parsed objects have no prototype to replace', () => {
  it('?__proto__=a&__proto__=b is a query key, not the query object prototype', async () => {
    const api = openapi(new Hono(), { info })
    api.get(
      '/q',
      (c) => {
        const query = c.req.valid('query' as never) as Record<string, unknown>
        return c.json({
          proto:
            Object.getPrototypeOf(query) === null ||
            Object.getPrototypeOf(query) === Object.prototype,
          isArray: Array.isArray(Object.getPrototypeOf(query)),
        })
      },
      { openapi: { request: { query: z.record(z.string(), z.unknown()) } } },
    )
    const res = await api.request('/q?__proto__=a&__proto__=b')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ proto: true, isArray: false })
  })
})

describe('request validation: media types', () => {
  it.each(['application/jsonp', 'application/json5', 'text/json'])(
    'answers a %s body 415, never parsing it as JSON',
    async (type) => {
      const p = await problem(await appWith(z.json()).request('/t', post('{"a":1}', type)), 415)
      expect(p.code).toBe('unsupported_media_type')
    },
  )

  it('answers a form route given a body without Content-Type 415', async () => {
    const api = openapi(new Hono(), { info })
    api.post('/f', (c) => c.json({ ok: true }), {
      openapi: { request: { form: z.object({ name: z.string() }) } },
    })
    // Bytes, not a string: a string body would get a text/plain Content-Type from Request.
    const body = new TextEncoder().encode('name=x')
    const res = await api.request('/f', { method: 'POST', body })
    expect((await problem(res, 415)).code).toBe('unsupported_media_type')
  })
})
