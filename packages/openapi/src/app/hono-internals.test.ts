import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import {
  basePathOf,
  errorHandlerOf,
  isHonoDefaultErrorHandler,
  isMountHandler,
  probeHonoInternals,
  routeRecords,
  targetHandler,
} from './hono-internals'

describe('the reads of Hono internals', () => {
  it('the installed Hono has every capability read here', () => {
    expect(probeHonoInternals()).toEqual({ routes: true, mount: true })
  })

  it('reads the route records as Hono keeps them, base path included, and refuses what is not', () => {
    const app = new Hono()
    app.use('*', async (_c, next) => next())
    app.basePath('/v1').get('/x', (c) => c.text('x'))
    expect(routeRecords(app)?.map((r) => `${r.method} ${r.path}`)).toEqual(['ALL /*', 'GET /v1/x'])
    expect(routeRecords({ routes: [{ method: 'GET', path: '/x' }] })).toBeUndefined()
    expect(routeRecords({ routes: 'no' })).toBeUndefined()
    expect(routeRecords(null)).toBeUndefined()
  })

  it('the base path and the error handler', () => {
    const app = new Hono()
    expect(basePathOf(app)).toBe('/')
    expect(basePathOf(app.basePath('/v1'))).toBe('/v1')
    expect(basePathOf({})).toBe('/')
    expect(isHonoDefaultErrorHandler(errorHandlerOf(app))).toBe(true)
    const own = (_err: Error, c: { text: (t: string) => Response }) => c.text('failed')
    app.onError(own)
    expect(errorHandlerOf(app)).toBe(own)
    expect(isHonoDefaultErrorHandler(own)).toBe(false)
  })

  it("unwraps the handler Hono puts around a sub-app's routes when the sub-app has onError", () => {
    const handler = (c: { text: (t: string) => Response }) => c.text('x')
    const sub = new Hono().get('/x', handler)
    sub.onError((_err, c) => c.text('sub', 500))
    const parent = new Hono().route('/sub', sub)
    const record = routeRecords(parent)?.[0]
    expect(record?.handler).not.toBe(handler)
    expect(targetHandler(record?.handler)).toBe(handler)
    expect(targetHandler(handler)).toBe(handler)
  })

  it('recognises mounted applications, and not a middleware of the same arity', async () => {
    // `hono/mount` is recent (4.13.11 or so): the version matrix (tests/versions) also runs
    // older releases, where only `app.mount()` exists.
    const mount = await import('hono/mount').then(
      (m) => m.mount,
      () => (handler: () => Response) => {
        const probe = new Hono()
        probe.mount('/', handler)
        return routeRecords(probe)?.at(-1)?.handler as never
      },
    )
    const app = new Hono()
    app.mount('/legacy', () => new Response('legacy'))
    app.all(
      '/other/*',
      mount(() => new Response('other')),
    )
    app.use('*', async (_c, next) => next())
    const [legacy, other, middleware] = routeRecords(app) ?? []
    expect(isMountHandler(legacy?.handler)).toBe(true)
    expect(isMountHandler(other?.handler)).toBe(true)
    expect(isMountHandler(middleware?.handler)).toBe(false)
    expect(isMountHandler(async (c: unknown, next: unknown) => [c, next])).toBe(false)
    expect(isMountHandler('not a function')).toBe(false)
  })
})
