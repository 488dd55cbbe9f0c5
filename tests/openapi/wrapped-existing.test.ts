// openapi() over a Hono app that already has middleware and an error handler (issue 26, finding
// 5): what Hono runs for the wrapped routes is what the document says, or openapi() refuses.
import { type ErrorHandler, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import {
  describeMiddleware,
  jwtAuth,
  problemHandler,
  rateLimit,
} from '../../packages/middleware/src'
import { openapi } from '../../packages/openapi/src'
import { internalsSwitchedOff } from '../../packages/shared/src/internals'
import { expectValidOpenAPI } from './validate'

/**
 * The version matrix (tests/versions) also runs this file with the internals switched off:
 * an error handler set before wrapping cannot be read then (app/existing.ts), so these tests set
 * it right after wrapping instead, and the refusal becomes a warning
 * (tests/openapi/internals-switch.test.ts).
 */
const OFF = internalsSwitchedOff()

/** Sets `handler` on `hono` before wrapping, or right after it when the internals are off. */
function wrapWithHandler(hono: Hono, handler: ErrorHandler) {
  if (!OFF) hono.onError(handler)
  const api = openapi(hono, { info })
  if (OFF) hono.onError(handler)
  return api
}

const info = { title: 'Wrapped late', version: '1.0.0' }
const secret = 'a-development-secret-of-32-bytes!'
const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } }

/** The new user's app: the limiter and the error handler were there before openapi(). */
function wrappedLate(hono = new Hono()) {
  hono.use(rateLimit({ max: 1, windowMs: 60_000 }))
  const api = wrapWithHandler(hono, problemHandler())
  api.get('/me', (c) => c.json({ sub: c.get('jwtPayload').sub }), [jwtAuth({ secret })])
  return api
}

describe('openapi() over an app that already has middleware and an error handler', () => {
  it('documents the 429 of a limiter added by hono.use before wrapping', async () => {
    const doc = wrappedLate().spec()
    const me = doc.paths['/me']?.get
    expect(Object.keys(me?.responses ?? {})).toEqual(expect.arrayContaining(['401', '429']))
    expect(me?.responses['429']?.content).toEqual(problem)
    expect(me?.responses['429']?.headers).toHaveProperty('Retry-After')
    expect(me?.responses['200']?.headers).toHaveProperty('RateLimit-Limit')
    await expectValidOpenAPI(doc)
  })

  it("documents the 401 with the body of the app's problemHandler, set by hono.onError", async () => {
    const api = wrappedLate()
    const doc = api.spec()
    expect(doc.paths['/me']?.get?.responses['401']?.content).toEqual(problem)
    expect(doc.components.schemas).toHaveProperty('Problem')
    // And that is what the app answers.
    const res = await api.request('/me')
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    const limited = await api.request('/me')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  })

  it('matches middleware added before wrapping against the served path, base path included', () => {
    const hono = new Hono().basePath('/v1')
    hono.use('/admin/*', rateLimit({ max: 5 }))
    const api = openapi(hono, { info })
    api.get('/admin/users', (c) => c.text('users'))
    api.get('/public', (c) => c.text('public'))
    const doc = api.spec()
    expect(doc.paths['/v1/admin/users']?.get?.responses).toHaveProperty('429')
    expect(doc.paths['/v1/public']?.get?.responses).not.toHaveProperty('429')
  })

  it('reads an error handler set on the Hono app after wrapping, too', () => {
    const hono = new Hono()
    const api = openapi(hono, { info })
    api.get('/me', (c) => c.text('me'), [jwtAuth({ secret })])
    expect(api.spec().paths['/me']?.get?.responses['401']?.content).toHaveProperty('text/plain')
    hono.onError(problemHandler())
    expect(api.spec().paths['/me']?.get?.responses['401']?.content).toEqual(problem)
  })

  it('refuses an app whose error handler does not describe its rejection bodies, naming the fixes', () => {
    const hono = new Hono()
    hono.onError(function renderErrors(err, c) {
      return err instanceof HTTPException ? err.getResponse() : c.json({ error: 'oops' }, 500)
    })
    if (OFF) expect(() => openapi(hono, { info })).not.toThrow()
    else
      expect(() => openapi(hono, { info })).toThrow(
        /^openapi: the Hono app already has an error handler \(renderErrors\) that does not describe.*problemHandler\(\).*describeMiddleware.*api\.onError/,
      )
  })

  it('accepts a custom error handler that describes its body, and documents that body', () => {
    const hono = new Hono()
    const render: ErrorHandler = (_err, c) => c.json({ message: 'no' }, 400)
    const api = wrapWithHandler(
      hono,
      describeMiddleware(render, {
        rejectionBody: {
          mediaType: 'application/json',
          schemaName: 'ApiError',
          schema: { type: 'object', properties: { message: { type: 'string' } } },
        },
      }),
    )
    api.get('/me', (c) => c.text('me'), [jwtAuth({ secret })])
    expect(api.spec().paths['/me']?.get?.responses['401']?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/ApiError' } },
    })
  })

  it("keeps Hono's default error handler documented as text/plain, as it answers", async () => {
    const api = openapi(new Hono(), { info })
    api.get('/me', (c) => c.text('me'), [jwtAuth({ secret })])
    expect(api.spec().paths['/me']?.get?.responses['401']?.content).toHaveProperty('text/plain')
    const res = await api.request('/me')
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
  })
})
