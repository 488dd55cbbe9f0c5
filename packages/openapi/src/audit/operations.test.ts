// How the audit reads an app: one operation per route Hono answers (the documented operations of a
// wrapper route, each other route once, with why it is undocumented), and for each the middleware
// registered before it on a path reaching all or part of it. Middleware are described by hand
// under the registered symbol, as a third-party one would be.
import { Hono, type MiddlewareHandler } from 'hono'
import { mount } from 'hono/mount'
import { describe, expect, it } from 'vitest'
import { openapi } from '../app/openapi'
import type { Description } from '../document/described-read'
import {
  type ChainEntry,
  descriptionsFor,
  type Operation,
  operationsOf,
  partialFor,
} from './operations'

const KEY = Symbol.for('palisade.openapi.describe')
const info = { title: 'Audit', version: '1.0.0' }
const ok = { 200: { description: 'OK' } }
const hello = (c: { text: (t: string) => Response }) => c.text('hello')
const EVERY = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

function described(description: Description): MiddlewareHandler {
  const mw: MiddlewareHandler = async (_c, next) => next()
  Object.defineProperty(mw, KEY, { value: description })
  return mw
}

/** `METHOD path` of each operation, with why it is undocumented when it is. */
const summary = (ops: Operation[] | undefined) =>
  ops?.map((op) => [op.method, op.path, op.undocumented ?? 'documented'].join(' '))

describe('operationsOf', () => {
  it('reads each documented operation with its path, route, parameters and record', () => {
    const api = openapi(new Hono(), { info })
    api.get('/users/:id{[0-9]+}', hello, { openapi: { responses: ok } })
    const [op, ...rest] = operationsOf(api) ?? []
    expect(rest).toEqual([])
    expect(op).toEqual({
      method: 'GET',
      methods: ['GET'],
      path: '/users/{id}',
      route: '/users/:id{[0-9]+}',
      documented: api.routes[0],
      params: ['id'],
      chain: [],
    })
  })

  it('an `all` route is one operation per method, and an optional parameter one per variant', () => {
    const api = openapi(new Hono(), { info })
    api.all('/any', hello, { openapi: { responses: ok } })
    api.get('/posts/:id?', hello, { openapi: { responses: ok } })
    const ops = operationsOf(api) ?? []
    expect(summary(ops)).toEqual([
      ...EVERY.map((m) => `${m} /any documented`),
      'GET /posts documented',
      'GET /posts/{id} documented',
    ])
    expect(ops.map((op) => op.params)).toEqual([...EVERY.map(() => []), [], ['id']])
  })

  it('says why a route is undocumented: registered past the wrapper, mounted, or a wildcard', () => {
    const api = openapi(new Hono(), { info })
    api.app.post('/raw', hello)
    api.app.mount('/legacy', () => new Response('legacy'))
    api.app.all(
      '/other/*',
      mount(() => new Response('other')),
    )
    api.get('/files/*', hello)
    const ops = operationsOf(api) ?? []
    expect(summary(ops)).toEqual([
      'POST /raw unregistered',
      'ALL /legacy/* mounted',
      'ALL /other/* mounted',
      'GET /files/* wildcard',
    ])
    // An undocumented route is checked for its own method, or for every method when it is `ALL`.
    expect(ops.map((op) => op.methods)).toEqual([['POST'], EVERY, EVERY, ['GET']])
    expect(ops.map((op) => [op.route, op.params, op.documented])).toEqual([
      ['/raw', [], undefined],
      ['/legacy/*', [], undefined],
      ['/other/*', [], undefined],
      ['/files/*', [], undefined],
    ])
  })

  it('a route whose operation the document takes from another route is described elsewhere, once per method', () => {
    const api = openapi(new Hono(), { info })
    // Same method and template, neither with metadata: on a tie the first is the one shown.
    api.get('/files/:id{[0-9]+}', hello)
    api.get('/files/:id{[a-z]+}', hello)
    // Two variants (`/p` and `/p/{id}`), both shown from the routes above it: one entry.
    api.get('/p', hello)
    api.get('/p/:id', hello)
    api.get('/p/:id?', hello)
    expect(summary(operationsOf(api))).toEqual([
      'GET /files/{id} documented',
      'GET /files/:id{[a-z]+} described-elsewhere',
      'GET /p documented',
      'GET /p/{id} documented',
      'GET /p/:id? described-elsewhere',
    ])
  })

  it('the document shows the route of higher priority: metadata over none, a method over `all`', () => {
    const api = openapi(new Hono(), { info })
    api.all('/a', hello)
    api.get('/a', hello)
    api.get('/b/:x', hello)
    api.get('/b/:x{[0-9]+}', hello, { openapi: { responses: ok } })
    expect(summary(operationsOf(api))).toEqual([
      // GET /a is answered by the `all` route, which Hono reaches first, but documented from the
      // GET route: the `all` route's GET is shown elsewhere, and the GET route is never reached.
      'GET /a described-elsewhere',
      ...EVERY.filter((m) => m !== 'GET').map((m) => `${m} /a documented`),
      'GET /b/:x described-elsewhere',
      'GET /b/{x} documented',
    ])
  })

  it('a method and path an earlier route answers is not read again', () => {
    const api = openapi(new Hono(), { info })
    api.app.get('/dup', hello)
    api.get('/dup', hello, { openapi: { responses: ok } })
    api.app.all('/both', hello)
    api.app.get('/both', hello)
    api.get('/one', hello, { openapi: { responses: ok } })
    api.all('/one', hello, { openapi: { responses: ok } })
    const ops = operationsOf(api) ?? []
    expect(summary(ops)).toEqual([
      'GET /dup unregistered',
      'ALL /both unregistered',
      'GET /one documented',
      // GET /one is answered by the GET route: the `all` route adds the other methods.
      ...EVERY.filter((m) => m !== 'GET').map((m) => `${m} /one documented`),
    ])
  })

  it('is undefined when Hono’s routes cannot be read', () => {
    const api = openapi(new Hono(), { info })
    Object.defineProperty(api.app, 'routes', { value: 'not routes' })
    expect(operationsOf(api)).toBeUndefined()
  })
})

describe('the chain of a route', () => {
  const auth = described({ middleware: 'auth' })
  const posts = described({ middleware: 'posts' })
  const digits = described({ middleware: 'digits' })
  const late = described({ middleware: 'late' })
  const plain: MiddlewareHandler = async (_c, next) => next()

  function app() {
    const api = openapi(new Hono(), { info })
    api.use('*', auth)
    api.app.on('POST', '/f/*', posts)
    api.use('/f/:id{[0-9]+}', digits)
    api.use('/elsewhere/*', described({ middleware: 'elsewhere' }))
    api.app.use('*', plain)
    // A route before it on a path that reaches it is no middleware of its chain.
    api.app.post('/f/*', hello)
    api.get('/f/:id', hello, { openapi: { responses: ok } })
    api.use('*', late)
    return api
  }

  it('holds the middleware registered before the route that reach it, in order, with their reach', () => {
    const ops = operationsOf(app()) ?? []
    expect(summary(ops)).toEqual(['POST /f/* unregistered', 'GET /f/{id} documented'])
    expect(ops[1]?.chain).toEqual([
      // Hono records `use('*')` at `/*`.
      { method: 'ALL', pattern: '/*', description: { middleware: 'auth' }, reach: 'all' },
      { method: 'POST', pattern: '/f/*', description: { middleware: 'posts' }, reach: 'all' },
      {
        method: 'ALL',
        pattern: '/f/:id{[0-9]+}',
        description: { middleware: 'digits' },
        reach: 'some',
      },
      { method: 'ALL', pattern: '/*', description: undefined, reach: 'all' },
    ] satisfies ChainEntry[])
  })

  it('descriptionsFor: what runs for every request of a method; partialFor: what runs for part', () => {
    const op = operationsOf(app())?.[1]
    if (op === undefined) throw new Error('no operation')
    expect(descriptionsFor(op, 'GET')).toEqual([{ middleware: 'auth' }])
    expect(descriptionsFor(op, 'POST')).toEqual([{ middleware: 'auth' }, { middleware: 'posts' }])
    expect(partialFor(op, 'GET').map((e) => e.pattern)).toEqual(['/f/:id{[0-9]+}'])
  })

  it('a description that names its methods applies to those alone, unless every one is asked', () => {
    const unsafe = described({ middleware: 'unsafe', methods: ['post', 'DELETE'] })
    const api = openapi(new Hono(), { info })
    api.use('*', unsafe)
    api.use('/x/:id{[0-9]+}', unsafe)
    api.get('/x/:id', hello, { openapi: { responses: ok } })
    const [op] = operationsOf(api) ?? []
    if (op === undefined) throw new Error('no operation')
    const names = (ds: Description[]) => ds.map((d) => d.middleware)
    expect(names(descriptionsFor(op, 'GET'))).toEqual([])
    expect(names(descriptionsFor(op, 'POST'))).toEqual(['unsafe'])
    expect(names(descriptionsFor(op, 'GET', false))).toEqual(['unsafe'])
    expect(partialFor(op, 'GET')).toEqual([])
    expect(partialFor(op, 'DELETE').map((e) => e.pattern)).toEqual(['/x/:id{[0-9]+}'])
  })

  it('partialFor leaves out what runs for another method, or carries no description', () => {
    const api = openapi(new Hono(), { info })
    api.app.on('POST', '/x/:id{[0-9]+}', described({ middleware: 'posts' }))
    api.app.use('/x/:id{[a-z]+}', async (_c, next) => next())
    api.get('/x/:id', hello, { openapi: { responses: ok } })
    const [op] = operationsOf(api) ?? []
    if (op === undefined) throw new Error('no operation')
    expect(op.chain.map((e) => e.reach)).toEqual(['some', 'some'])
    expect(partialFor(op, 'GET')).toEqual([])
    expect(partialFor(op, 'POST').map((e) => e.pattern)).toEqual(['/x/:id{[0-9]+}'])
    expect(descriptionsFor(op, 'POST')).toEqual([])
  })
})
