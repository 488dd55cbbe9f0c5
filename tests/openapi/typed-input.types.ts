/**
 * Issue 12, point 2: compile-time checks, run by `pnpm typecheck` (tsc). Each `@ts-expect-error`
 * must be an error, or tsc fails ("unused directive"): `c.req.valid()` is typed from the schema's
 * output, and `hc<AppType>` sees every documented input.
 */
import { openapi } from '@palisade/openapi'
import { type } from 'arktype'
import { Hono } from 'hono'
import { hc } from 'hono/client'
import * as v from 'valibot'
import { expectTypeOf } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'

const Book = z.object({ title: z.string(), pages: z.number().int().default(100) })

const api = openapi(new Hono(), { info: { title: 'Types', version: '1.0.0' } })
  .post(
    '/books',
    (c) => {
      const body = c.req.valid('json')
      const pages: number = body.pages // default applied: number, not number | undefined
      const title: string = body.title
      // @ts-expect-error no such field
      body.author
      // @ts-expect-error no query schema on this route
      c.req.valid('query')
      return c.json({ id: 1, title, pages }, 201)
    },
    { openapi: { request: { body: Book } } },
  )
  .get(
    '/books/:id',
    (c) => {
      const { id } = c.req.valid('param')
      const n: number = id // coerced
      const { page, q } = c.req.valid('query')
      const p: number = page
      const s: string | undefined = q
      // @ts-expect-error page is a number after coercion
      const wrong: string = page
      const h = c.req.valid('header')
      const tenant: string = h['x-tenant']
      return c.json({ n, p, s, wrong, tenant })
    },
    {
      openapi: {
        request: {
          params: z.object({ id: z.coerce.number() }),
          query: z.object({ page: z.coerce.number().default(1), q: z.string().optional() }),
          headers: z.object({ 'x-tenant': z.string() }),
        },
      },
    },
  )
  .put(
    '/zod3/:id',
    (c) => {
      const body = c.req.valid('json')
      const ok: boolean = body.ok
      // @ts-expect-error a boolean is not a string
      const s: string = body.ok
      return c.json({ ok, s })
    },
    { openapi: { request: { body: z3.object({ ok: z3.boolean() }) } } },
  )
  .patch(
    '/valibot',
    (c) => {
      const { n } = c.req.valid('json')
      const num: number = n
      return c.json({ num })
    },
    { openapi: { request: { body: v.object({ n: v.number() }) } } },
  )
  .post(
    '/arktype',
    (c) => {
      const { tags } = c.req.valid('form')
      const list: string[] = tags
      return c.json({ list })
    },
    { openapi: { request: { form: type({ tags: 'string[]' }) } } },
  )

export type AppType = typeof api.app
const client = hc<AppType>('http://localhost')

// Every documented input is required by the client, with the schema's input types.
client.books.$post({ json: { title: 'Dune' } })
// @ts-expect-error title is required
client.books.$post({ json: { pages: 3 } })
// @ts-expect-error pages must be a number
client.books.$post({ json: { title: 'Dune', pages: '3' } })
client.books[':id'].$get({ param: { id: '1' }, query: { page: '2' }, header: { 'x-tenant': 'a' } })
// @ts-expect-error the header is documented, so required
client.books[':id'].$get({ param: { id: '1' }, query: {} })
client.zod3[':id'].$put({ param: { id: 'x' }, json: { ok: true } })
client.valibot.$patch({ json: { n: 1 } })
// @ts-expect-error n is a number
client.valibot.$patch({ json: { n: 'one' } })
client.arktype.$post({ form: { tags: ['a'] } })

// Responses are typed too.
async function read() {
  const res = await client.books.$post({ json: { title: 'Dune' } })
  // The validation 400 and 415 are part of the route's answers: narrow by status first.
  if (res.status !== 201) return (await res.json()).code
  const created = await res.json()
  const id: number = created.id
  return id
}
void read

// Groups that return their chain join the app type.
const grouped = openapi(new Hono(), { info: { title: 'G', version: '1' } }).group('/v1', (g) =>
  g.get('/ping', (c) => c.json({ pong: c.req.valid('query').x }), {
    openapi: { request: { query: z.object({ x: z.string() }) } },
  }),
)
const g = hc<typeof grouped.app>('http://localhost')
g.v1.ping.$get({ query: { x: 'y' } })
// @ts-expect-error x is required
g.v1.ping.$get({ query: {} })

// The base path and Env of the wrapped app reach the route types and `hc`, with and without
// `basePath()`.
type UserEnv = { Variables: { user: string } }
const plain = openapi(new Hono<UserEnv>(), { info: { title: 'P', version: '1' } }).get(
  '/me',
  (c) => {
    const user: string = c.get('user')
    // @ts-expect-error no such variable
    c.get('other')
    return c.json({ user })
  },
)
const p = hc<typeof plain.app>('http://localhost')
p.me.$get()
// @ts-expect-error no base path on this app
p.v1
const based = openapi(new Hono<UserEnv>().basePath('/v1'), { info: { title: 'B', version: '1' } })
  .get('/me', (c) => c.json({ user: c.get('user') }))
  .group('/orgs', (o) => o.get('/:org', (c) => c.json({ org: c.req.param('org') })))
const b = hc<typeof based.app>('http://localhost')
b.v1.me.$get()
b.v1.orgs[':org'].$get({ param: { org: 'x' } })
const nested = openapi(new Hono().basePath('/api').basePath('/v2'), {
  info: { title: 'N', version: '1' },
}).post('/x', (c) => c.json({ ok: true }))
hc<typeof nested.app>('http://localhost').api.v2.x.$post()

// Issue 26, finding 10: literal query, header and path types reach `hc` as literals, not `string`.
const sorted = openapi(new Hono(), { info: { title: 'S', version: '1' } }).get(
  '/items/:kind',
  (c) => c.json({ sort: c.req.valid('query').sort }),
  {
    openapi: {
      request: {
        params: z.object({ kind: z.enum(['book', 'film']) }),
        query: z.object({
          sort: z.enum(['asc', 'desc']),
          order: z.enum(['new', 'old']).default('new'),
          tags: z.array(z.enum(['a', 'b'])).optional(),
          page: z.coerce.number().optional(),
        }),
        headers: z.object({ 'x-mode': z.literal('strict').or(z.literal('lax')) }),
      },
    },
  },
)
const s = hc<typeof sorted.app>('http://localhost')
type SortedInput = Parameters<(typeof s.items)[':kind']['$get']>[0]
expectTypeOf<SortedInput['query']['sort']>().toEqualTypeOf<'asc' | 'desc'>()
expectTypeOf<SortedInput['query']['order']>().toEqualTypeOf<'new' | 'old' | undefined>()
expectTypeOf<SortedInput['query']['tags']>().toEqualTypeOf<('a' | 'b')[] | undefined>()
expectTypeOf<SortedInput['query']['page']>().toEqualTypeOf<string | undefined>()
expectTypeOf<SortedInput['header']['x-mode']>().toEqualTypeOf<'strict' | 'lax'>()
expectTypeOf<SortedInput['param']['kind']>().toEqualTypeOf<'book' | 'film'>()
s.items[':kind'].$get({
  param: { kind: 'book' },
  query: { sort: 'asc', tags: ['a'] },
  header: { 'x-mode': 'lax' },
})
s.items[':kind'].$get({
  param: { kind: 'film' },
  // @ts-expect-error not one of the sort values
  query: { sort: 'sideways' },
  header: { 'x-mode': 'lax' },
})
s.items[':kind'].$get({
  param: { kind: 'book' },
  query: { sort: 'desc' },
  // @ts-expect-error not one of the header values
  header: { 'x-mode': 'loose' },
})
