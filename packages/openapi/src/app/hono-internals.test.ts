import { internalsSwitchedOff } from '@palisade/shared/internals'
import { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  basePathOf,
  errorHandlerOf,
  isHonoDefaultErrorHandler,
  isMountHandler,
  probeHonoInternals,
  requireInternals,
  routeRecords,
  targetHandler,
  watchErrorHandler,
} from './hono-internals'

// The version matrix (tests/versions) runs this file with the switch on too; each test here
// sets the state it tests, and the file leaves the switch as it found it.
const initial = internalsSwitchedOff()
const setSwitch = (off: boolean) => Object.assign(globalThis, { __PALISADE_NO_INTERNALS__: off })
afterEach(() => setSwitch(initial))

describe('the reads of Hono internals', () => {
  beforeEach(() => setSwitch(false))

  it('the installed Hono has every capability read here', () => {
    expect(probeHonoInternals()).toEqual({
      routes: true,
      errorHandler: true,
      composed: true,
      mount: true,
    })
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

  it("the base path each record carries (public) is Hono's private one", () => {
    const root = new Hono()
    const apps = [
      root,
      root.basePath('/v1'),
      root.basePath('/v1').basePath('x/'),
      root.basePath(''),
    ]
    for (const app of apps) {
      app.get('/probe', (c) => c.text('p'))
      const record = routeRecords(app)?.at(-1)
      expect(basePathOf(record)).toBe((app as unknown as { _basePath: string })._basePath)
    }
    expect(basePathOf({})).toBe('/')
    expect(basePathOf(undefined)).toBe('/')
  })

  it('the error handler', () => {
    const app = new Hono()
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

describe('with the internals switched off', () => {
  beforeEach(() => setSwitch(true))

  it('the probe says which reads are off; the public route records stay', () => {
    expect(probeHonoInternals()).toEqual({
      routes: true,
      errorHandler: false,
      composed: false,
      mount: false,
    })
  })

  it('reads no error handler, no composed handler, no mount', () => {
    const own = (_err: Error, c: { text: (t: string) => Response }) => c.text('failed')
    const handler = (c: { text: (t: string) => Response }) => c.text('x')
    const sub = new Hono().get('/x', handler)
    sub.onError(own)
    const parent = new Hono().route('/sub', sub)
    parent.mount('/legacy', () => new Response('legacy'))
    parent.onError(own)
    const [composed, mounted] = routeRecords(parent) ?? []
    expect(errorHandlerOf(parent)).toBeUndefined()
    expect(targetHandler(composed?.handler)).toBe(composed?.handler)
    expect(targetHandler(composed?.handler)).not.toBe(handler)
    expect(isMountHandler(mounted?.handler)).toBe(false)
  })

  it('watchErrorHandler sees what onError is given after it, and Hono still gets it', async () => {
    const before = (_err: Error, c: { text: (t: string, s: number) => Response }) =>
      c.text('before', 500)
    const after = (_err: Error, c: { text: (t: string, s: number) => Response }) =>
      c.text('after', 500)
    const app = new Hono()
    app.onError(before)
    const current = watchErrorHandler(app)
    expect(current()).toBeUndefined()
    app.get('/boom', () => {
      throw new Error('boom')
    })
    expect(app.onError(after)).toBe(app)
    expect(current()).toBe(after)
    expect(await (await app.request('/boom')).text()).toBe('after')
    // With the internals on, Hono's own field is read (what was set before watching, too).
    setSwitch(false)
    expect(current()).toBe(after)
    const other = new Hono()
    other.onError(before)
    expect(watchErrorHandler(other)()).toBe(before)
  })

  it('requireInternals names the switch, and returns with it off', () => {
    expect(() => requireInternals('audit')).toThrow(
      /^audit: .*globalThis\.__PALISADE_NO_INTERNALS__ switches off/,
    )
    setSwitch(false)
    expect(() => requireInternals('audit')).not.toThrow()
  })
})
