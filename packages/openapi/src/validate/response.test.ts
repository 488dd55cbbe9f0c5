// Response validation end to end through openapi(): each mode with each schema library (zod 4,
// zod 3, valibot, arktype, raw JSON Schema through jsonSchemaValidator), on one set of helpers.

import { internalsSwitchedOff } from '@palisade/shared/internals'
import { toJsonSchema } from '@valibot/to-json-schema'
import Ajv2020 from 'ajv/dist/2020'
import { type } from 'arktype'
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { stream } from 'hono/streaming'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { openapi } from '../app/openapi'
import type { OpenAPIOptions } from '../model/options'
import { PROBLEM_JSON } from './problem'
import type { ResponseValidationIssue, ResponseValidationMode } from './response'

const info = { title: 'Responses', version: '1.0.0' }
const ajv = new Ajv2020({ allErrors: true, strict: false })
const jsonSchemaValidator: OpenAPIOptions['jsonSchemaValidator'] = (schema) => {
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
}

/** The same user schema in each library: `{ id: string, name: string (min 1) }`. */
const libraries = {
  'zod 4': z.object({ id: z.string(), name: z.string().min(1) }),
  'zod 3': z3.object({ id: z3.string(), name: z3.string().min(1) }),
  valibot: v.object({ id: v.string(), name: v.pipe(v.string(), v.minLength(1)) }),
  arktype: type({ id: 'string', name: 'string >= 1' }),
  'raw JSON Schema': {
    type: 'object',
    properties: { id: { type: 'string' }, name: { type: 'string', minLength: 1 } },
    required: ['id', 'name'],
  },
} as const

/**
 * The handler's `c.json` without its types: these handlers break the contract on purpose (the
 * route method would not compile them otherwise), to show what the run-time check does.
 */
const untyped = (c: Context) => c.json as unknown as (body: unknown, status?: number) => Response

const user = { id: 'u1', name: 'Ada' }
const leaky = { ...user, passwordHash: '$argon2id$secret' }
const broken = { id: 'u1', name: '' }

function appWith(schema: unknown, mode: ResponseValidationMode | undefined, body: unknown) {
  const issues: ResponseValidationIssue[] = []
  const api = openapi(new Hono(), {
    info,
    converters: { valibot: toJsonSchema },
    jsonSchemaValidator,
    onResponseValidationError: (issue) => {
      issues.push(issue)
    },
    ...(mode ? { responseValidation: mode } : {}),
  })
  api.get('/user', (c) => c.json(body as object, 200), {
    openapi: { responses: { 200: { description: 'The user', schema } } },
  })
  return { api, issues }
}

async function send(schema: unknown, mode: ResponseValidationMode | undefined, body: unknown) {
  const { api, issues } = appWith(schema, mode, body)
  const res = await api.request('/user')
  return { res, json: (await res.json()) as Record<string, unknown>, issues }
}

describe.each(Object.entries(libraries))('response validation with %s', (_name, schema) => {
  it('strips undeclared properties by default, and reports nothing', async () => {
    const { res, json, issues } = await send(schema, undefined, leaky)
    expect(res.status).toBe(200)
    expect(json).toEqual(user)
    expect(JSON.stringify(json)).not.toContain('argon2')
    expect(issues).toEqual([])
  })

  it("'strip' answers a body that still fails with a 500 response_invalid without detail", async () => {
    const { res, json, issues } = await send(schema, 'strip', { ...broken, passwordHash: 'x' })
    expect(res.status).toBe(500)
    expect(res.headers.get('content-type')).toBe(PROBLEM_JSON)
    expect(json).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      code: 'response_invalid',
    })
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatchObject({
      kind: 'invalid_body',
      mode: 'strip',
      method: 'GET',
      path: '/user',
      status: 200,
    })
    expect(issues[0]?.errors.map((e) => e.path)).toEqual(['/name'])
  })

  it("'strict' fails on an undeclared property and names it to the hook only", async () => {
    const { res, json, issues } = await send(schema, 'strict', leaky)
    expect(res.status).toBe(500)
    expect(json.code).toBe('response_invalid')
    expect(JSON.stringify(json)).not.toContain('passwordHash')
    expect(issues[0]?.errors).toEqual([{ path: '/passwordHash', message: 'Undeclared property' }])
    const ok = await send(schema, 'strict', user)
    expect([ok.res.status, ok.json, ok.issues]).toEqual([200, user, []])
  })

  it("'report' sends the body as built and tells the hook what is wrong", async () => {
    const { res, json, issues } = await send(schema, 'report', { ...broken, passwordHash: 'x' })
    expect(res.status).toBe(200)
    expect(json).toEqual({ ...broken, passwordHash: 'x' })
    expect(issues[0]?.kind).toBe('invalid_body')
    expect(issues[0]?.errors.map((e) => e.path).sort()).toEqual(['/name', '/passwordHash'])
  })

  it("'off' checks nothing", async () => {
    const { res, json, issues } = await send(schema, 'off', { ...broken, passwordHash: 'x' })
    expect([res.status, json, issues]).toEqual([200, { ...broken, passwordHash: 'x' }, []])
  })
})

/**
 * GET /user answering `user`, its 200 declared with a raw JSON Schema checked by `validate`; the
 * issues the wrapper reports are collected.
 */
function userRoute(
  mode: ResponseValidationMode,
  validate: ReturnType<NonNullable<OpenAPIOptions['jsonSchemaValidator']>>,
) {
  const issues: ResponseValidationIssue[] = []
  const api = openapi(new Hono(), {
    info,
    jsonSchemaValidator: () => validate,
    responseValidation: mode,
    onResponseValidationError: (issue) => {
      issues.push(issue)
    },
  })
  api.get('/user', (c) => c.json(user, 200), {
    openapi: {
      responses: { 200: { description: 'The user', schema: libraries['raw JSON Schema'] } },
    },
  })
  return { api, issues }
}

describe('response validation with a jsonSchemaValidator that fails with no issues', () => {
  // Failure without a reason is still failure: the body must not go out as valid.
  it.each<[ResponseValidationMode, number]>([
    ['strip', 500],
    ['strict', 500],
    ['report', 200],
  ])("'%s' treats it as an invalid body", async (mode, status) => {
    const { api, issues } = userRoute(mode, () => ({ issues: [] }))
    const res = await api.request('/user')
    expect(res.status).toBe(status)
    if (status === 500) expect((await res.json()).code).toBe('response_invalid')
    expect(issues.map((i) => [i.kind, i.errors])).toEqual([
      ['invalid_body', [{ path: '', message: 'Invalid value' }]],
    ])
  })
})

describe('response validation with a jsonSchemaValidator that passes with issues: null', () => {
  // Only a truthy issues list is a failure (Standard Schema leaves issues unset on success; some
  // hand-written validators say null).
  it.each<ResponseValidationMode>(['strip', 'strict', 'report'])(
    "'%s' sends the body as valid and reports nothing",
    async (mode) => {
      const { api, issues } = userRoute(mode, (value) => ({ value, issues: null }) as never)
      const res = await api.request('/user')
      expect([res.status, await res.json()]).toEqual([200, user])
      expect(issues).toEqual([])
    },
  )
})

describe('response validation', () => {
  const make = (options: Partial<OpenAPIOptions> = {}) => {
    const issues: ResponseValidationIssue[] = []
    const api = openapi(new Hono(), {
      info,
      onResponseValidationError: (issue) => {
        issues.push(issue)
      },
      ...options,
    })
    return { api, issues }
  }
  const User = z.object({ id: z.string(), name: z.string() })

  it('lets the route mode win over the app mode, and the route hook over the app hook', async () => {
    const { api, issues } = make({ responseValidation: 'strict' })
    const routeIssues: ResponseValidationIssue[] = []
    api.get('/strict', (c) => c.json(leaky, 200), {
      openapi: { responses: { 200: { description: 'u', schema: User } } },
    })
    api.get('/off', (c) => c.json(leaky, 200), {
      responseValidation: 'off',
      openapi: { responses: { 200: { description: 'u', schema: User } } },
    })
    api.get('/hooked', (c) => c.json(leaky, 200), {
      onResponseValidationError: (issue) => {
        routeIssues.push(issue)
      },
      openapi: { responses: { 200: { description: 'u', schema: User } } },
    })
    expect((await api.request('/strict')).status).toBe(500)
    expect(await (await api.request('/off')).json()).toEqual(leaky)
    expect((await api.request('/hooked')).status).toBe(500)
    expect(issues.map((i) => i.path)).toEqual(['/strict'])
    expect(routeIssues.map((i) => i.path)).toEqual(['/hooked'])
  })

  it('refuses a JSON body under an undeclared status in strip and strict (reports it in every mode but off)', async () => {
    for (const mode of ['strip', 'strict', 'report', 'off'] as const) {
      const { api, issues } = make({ responseValidation: mode })
      api.get('/u', (c) => untyped(c)({ ...leaky }, 202), {
        openapi: { responses: { 200: { description: 'u', schema: User } } },
      })
      // Not JSON: nothing is checked in a text body; it is reported and sent.
      api.get('/t', (c) => c.text('accepted', 202) as Response, {
        openapi: { responses: { 200: { description: 'u', schema: User } } },
      })
      const res = await api.request('/u')
      expect([res.status, await res.json()]).toEqual(
        mode === 'strip' || mode === 'strict'
          ? [
              500,
              {
                type: 'about:blank',
                title: 'Internal Server Error',
                status: 500,
                code: 'response_invalid',
              },
            ]
          : [202, leaky],
      )
      const text = await api.request('/t')
      expect([text.status, await text.text()]).toEqual([202, 'accepted'])
      const issue = (path: string) => ({
        kind: 'undeclared_status',
        mode,
        method: 'GET',
        path,
        status: 202,
        errors: [],
      })
      expect(issues).toEqual(mode === 'off' ? [] : [issue('/u'), issue('/t')])
    }
  })

  it('checks the status of a route whose responses declare no schema (sync and async handlers)', async () => {
    const { api, issues } = make()
    api.get('/sync', (c) => untyped(c)({ ...leaky }, 201), {
      openapi: { responses: { 200: { description: 'no schema' } } },
    })
    api.get(
      '/async',
      async (c) => {
        await Promise.resolve()
        return untyped(c)({ ...leaky }, 202)
      },
      { openapi: { responses: { 200: { description: 'no schema' } } } },
    )
    api.get('/fine', (c) => untyped(c)({ ...leaky }), {
      openapi: { responses: { 200: { description: 'no schema' } } },
    })
    for (const [path, status] of [
      ['/sync', 500],
      ['/async', 500],
      ['/fine', 200],
    ] as const) {
      const res = await api.request(path)
      // Nothing to strip without a schema: a declared status's body goes out as built.
      expect([res.status, await res.json()]).toEqual([
        status,
        status === 200 ? leaky : expect.objectContaining({ code: 'response_invalid' }),
      ])
    }
    expect(issues.map((i) => [i.kind, i.path, i.status])).toEqual([
      ['undeclared_status', '/sync', 201],
      ['undeclared_status', '/async', 202],
    ])
  })

  it('counts what middleware and request validation answer as declared', async () => {
    const { api, issues } = make()
    api.post('/v', (c) => untyped(c)({ error: 'handler said no' }, 400), {
      openapi: {
        request: { body: z.object({ a: z.string() }) },
        responses: { 201: { description: 'Made', schema: User } },
      },
    })
    const res = await api.request('/v', {
      method: 'POST',
      body: '{"a":"x"}',
      headers: { 'Content-Type': 'application/json' },
    })
    expect(res.status).toBe(400)
    expect(issues).toEqual([])
  })

  it('lets streams, text, HEAD, 304 and statuses without a schema pass untouched (reporting the stream and text under a JSON status), and reads other JSON answers', async () => {
    const { api, issues } = make()
    const responses = {
      200: { description: 'u', schema: User },
      304: { description: 'Not modified' },
      202: { description: 'Accepted, no schema' },
    }
    api.get(
      '/stream',
      (c) =>
        stream(c, async (s) => {
          await s.write('{"secret":1}')
        }),
      {
        openapi: { responses },
      },
    )
    // A text answer under a status declared as JSON is a compile error; untyped, it passes.
    api.get('/text', (c) => c.text('{"secret":1}', 200) as Response, { openapi: { responses } })
    api.get(
      '/raw',
      () => new Response('{"secret":1}', { headers: { 'content-type': 'application/json' } }),
      {
        openapi: { responses },
      },
    )
    api.get('/head', (c) => c.json(leaky, 200), { openapi: { responses } })
    api.get('/nm', (c) => c.body(null, 304), { openapi: { responses } })
    api.get('/accepted', (c) => c.json(leaky, 202), { openapi: { responses } })
    for (const path of ['/stream', '/text']) {
      expect(await (await api.request(path)).text()).toBe('{"secret":1}')
    }
    // Sent as they are, but reported: the document promises JSON of User under 200.
    expect(issues.map((i) => [i.kind, i.path, i.status, i.errors])).toEqual([
      ['invalid_body', '/stream', 200, [{ path: '', message: 'No Content-Type' }]],
      [
        'invalid_body',
        '/text',
        200,
        [{ path: '', message: 'Not a JSON media type (text/plain; charset=UTF-8)' }],
      ],
    ])
    issues.length = 0
    const head = await api.request('/head', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect((await api.request('/nm')).status).toBe(304)
    expect(await (await api.request('/accepted')).json()).toEqual(leaky)
    expect(issues).toEqual([])
    // A JSON answer built without c.json() is read and checked: stripped to {}, it fails.
    expect((await api.request('/raw')).status).toBe(500)
    expect(issues.map((i) => [i.path, i.errors])).toEqual([
      [
        '/raw',
        [
          { path: '/id', message: expect.any(String) },
          { path: '/name', message: expect.any(String) },
        ],
      ],
    ])
  })

  it('strips nested objects, arrays, unions (by the variant the tag selects) and intersections', async () => {
    const { api } = make()
    const Item = z.object({ sku: z.string() })
    const Order = z.object({
      id: z.string(),
      items: z.array(Item),
      owner: User.nullable(),
      extra: z.record(z.string(), z.unknown()),
      shape: z.union([
        z.object({ kind: z.literal('a'), a: z.number() }),
        z.object({ kind: z.literal('b'), b: z.number() }),
      ]),
      both: z.intersection(z.object({ x: z.number() }), z.object({ y: z.number() })),
      tuple: z.tuple([Item, z.string()]),
    })
    const sent = {
      id: 'o1',
      internal: true,
      items: [{ sku: 'a', cost: 3 }, { sku: 'b' }],
      owner: { ...leaky },
      extra: { anything: { goes: 1 } },
      shape: { kind: 'a', a: 1, b: 2, hidden: 3 },
      both: { x: 1, y: 2, z: 3 },
      tuple: [{ sku: 'c', cost: 1 }, 'x'],
    }
    api.get('/order', (c) => untyped(c)(sent, 200), {
      openapi: { responses: { 200: { description: 'o', schema: Order } } },
    })
    expect(await (await api.request('/order')).json()).toEqual({
      id: 'o1',
      items: [{ sku: 'a' }, { sku: 'b' }],
      owner: user,
      extra: { anything: { goes: 1 } },
      shape: { kind: 'a', a: 1 },
      both: { x: 1, y: 2 },
      tuple: [{ sku: 'c' }, 'x'],
    })
    expect(sent.owner.passwordHash).toBe('$argon2id$secret') // the handler's object is not mutated
  })

  it('strips through named and recursive schemas ($ref)', async () => {
    const { api } = make()
    interface Node {
      name: string
      children: Node[]
    }
    const Tree: z.ZodType<Node> = z
      .object({
        name: z.string(),
        get children() {
          return z.array(Tree)
        },
      })
      .meta({ id: 'Tree' })
    api.get(
      '/tree',
      (c) => untyped(c)({ name: 'r', s: 1, children: [{ name: 'c', s: 2, children: [] }] }, 200),
      {
        openapi: { responses: { 200: { description: 't', schema: z.object({ root: Tree }) } } },
      },
    )
    api.get(
      '/tree2',
      (c) =>
        untyped(c)(
          { root: { name: 'r', s: 1, children: [{ name: 'c', s: 2, children: [] }] }, x: 1 },
          200,
        ),
      {
        openapi: { responses: { 200: { description: 't', schema: z.object({ root: Tree }) } } },
      },
    )
    expect((await api.request('/tree')).status).toBe(500)
    expect(await (await api.request('/tree2')).json()).toEqual({
      root: { name: 'r', children: [{ name: 'c', children: [] }] },
    })
  })

  it('keeps the headers the handler set, and never answers a 5xx for a thrown error itself', async () => {
    const { api, issues } = make()
    api.get(
      '/h',
      (c) => {
        c.header('X-Trace', 't1')
        return c.json(leaky, 200)
      },
      { openapi: { responses: { 200: { description: 'u', schema: User } } } },
    )
    api.get(
      '/bad',
      (c) => {
        c.header('X-Trace', 't2')
        return untyped(c)({ id: 1 }, 200)
      },
      { openapi: { responses: { 200: { description: 'u', schema: User } } } },
    )
    const ok = await api.request('/h')
    expect([ok.headers.get('x-trace'), await ok.json()]).toEqual(['t1', user])
    const bad = await api.request('/bad')
    expect([bad.status, bad.headers.get('x-trace'), bad.headers.get('content-type')]).toEqual([
      500,
      't2',
      PROBLEM_JSON,
    ])
    expect(issues).toHaveLength(1)
  })

  it('strips by the status the answer really has (no argument, a number, an init, c.status()) and serialises the body once', async () => {
    const { api, issues } = make()
    // 200 and 201 declare different fields, so stripping by the wrong status shows in the body.
    const responses = {
      200: { description: 'a', schema: z.object({ id: z.string(), a: z.string() }) },
      201: { description: 'b', schema: z.object({ id: z.string(), b: z.string() }) },
    }
    const body = { id: 'x', a: 'A', b: 'B', secret: 's' }
    const routes: [string, (c: Context) => Response][] = [
      ['/none', (c) => untyped(c)(body)],
      ['/number', (c) => untyped(c)(body, 201)],
      [
        '/init',
        (c) =>
          (c.json as unknown as (b: unknown, init: ResponseInit) => Response)(body, {
            status: 201,
            headers: { 'x-init': '1' },
          }),
      ],
      [
        '/status',
        (c) => {
          c.status(201)
          return untyped(c)(body)
        },
      ],
      [
        '/status-nothing-removed',
        (c) => {
          c.status(201)
          return untyped(c)({ id: 'x', b: 'B' })
        },
      ],
    ]
    for (const [path, handler] of routes) api.get(path, handler, { openapi: { responses } })
    // No schema for the guessed 200: serialised as given, then stripped by 201 and serialised.
    api.get(
      '/status-undeclared-guess',
      (c) => {
        c.status(201)
        return untyped(c)(body)
      },
      { openapi: { responses: { 200: { description: 'a' }, 201: responses[201] } } },
    )
    const stringify = JSON.stringify
    let calls = 0
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      // Only the body's serialisations (zod also stringifies when it compiles a schema).
      if ((args[0] as { id?: unknown } | null)?.id === 'x') calls++
      return stringify(...args)
    }) as typeof JSON.stringify
    const seen: [string, number, unknown, number][] = []
    try {
      for (const path of [...routes.map(([p]) => p), '/status-undeclared-guess']) {
        calls = 0
        const res = await api.request(path)
        const served = calls
        seen.push([path, res.status, await res.json(), served])
      }
    } finally {
      JSON.stringify = stringify
    }
    const expected: [string, number, unknown, number][] = [
      ['/none', 200, { id: 'x', a: 'A' }, 1],
      ['/number', 201, { id: 'x', b: 'B' }, 1],
      ['/init', 201, { id: 'x', b: 'B' }, 1],
      // c.status() is not visible to the guess (200): stripped by 200 first, then by 201.
      ['/status', 201, { id: 'x', b: 'B' }, 2],
      ['/status-nothing-removed', 201, { id: 'x', b: 'B' }, 2],
      ['/status-undeclared-guess', 201, { id: 'x', b: 'B' }, 2],
    ]
    // With the internals switched off, c.json is Hono's own and the answer is read back and
    // checked after the handler: the same answers, serialised more often.
    const answer = ([path, status, body]: [string, number, unknown, number]) => [path, status, body]
    expect(seen.map(answer)).toEqual(expected.map(answer))
    if (!internalsSwitchedOff()) expect(seen).toEqual(expected)
    expect(issues).toEqual([])
  })

  it("'strict' fails an undeclared property stripped before serialising, by the real status", async () => {
    const { api, issues } = make({ responseValidation: 'strict' })
    api.get('/s', (c) => untyped(c)({ id: 'x', name: 'n', extra: 1 }, 200), {
      openapi: { responses: { 200: { description: 'u', schema: User } } },
    })
    api.get(
      '/s2',
      (c) => {
        c.status(201)
        return untyped(c)({ id: 'x', name: 'n', extra: 1 })
      },
      { openapi: { responses: { 201: { description: 'u', schema: User } } } },
    )
    expect((await api.request('/s')).status).toBe(500)
    expect((await api.request('/s2')).status).toBe(500)
    expect(issues.map((i) => [i.status, i.errors])).toEqual([
      [200, [{ path: '/extra', message: 'Undeclared property' }]],
      [201, [{ path: '/extra', message: 'Undeclared property' }]],
    ])
  })

  it('defines its c.json instead of assigning it, so a read-only c.json is still checked', async () => {
    // Assigning over the context's own c.json made V8 promote every object of the request (see
    // bench/FINDINGS.md, "Garbage"); a read-only property makes an assignment throw.
    const { api } = make()
    api.use('*', async (c, next) => {
      Object.defineProperty(c, 'json', { value: c.json, writable: false, configurable: true })
      await next()
    })
    api.get('/u', (c) => c.json(leaky, 200), {
      openapi: { responses: { 200: { description: 'u', schema: User } } },
    })
    const res = await api.request('/u')
    expect([res.status, await res.json()]).toEqual([200, user])
  })

  it('rejects bad response validation options at construction and registration', () => {
    expect(() => make({ responseValidation: 'loose' as never })).toThrow(
      /^openapi: responseValidation must be one of strip, strict, report, off/,
    )
    expect(() => make({ onResponseValidationError: 1 as never })).toThrow(
      /onResponseValidationError must be a function/,
    )
    const { api } = make()
    expect(() => api.get('/x', (c) => c.text(''), { responseValidation: 'on' as never })).toThrow(
      /^openapi: GET \/x: responseValidation must be one of/,
    )
  })
})

describe('response validation of what JSON.stringify sends (any object, toJSON applied)', () => {
  const make = (mode: ResponseValidationMode, options: Partial<OpenAPIOptions> = {}) => {
    const issues: ResponseValidationIssue[] = []
    const api = openapi(new Hono(), {
      info,
      responseValidation: mode,
      onResponseValidationError: (issue) => {
        issues.push(issue)
      },
      ...options,
    })
    return { api, issues }
  }
  const User = z.object({ id: z.string(), name: z.string() })
  /** An ORM entity: a class instance with a field the API must never send. */
  class UserEntity {
    passwordHash = '$argon2id$secret'
    constructor(
      public id: string,
      public name: string,
    ) {}
  }
  /** A document as Mongoose returns it: getters over internal data, and a toJSON. */
  class UserDocument {
    #doc: Record<string, unknown>
    constructor(doc: Record<string, unknown>) {
      this.#doc = doc
    }
    get id() {
      return this.#doc.id
    }
    toJSON() {
      return { ...this.#doc }
    }
  }
  const entity = () => new UserEntity('u1', 'Ada')
  const doc = () => new UserDocument({ id: 'u1', name: 'Ada', passwordHash: 'h', __v: 0 })
  const bodies: [string, () => unknown, unknown, unknown][] = [
    ['an entity', entity, User, user],
    ['an array of entities', () => [entity(), entity()], z.array(User), [user, user]],
    ['a nested entity', () => ({ owner: entity() }), z.object({ owner: User }), { owner: user }],
    ['a document with toJSON', doc, User, user],
    ['documents in an array', () => [doc()], z.array(User), [user]],
  ]

  it.each(bodies)("'strip' sends %s stripped", async (_name, body, schema, expected) => {
    const { api, issues } = make('strip')
    api.get('/u', (c) => untyped(c)(body(), 200), {
      openapi: { responses: { 200: { description: 'u', schema } } },
    })
    const res = await api.request('/u')
    expect([res.status, await res.json()]).toEqual([200, expected])
    expect(issues).toEqual([])
  })

  it.each(bodies)("'strict' refuses %s", async (_name, body, schema) => {
    const { api, issues } = make('strict')
    api.get('/u', (c) => untyped(c)(body(), 200), {
      openapi: { responses: { 200: { description: 'u', schema } } },
    })
    expect((await api.request('/u')).status).toBe(500)
    expect(issues[0]?.errors.map((e) => e.message)).toContain('Undeclared property')
  })

  it('validates what is sent: a Date passes as an ISO string, and report mode sees the JSON form', async () => {
    for (const mode of ['strip', 'report'] as const) {
      const { api, issues } = make(mode)
      api.get('/e', (c) => untyped(c)({ at: new Date(0) }, 200), {
        openapi: {
          responses: { 200: { description: 'e', schema: z.object({ at: z.iso.datetime() }) } },
        },
      })
      const res = await api.request('/e')
      expect([res.status, await res.json()]).toEqual([200, { at: '1970-01-01T00:00:00.000Z' }])
      expect(issues).toEqual([])
    }
  })

  it('serialises the checked copy, not the object again', async () => {
    const { api } = make('strip')
    let calls = 0
    const shifty = {
      toJSON() {
        calls++
        return calls === 1 ? { id: 'u1', name: 'Ada' } : { id: 'u1', name: 'Ada', leak: 'x' }
      },
    }
    api.get('/u', (c) => untyped(c)({ user: shifty }, 200), {
      openapi: { responses: { 200: { description: 'u', schema: z.object({ user: User }) } } },
    })
    expect(await (await api.request('/u')).json()).toEqual({ user: user })
    expect(calls).toBe(1)
  })

  it('strips a discriminated union by the selected variant (zod 4, zod 3, valibot)', async () => {
    const unions = [
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('cat'), lives: z.number() }),
        z.object({ kind: z.literal('dog'), good: z.boolean() }),
      ]),
      z3.discriminatedUnion('kind', [
        z3.object({ kind: z3.literal('cat'), lives: z3.number() }),
        z3.object({ kind: z3.literal('dog'), good: z3.boolean() }),
      ]),
      v.variant('kind', [
        v.object({ kind: v.literal('cat'), lives: v.number() }),
        v.object({ kind: v.literal('dog'), good: v.boolean() }),
      ]),
    ]
    for (const schema of unions) {
      const { api } = make('strip', { converters: { valibot: toJsonSchema } })
      api.get('/pet', (c) => untyped(c)({ kind: 'cat', lives: 9, good: false, owner: 'x' }, 200), {
        openapi: { responses: { 200: { description: 'p', schema } } },
      })
      expect(await (await api.request('/pet')).json()).toEqual({ kind: 'cat', lives: 9 })
    }
  })

  it('answers 500 rather than guess at a $ref that does not resolve (raw schema, no validator)', async () => {
    const schema = {
      anyOf: [
        { $ref: '#/components/schemas/Missing' },
        { type: 'object', properties: { id: { type: 'string' } } },
      ],
    }
    for (const mode of ['strip', 'strict', 'report'] as const) {
      const { api, issues } = make(mode)
      api.get('/u', (c) => untyped(c)({ id: 'u1', passwordHash: 'h' }, 200), {
        openapi: { responses: { 200: { description: 'u', schema } } },
      })
      const res = await api.request('/u')
      expect([res.status, await res.json()]).toEqual(
        mode === 'report'
          ? [200, { id: 'u1', passwordHash: 'h' }]
          : [500, expect.objectContaining({ code: 'response_invalid' })],
      )
      expect(issues.map((i) => i.errors)).toEqual([
        [{ path: '', message: 'Schema not found: $ref #/components/schemas/Missing' }],
      ])
    }
  })

  it("checks c.body() and new Response() with a JSON media type: stripped in 'strip', refused in 'strict'", async () => {
    for (const mode of ['strip', 'strict'] as const) {
      const { api, issues } = make(mode)
      const responses = { 200: { description: 'u', schema: User } }
      api.get(
        '/body',
        (c) =>
          c.body(JSON.stringify(leaky), 200, { 'Content-Type': 'application/json' }) as Response,
        {
          openapi: { responses },
        },
      )
      api.get(
        '/raw',
        () =>
          new Response(JSON.stringify(leaky), {
            headers: {
              'content-type': 'application/vnd.api+json; charset=utf-8',
              'content-length': '99',
            },
          }),
        { openapi: { responses } },
      )
      api.get(
        '/garbled',
        (c) => c.body('{"id":', 200, { 'Content-Type': 'application/json' }) as Response,
        {
          openapi: { responses },
        },
      )
      for (const path of ['/body', '/raw']) {
        const res = await api.request(path)
        if (mode === 'strip') expect([res.status, await res.json()]).toEqual([200, user])
        else expect(res.status).toBe(500)
      }
      expect((await api.request('/garbled')).status).toBe(500)
      expect(issues.map((i) => [i.path, i.errors[0]?.message])).toEqual([
        ...(mode === 'strict'
          ? [
              ['/body', 'Undeclared property'],
              ['/raw', 'Undeclared property'],
            ]
          : []),
        ['/garbled', 'Not JSON'],
      ])
    }
  })

  it('refuses a compressed JSON answer it cannot read, and leaves a status declared without a schema alone', async () => {
    const { api, issues } = make('strip')
    const encoded = () =>
      new Response('not really gzip', {
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      })
    api.get('/gz', encoded, { openapi: { responses: { 200: { description: 'u', schema: User } } } })
    api.get('/free', encoded, { openapi: { responses: { 200: { description: 'anything' } } } })
    expect((await api.request('/gz')).status).toBe(500)
    expect((await api.request('/free')).status).toBe(200)
    expect(issues.map((i) => [i.path, i.errors])).toEqual([
      ['/gz', [{ path: '', message: 'Encoded JSON body' }]],
    ])
  })

  it("checks a route middleware's answer as the handler's, and leaves what it does around next() alone", async () => {
    const { api, issues } = make('strip')
    const responses = { 200: { description: 'u', schema: User } }
    const cached: MiddlewareHandler = async (c) => untyped(c)(entity(), 200)
    const setsRes: MiddlewareHandler = async (c) => {
      c.res = untyped(c)({ ...leaky }, 200)
    }
    const refusing: MiddlewareHandler = async (c) => untyped(c)({ error: 'no', token: 't' }, 401)
    const around: MiddlewareHandler = async (c, next) => {
      await next()
      c.header('X-Around', '1')
    }
    api.get('/cached', (c) => c.json(user, 200), { middlewares: [cached], openapi: { responses } })
    api.get('/set', (c) => c.json(user, 200), { middlewares: [setsRes], openapi: { responses } })
    api.get('/refusing', (c) => c.json(user, 200), {
      middlewares: [refusing],
      openapi: { responses },
    })
    api.get('/around', (c) => untyped(c)(leaky, 200), {
      middlewares: [around],
      openapi: { responses },
    })
    expect(await (await api.request('/cached')).json()).toEqual(user)
    expect(await (await api.request('/set')).json()).toEqual(user)
    // An undescribed 401 the route does not declare: nothing says what may leave.
    expect((await api.request('/refusing')).status).toBe(500)
    const wrapped = await api.request('/around')
    expect([wrapped.headers.get('x-around'), await wrapped.json()]).toEqual(['1', user])
    expect(issues.map((i) => [i.kind, i.path, i.status])).toEqual([
      ['undeclared_status', '/refusing', 401],
    ])
  })

  it('checks the answer of a synchronous route middleware, and passes on what it throws', async () => {
    const { api, issues } = make('strip')
    const responses = { 200: { description: 'u', schema: User } }
    const answers = ((c: Context) => untyped(c)({ ...leaky }, 200)) as unknown as MiddlewareHandler
    const passes = ((_c: Context, next: () => Promise<void>) => next()) as MiddlewareHandler
    const throws = (() => {
      throw new HTTPException(403, { message: 'no' })
    }) as MiddlewareHandler
    api.get('/answers', (c) => c.json(user, 200), {
      middlewares: [answers],
      openapi: { responses },
    })
    api.get('/passes', (c) => untyped(c)(leaky, 200), {
      middlewares: [passes],
      openapi: { responses },
    })
    api.get('/throws', (c) => c.json(user, 200), { middlewares: [throws], openapi: { responses } })
    expect(await (await api.request('/answers')).json()).toEqual(user)
    expect(await (await api.request('/passes')).json()).toEqual(user)
    expect((await api.request('/throws')).status).toBe(403)
    expect(issues).toEqual([])
  })

  it('hands back the promise of a route middleware that called next() before returning, and checks one that answers after an await', async () => {
    const { api, issues } = make('strip')
    const responses = { 200: { description: 'u', schema: User } }
    let given: Promise<void> | undefined
    const passes = ((_c: Context, next: () => Promise<void>) => {
      given = next()
      return given
    }) as MiddlewareHandler
    // Calls next() only after an await: its promise is still the wrapper's to check when it
    // settles, and an answer of its own (here, without next()) is checked as the handler's.
    const later = (async (c: Context, next: () => Promise<void>) => {
      await Promise.resolve()
      if (c.req.query('answer') === '1') return untyped(c)({ ...leaky }, 200)
      await next()
    }) as MiddlewareHandler
    api.get('/passes', (c) => untyped(c)(leaky, 200), {
      middlewares: [passes],
      openapi: { responses },
    })
    api.get('/later', (c) => untyped(c)(leaky, 200), {
      middlewares: [later],
      openapi: { responses },
    })
    const run = api.app.routes.filter((r) => r.path === '/passes').map((r) => r.handler)
    const wrapper = run.find((h) => h !== passes && h.length === 2 && h.name === 'checked')
    expect(wrapper).toBeDefined()
    expect(await (await api.request('/passes')).json()).toEqual(user)
    expect(await (await api.request('/later')).json()).toEqual(user)
    expect(await (await api.request('/later?answer=1')).json()).toEqual(user)
    expect(issues).toEqual([])
    // Called directly: the wrapper returns the very promise the middleware returned.
    const c = { finalized: false } as unknown as Context
    const returned = (wrapper as MiddlewareHandler)(c, async () => undefined)
    expect(returned).toBe(given)
    await returned
  })

  it('keeps what a route middleware describes of itself readable on the function Hono runs', () => {
    const { api } = make('strip')
    const key = Symbol.for('palisade.openapi.describe')
    const described: MiddlewareHandler = async (_c, next) => next()
    Object.defineProperty(described, key, { value: { middleware: 'custom', responses: [] } })
    api.get('/d', (c) => c.json(user, 200), {
      middlewares: [described],
      openapi: { responses: { 200: { description: 'u', schema: User } } },
    })
    const handlers = api.app.routes.filter((r) => r.path === '/d').map((r) => r.handler)
    expect(
      handlers.some((h) => h !== described && (h as unknown as Record<symbol, unknown>)[key]),
    ).toBe(true)
  })
})

describe("the handler's c.json, once the handler is done", () => {
  const Outer = z.object({ id: z.string() })

  it('is Hono’s again for an outer middleware: its own answer is not stripped by the route’s schema', async () => {
    const api = openapi(new Hono(), { info })
    api.use('*', async (c, next) => {
      await next()
      if (c.req.header('x-replace') === '1') c.res = untyped(c)({ id: 'outer', extra: true }, 200)
    })
    api.get('/user', (c) => c.json(leaky, 200), {
      openapi: { responses: { 200: { description: 'The user', schema: Outer } } },
    })
    // The route's own answer is stripped; the outer middleware's, after the handler, is its own.
    expect(await (await api.request('/user')).json()).toEqual({ id: 'u1' })
    const replaced = await api.request('/user', { headers: { 'x-replace': '1' } })
    expect(await replaced.json()).toEqual({ id: 'outer', extra: true })
  })

  it('is Hono’s again for onError after the handler threw, synchronously or not', async () => {
    const api = openapi(new Hono(), { info })
    // 200: the status the route declares a schema for, so a c.json still stripping would show.
    api.onError((_err, c) => untyped(c)({ id: 'error', extra: true }, 200))
    const responses = { 200: { description: 'The user', schema: Outer } }
    api.get(
      '/sync',
      () => {
        throw new Error('down')
      },
      { openapi: { responses } },
    )
    api.get(
      '/async',
      async () => {
        await Promise.resolve()
        throw new Error('down')
      },
      { openapi: { responses } },
    )
    for (const path of ['/sync', '/async']) {
      const res = await api.request(path)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ id: 'error', extra: true })
    }
  })

  it('still strips a c.json() the handler makes after an await', async () => {
    const api = openapi(new Hono(), { info })
    api.get(
      '/user',
      async (c) => {
        await Promise.resolve()
        return c.json(leaky, 200)
      },
      { openapi: { responses: { 200: { description: 'The user', schema: Outer } } } },
    )
    expect(await (await api.request('/user')).json()).toEqual({ id: 'u1' })
  })
})
