// Stateful fuzzing: fuzz() follows the links answers declare, evaluating their runtime
// expressions against the real exchange, and judges the linked call as any other.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openapi } from '../app/openapi'
import { parseRuntimeExpression } from '../model/runtime-expression'
import { formatLink, fuzz } from '.'
import { linkValue } from './links'

const info = { title: 'Links', version: '1.0.0' }
const Note = z.strictObject({ id: z.uuid(), text: z.string() })

/** Notes: POST creates, GET reads by id; `lose` makes the store forget what POST created. */
function notes(options: { lose?: boolean; link?: Record<string, unknown> } = {}) {
  const store = new Map<string, z.infer<typeof Note>>()
  let gets = 0
  const hono = new Hono()
  // A path parameter that is no note id (`a/b`) matches no route: a documented 404 too.
  hono.notFound((c) => c.json({ error: 'no such route' }, 404))
  const api = openapi(hono, { info })
  api.post(
    '/notes',
    (c) => {
      const note = { id: crypto.randomUUID(), text: c.req.valid('json').text }
      if (!options.lose) store.set(note.id, note)
      return c.json(note, 201)
    },
    {
      openapi: {
        operationId: 'createNote',
        request: { body: z.object({ text: z.string().max(20) }) },
        responses: {
          201: {
            description: 'Created',
            schema: Note,
            links: {
              GetNote: { operationId: 'getNote', parameters: { id: '$response.body#/id' } },
              ...options.link,
            },
          },
        },
      },
    },
  )
  api.get(
    '/notes/:id',
    (c) => {
      const note = store.get(c.req.valid('param').id)
      if (note) gets++
      return note ? c.json(note, 200) : c.json({ error: 'no such note' }, 404)
    },
    {
      openapi: {
        operationId: 'getNote',
        request: { params: z.object({ id: z.uuid() }) },
        responses: {
          200: { description: 'The note', schema: Note },
          404: { description: 'No such note', schema: z.object({ error: z.string() }) },
        },
      },
    },
  )
  return { api, found: () => gets }
}

describe('fuzz() follows links', () => {
  it("calls the linked operation with the created resource's id, bounded, and reports the chain", async () => {
    const { api, found } = notes()
    const report = await fuzz(api, { seed: 7, runs: 60 })
    expect(report.failures).toEqual([])
    const [edge] = report.links
    expect(edge).toMatchObject({ from: 'POST /notes 201', link: 'GetNote', to: 'GET /notes/{id}' })
    // At most `max` (10) chains per operation, each one GET that finds the note it created.
    expect(edge?.followed).toBe(10)
    expect(edge?.statuses).toEqual({ 200: 10 })
    expect(found()).toBe(10)
    expect(formatLink(edge as never)).toBe(
      '↪ POST /notes 201 --GetNote--> GET /notes/{id}: followed 10 (200×10)\n',
    )
  })

  it('is deterministic with the seed', async () => {
    const a = await fuzz(notes().api, { seed: 11, runs: 20 })
    const b = await fuzz(notes().api, { seed: 11, runs: 20 })
    expect(a.links).toEqual(b.links)
    expect(a.requests).toBe(b.requests)
    expect(a.statuses).toEqual(b.statuses)
  })

  it('fails when what POST created is not found through the link (ensure_resource_availability)', async () => {
    const report = await fuzz(notes({ lose: true }).api, { seed: 3, runs: 20 })
    expect(report.failures).toHaveLength(1)
    expect(report.failures[0]).toMatchObject({
      method: 'GET',
      path: '/notes/{id}',
      status: 404,
      reason:
        'via link GetNote of POST /notes 201: the resource POST /notes created is not found (404)',
    })
  })

  it('fails when a link expression finds nothing in the answer', async () => {
    const link = {
      Broken: { operationId: 'getNote', parameters: { id: '$response.body#/noteId' } },
    }
    const report = await fuzz(notes({ link }).api, { seed: 5, runs: 20 })
    expect(report.failures.map((f) => f.reason)).toEqual([
      'via link Broken of POST /notes 201: $response.body#/noteId is not in the exchange',
    ])
  })

  it('follows no link with links: false, and bounds chains with max', async () => {
    expect((await fuzz(notes().api, { seed: 1, runs: 20, links: false })).links).toEqual([])
    const report = await fuzz(notes().api, { seed: 1, runs: 20, links: { max: 2 } })
    expect(report.links[0]?.followed).toBe(2)
    await expect(fuzz(notes().api, { links: { depth: -1 } })).rejects.toThrow(
      'fuzz: links.depth must be a non-negative integer',
    )
  })
})

describe('runtime expressions against an exchange', () => {
  const ctx = {
    url: 'http://localhost/notes?x=1',
    method: 'POST',
    statusCode: 201,
    request: {
      headers: new Headers({ 'x-trace': 't1' }),
      query: new URLSearchParams('x=1'),
      path: { id: 'p' },
      body: { a: { 'b/c': [10, 20] } },
    },
    response: { headers: new Headers({ location: '/notes/9' }), body: { id: 9, 'm~n': true } },
  }
  it.each([
    ['$url', 'http://localhost/notes?x=1'],
    ['$method', 'POST'],
    ['$statusCode', 201],
    ['$request.header.X-Trace', 't1'],
    ['$request.query.x', '1'],
    ['$request.path.id', 'p'],
    ['$request.body#/a/b~1c/1', 20],
    ['$response.body#/m~0n', true],
    ['$response.body#/id', 9],
    ['$response.header.Location', '/notes/9'],
    ['$response.body#/missing', undefined],
    ['/notes/{$response.body#/id}?from={$method}', '/notes/9?from=POST'],
    ['plain', 'plain'],
  ])('%s is %j', (expression, value) => {
    expect(linkValue(expression, ctx)).toEqual(value)
  })

  it('parses every valid form and names what is wrong with the rest', () => {
    expect(parseRuntimeExpression('$response.body')).toEqual({
      kind: 'body',
      of: 'response',
      pointer: [],
    })
    expect(parseRuntimeExpression('$request.query.')).toBe('$request.query. needs a name')
    expect(parseRuntimeExpression('$response.query.x')).toBe('$response has no query parameters')
    expect(parseRuntimeExpression('$requests.body')).toMatch(/^a runtime expression is/)
  })
})
