/**
 * Issue 21, point 2: compile-time checks of declared responses, run by `pnpm typecheck` (tsc).
 * Each `@ts-expect-error` must be an error, or tsc fails ("unused directive"). A handler's
 * `c.json(body, status)` must fit the schema declared for that status, and the status must be
 * declared; `hc<AppType>` sees each declared status with its schema's type, narrowed by
 * `res.status` and `res.ok`. For zod 4, zod 3 and valibot (a Standard Schema).
 */
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { hc } from 'hono/client'
import * as v from 'valibot'
import { z } from 'zod'
import { z as z3 } from 'zod3'

const info = { title: 'Responses', version: '1.0.0' }
const User = z.object({ id: z.string(), name: z.string() })
const NotFound = z.object({ error: z.literal('not_found') })

const api = openapi(new Hono(), { info })
  .get(
    '/users/:id',
    (c) => {
      const id = c.req.param('id')
      if (id === 'none') return c.json({ error: 'not_found' as const }, 404)
      // Properties the schema does not declare are allowed by type (stripped at run time).
      return c.json({ id, name: 'Ada', passwordHash: 'x' }, 200)
    },
    {
      openapi: {
        responses: {
          200: { description: 'The user', schema: User },
          404: { description: 'No such user', schema: NotFound },
        },
      },
    },
  )
  .get('/zod3', (c) => c.json({ ok: true }, 200), {
    openapi: { responses: { 200: { description: 'OK', schema: z3.object({ ok: z3.boolean() }) } } },
  })
  .get('/valibot', (c) => c.json({ n: 1 }, 201), {
    openapi: { responses: { 201: { description: 'Made', schema: v.object({ n: v.number() }) } } },
  })
  .get('/text', (c) => c.text('fine', 200), {
    openapi: { responses: { 200: { description: 'Plain text, no schema' } } },
  })
  .get('/untyped', () => new Response('anything'), {
    openapi: { responses: { 200: { description: 'A stream', schema: User } } },
  })

const wrongs = openapi(new Hono(), { info })
// zod 4: a body that does not fit its status's schema
wrongs.get(
  '/a',
  // @ts-expect-error name must be a string
  (c) => c.json({ id: '1', name: 2 }, 200),
  { openapi: { responses: { 200: { description: 'u', schema: User } } } },
)
// zod 4: a status the route does not declare (reported at the handler, naming the status)
wrongs.get(
  '/b',
  // @ts-expect-error status 201 is not declared in responses
  (c) => c.json({ id: '1', name: 'Ada' }, 201),
  { openapi: { responses: { 200: { description: 'u', schema: User } } } },
)
// zod 4: a required property missing
wrongs.get(
  '/c',
  // @ts-expect-error name is required
  (c) => c.json({ id: '1' }, 200),
  { openapi: { responses: { 200: { description: 'u', schema: User } } } },
)
// zod 4: the body of another status
wrongs.get(
  '/d',
  // @ts-expect-error the body of status 404 does not fit its schema (NotFound, not a user)
  (c) => c.json({ id: '1', name: 'Ada' }, 404),
  {
    openapi: {
      responses: {
        200: { description: 'u', schema: User },
        404: { description: 'n', schema: NotFound },
      },
    },
  },
)
// One answer of several names an undeclared status
wrongs.get(
  '/d2',
  // @ts-expect-error status 202 is not declared in responses
  async (c) => {
    if (c.req.query('later')) return c.json({ id: '1', name: 'Ada' }, 202)
    return c.json({ id: '1', name: 'Ada' }, 200)
  },
  { openapi: { responses: { 200: { description: 'u', schema: User } } } },
)
// zod 3
wrongs.get(
  '/e',
  // @ts-expect-error ok must be a boolean
  (c) => c.json({ ok: 'yes' }, 200),
  {
    openapi: { responses: { 200: { description: 'OK', schema: z3.object({ ok: z3.boolean() }) } } },
  },
)
wrongs.get(
  '/f',
  // @ts-expect-error zod 3: status 500 is not declared in responses
  (c) => c.json({ ok: true }, 500),
  {
    openapi: { responses: { 200: { description: 'OK', schema: z3.object({ ok: z3.boolean() }) } } },
  },
)
// valibot (Standard Schema)
wrongs.get(
  '/g',
  // @ts-expect-error n must be a number
  (c) => c.json({ n: 'one' }, 201),
  { openapi: { responses: { 201: { description: 'Made', schema: v.object({ n: v.number() }) } } } },
)
wrongs.get(
  '/h',
  // @ts-expect-error valibot: 200 is not declared
  (c) => c.json({ n: 1 }, 200),
  { openapi: { responses: { 201: { description: 'Made', schema: v.object({ n: v.number() }) } } } },
)
// A text answer under a status declared as JSON
wrongs.get(
  '/i',
  // @ts-expect-error 200 is declared as JSON
  (c) => c.text('no', 200),
  { openapi: { responses: { 200: { description: 'u', schema: User } } } },
)
// Without a status, the body must fit 200's schema (Hono sends 200).
wrongs.get('/j', (c) => c.json({ id: '1', name: 'Ada' }), {
  openapi: { responses: { 200: { description: 'u', schema: User } } },
})
wrongs.get(
  '/k',
  // @ts-expect-error not a user
  (c) => c.json({ id: '1' }),
  { openapi: { responses: { 200: { description: 'u', schema: User } } } },
)
// Routes without declared responses are not checked.
wrongs.get('/free', (c) => c.json({ anything: true }, 418))

// The client sees the declared types per status, not what the handler built.
const client = hc<typeof api.app>('http://localhost')
async function read() {
  const res = await client.users[':id'].$get({ param: { id: '1' } })
  if (res.status === 200) {
    const user = await res.json()
    const name: string = user.name
    // @ts-expect-error the undeclared property is not part of the client type
    user.passwordHash
    return name
  }
  if (res.status === 404) {
    const body = await res.json()
    const code: 'not_found' = body.error
    return code
  }
  // @ts-expect-error only 200 and 404 are declared
  res.status === 500
  return ''
}
async function readOk() {
  const res = await client.users[':id'].$get({ param: { id: '1' } })
  if (res.ok) {
    const user = await res.json()
    const id: string = user.id
    return id
  }
  const body = await res.json()
  // @ts-expect-error not ok: only the 404 body
  body.id
  return body.error
}
async function others() {
  const z3res = await client.zod3.$get()
  const ok: boolean = (await z3res.json()).ok
  const vres = await client.valibot.$get()
  const n: number = (await vres.json()).n
  const status: 201 = vres.status
  return [ok, n, status]
}
void read
void readOk
void others
