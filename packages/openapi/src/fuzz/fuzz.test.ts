// fuzz() on apps broken on purpose: each fault is found, and the request shown is the shrunk one.
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openapi } from '../app/openapi'
import { type FuzzSkipped, formatFailure, formatSkipped, fuzz } from '.'

// The library's own response validation is off here: these apps show what the fuzzer catches when
// nothing strips or checks answers on the way out.
const info = { title: 'Fuzz', version: '1.0.0' }
const raw = { info, responseValidation: 'off' as const }
const Item = z.strictObject({ id: z.number().int(), name: z.string() })
const NewItem = z.object({
  name: z.string().min(1).max(10),
  count: z.number().int().min(0).max(100),
})

/** Three operations, each with one fault, and one that is correct. */
function broken() {
  return openapi(new Hono(), raw)
    .post(
      '/items',
      (c) => {
        const { name, count } = c.req.valid('json')
        // The fault: the upper bound the schema allows crashes the handler.
        if (count === 100) throw new Error('off by one')
        return c.json({ id: count, name }, 201)
      },
      {
        openapi: {
          operationId: 'createItem',
          request: { body: NewItem },
          responses: { 201: { description: 'Created', schema: Item } },
        },
      },
    )
    .get(
      '/items/:id',
      (c) => {
        const { id } = c.req.valid('param')
        // The fault: an undeclared field leaves with the item.
        return c.json(id > 9 ? { id, name: 'n', owner: 'secret' } : { id, name: 'n' })
      },
      {
        openapi: {
          operationId: 'getItem',
          request: { params: z.object({ id: z.coerce.number().int().min(0) }) },
          responses: { 200: { description: 'The item', schema: Item } },
        },
      },
    )
    .get(
      '/search',
      (c) => {
        const { q } = c.req.valid('query')
        // The fault: a status the document does not list.
        return q.includes('z') ? c.json({ hits: [] }, 202) : c.json({ hits: [q] })
      },
      {
        openapi: {
          operationId: 'search',
          request: { query: z.object({ q: z.string().max(20) }) },
          responses: {
            200: { description: 'Hits', schema: z.object({ hits: z.array(z.string()) }) },
          },
        },
      },
    )
    .get('/fine', (c) => c.json({ ok: true }), {
      openapi: { responses: { 200: { description: 'OK', schema: z.object({ ok: z.boolean() }) } } },
    })
}

describe('fuzz on a broken app', () => {
  it('finds each fault, with the request shrunk to the smallest that shows it', async () => {
    const report = await fuzz(broken(), { seed: 7, runs: 200 })
    expect(report.operations).toBe(4)
    expect(report.failures.map((f) => [f.method, f.path, f.status])).toEqual([
      ['POST', '/items', 500],
      ['GET', '/items/{id}', 200],
      ['GET', '/search', 202],
    ])
    const [crash, leak, status] = report.failures
    expect(crash?.reason).toBe('server error (500)')
    expect(JSON.parse(crash?.request.body ?? '')).toMatchObject({ count: 100 })
    expect(crash?.request.headers['content-type']).toBe('application/json')
    // Shrunk: the name is as short as the schema allows.
    expect(JSON.parse(crash?.request.body ?? '').name).toHaveLength(1)

    expect(leak?.reason).toMatch(/does not match the documented schema: .*additional properties/)
    expect(leak?.request.url).toBe('/items/10')

    expect(status?.reason).toBe('status 202 is not documented (documented: 200, 400)')
    // Shrunk to one character (generated strings are Unicode graphemes: 'z' may carry a mark).
    const q = new URL(status?.request.url ?? '', 'http://x').searchParams.get('q') ?? ''
    expect(q.normalize('NFD')[0]).toBe('z')
    expect([...new Intl.Segmenter().segment(q)]).toHaveLength(1)

    expect(formatFailure(crash as never)).toContain('POST /items')
    expect(report.requests).toBeGreaterThan(400)
    expect(Object.keys(report.statuses)).toEqual(expect.arrayContaining(['200', '201', '400']))
  })

  it('is reproducible: the same seed sends the same requests and finds the same failures', async () => {
    const seen: string[][] = [[], []]
    for (const run of [0, 1]) {
      const api = broken()
      const original = api.request
      ;(api as { request: typeof api.request }).request = ((input: string, init?: RequestInit) => {
        seen[run]?.push(`${init?.method} ${input} ${String(init?.body ?? '')}`)
        return original(input, init)
      }) as typeof api.request
      await fuzz(api, { seed: 123, runs: 30 })
    }
    expect(seen[0]?.length).toBeGreaterThan(50)
    expect(seen[1]).toEqual(seen[0])
    const a = await fuzz(broken(), { seed: 5, runs: 30 })
    expect(await fuzz(broken(), { seed: 5, runs: 30 })).toEqual(a)
    expect(a.seed).toBe(5)
  })

  it("allows undeclared properties with extraProperties: 'allow' (JSON Schema's own rule)", async () => {
    const api = openapi(new Hono(), raw).get('/x', (c) => c.json({ a: 1, b: 2 }), {
      openapi: { responses: { 200: { description: 'X', schema: z.object({ a: z.number() }) } } },
    })
    expect((await fuzz(api, { seed: 1, runs: 5 })).failures).toHaveLength(1)
    expect((await fuzz(api, { seed: 1, runs: 5, extraProperties: 'allow' })).failures).toEqual([])
  })
})

describe('what fuzz checks on every answer', () => {
  const one = (handler: (c: Context) => Response | Promise<Response>, responses?: object) =>
    openapi(new Hono(), raw).get('/x', handler as never, {
      openapi: {
        responses: (responses ?? {
          200: { description: 'X', schema: z.object({ a: z.number() }) },
        }) as never,
      },
    })
  const reasons = async (api: unknown) =>
    (await fuzz(api, { seed: 1, runs: 5 })).failures.map((f) => f.reason)

  it('a JSON body of the wrong shape', async () => {
    expect(await reasons(one((c) => c.json({ a: 'one' })))).toEqual([
      expect.stringMatching(/^body does not match the documented schema: data\/a must be number/),
    ])
  })

  it('a Content-Type the status does not document', async () => {
    expect(await reasons(one((c) => c.text('a')))).toEqual([
      'Content-Type text/plain is not documented for 200 (documented: application/json)',
    ])
  })

  it('a problem body without a code', async () => {
    const api = one(
      () =>
        new Response(JSON.stringify({ title: 'Nope', status: 409 }), {
          status: 409,
          headers: { 'content-type': 'application/problem+json' },
        }),
      {
        200: { description: 'X', schema: z.object({ a: z.number() }) },
        409: {
          description: 'Conflict',
          contentType: 'application/problem+json',
          schema: z.object({ title: z.string(), status: z.number(), code: z.string().optional() }),
        },
      },
    )
    expect(await reasons(api)).toEqual(['problem body without a `code`'])
  })

  it('an exception the app lets through is a failure, not a crash of the run', async () => {
    const api = one(() => {
      throw new HTTPException(503, { message: 'down' })
    })
    expect(await reasons(api)).toEqual(['server error (503)'])
  })
})

describe('authentication from the hook', () => {
  const KEY = Symbol.for('palisade.openapi.describe')
  const requireKey: MiddlewareHandler = async (c, next) => {
    if (c.req.header('x-key') !== 'k1' || !c.req.header('cookie')?.includes('sid=s1'))
      return c.json({ code: 'nope' }, 401)
    await next()
  }
  Object.defineProperty(requireKey, KEY, {
    value: {
      security: [[{ name: 'key', scheme: { type: 'apiKey', in: 'header', name: 'X-Key' } }]],
      responses: [{ status: 401, description: 'No key', content: { 'application/json': {} } }],
    },
  })
  const api = () =>
    openapi(new Hono(), raw).get('/me', (c) => c.json({ me: true }), {
      middlewares: [requireKey],
      openapi: { responses: { 200: { description: 'Me', schema: z.object({ me: z.boolean() }) } } },
    })

  it('sends the headers and cookies the hook returns, for the operation it names', async () => {
    const ops: unknown[] = []
    const report = await fuzz(api(), {
      seed: 1,
      runs: 10,
      auth: (op) => {
        ops.push(op)
        return op.security.some((r) => 'key' in r)
          ? { headers: { 'X-Key': 'k1' }, cookies: { sid: 's1' } }
          : undefined
      },
    })
    expect(report.statuses).toEqual({ 200: 10 })
    expect(ops[0]).toEqual({ method: 'GET', path: '/me', security: [{ key: [] }] })
    const without = await fuzz(api(), { seed: 1, runs: 10 })
    expect(without.statuses).toEqual({ 401: 10 })
    expect(without.failures).toEqual([])
  })
})

describe('operations no request can be generated for', () => {
  // (A schema whose filter never passes, such as an email of at most 3 characters, is covered
  // in a child process by tests/openapi/cli.test.ts: before the limits it never returned.)
  it('are reported with where and why, and the other operations are fuzzed', async () => {
    const ok = { 200: { description: 'OK', schema: z.object({ ok: z.boolean() }) } }
    const api = openapi(new Hono(), raw)
      .get('/page', (c) => c.json({ ok: true }), {
        openapi: {
          request: { query: z.object({ n: z.coerce.number().int().min(10).max(5) }) },
          responses: ok,
        },
      })
      .post('/names', (c) => c.json({ ok: true }), {
        openapi: {
          request: { body: z.object({ tags: z.array(z.string().min(5).max(4)) }) },
          responses: ok,
        },
      })
      .get('/fine', (c) => c.json({ ok: true }), { openapi: { responses: ok } })
    const seen: FuzzSkipped[] = []
    const report = await fuzz(api, { seed: 1, runs: 10, onSkipped: (s) => seen.push(s) })
    expect(report.skipped).toEqual([
      {
        method: 'GET',
        path: '/page',
        pointer: '/query/n',
        reason: 'no safe integer from 10 to 5',
      },
      {
        method: 'POST',
        path: '/names',
        pointer: '/body/tags/0',
        reason: 'minLength 5 is above maxLength 4',
      },
    ])
    expect(seen).toEqual(report.skipped)
    // Nothing was sent to them; /fine got its runs.
    expect(report).toMatchObject({ operations: 1, requests: 10, statuses: { 200: 10 } })
    expect(formatSkipped(report.skipped[0] as FuzzSkipped)).toBe(
      '? GET /page: could not generate /query/n: no safe integer from 10 to 5\n',
    )
  })
})

describe('options', () => {
  it.each([
    [{ runs: 0 }, 'fuzz: runs must be a positive integer'],
    [{ seed: 1.5 }, 'fuzz: seed must be an integer'],
  ])('refuses %j', async (options, message) => {
    await expect(fuzz(broken(), options)).rejects.toThrow(message)
  })

  it('refuses something that is not an app', async () => {
    await expect(fuzz({})).rejects.toThrow(/fuzz: expected the app openapi\(\) returns/)
  })

  it('fuzzes only the operations the filter keeps', async () => {
    const report = await fuzz(broken(), { seed: 1, runs: 5, filter: (op) => op.path === '/fine' })
    expect(report).toMatchObject({ operations: 1, requests: 5, failures: [] })
  })
})
