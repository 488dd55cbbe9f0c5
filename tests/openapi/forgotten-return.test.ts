// A handler that forgets to `return` its response, on a wrapped app: Hono's own report
// ("Context is not finalized") reaches `onError`, whatever the wrapper puts around the handler
// (request validation, the response check, a route middleware checked for its answers) and
// whichever of our middleware run in front (packages/middleware/src/forgotten-return.test.ts
// drives each middleware's ways on a plain Hono app).
import { Hono, type MiddlewareHandler } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { bodyLimit, jwtAuth } from '../../packages/middleware/src'
import { openapi } from '../../packages/openapi/src'

const info = { title: 'Forgotten return', version: '1.0.0' }
const secret = 's'.repeat(32)

function forgetfulApp(front?: MiddlewareHandler) {
  const errors: unknown[] = []
  const hono = new Hono()
  const api = openapi(hono, { info })
  hono.onError((e, c) => {
    errors.push(e)
    return c.text('reported', 500)
  })
  if (front) api.use(front)
  const forget = (c: Parameters<MiddlewareHandler>[0]) => {
    c.json({ id: 1 }, 200)
  }
  const user = { 200: { description: 'The user', schema: z.object({ id: z.number() }) } }
  api.get('/plain', forget as never)
  api.get('/checked', forget as never, { openapi: { responses: user } })
  api.post('/validated', forget as never, {
    openapi: { request: { body: z.object({ name: z.string() }) }, responses: user },
  })
  api.post('/route-middleware', forget as never, {
    middlewares: [bodyLimit({ max: 100 })],
    openapi: { responses: user },
  })
  return { api, errors }
}

const post = {
  method: 'POST',
  body: '{"name":"Ada"}',
  headers: { 'content-type': 'application/json' },
}
const cases = [
  ['/plain', undefined],
  ['/checked', undefined],
  ['/validated', post],
  ['/route-middleware', post],
] as const

describe('a wrapped handler that forgets to return its response', () => {
  describe.each([
    ['no middleware in front', undefined],
    ['bodyLimit in front', bodyLimit()],
    ['jwtAuth in front, a valid token', 'jwt'],
  ] as const)('%s', (_, front) => {
    it.each(cases)('%s: Hono reports it to onError', async (path, init) => {
      let headers: Record<string, string> = { ...(init?.headers ?? {}) }
      let mw: MiddlewareHandler | undefined
      if (front === 'jwt') {
        const { sign } = await import('hono/jwt')
        const token = await sign({ sub: 'u', exp: Math.floor(Date.now() / 1000) + 60 }, secret)
        headers = { ...headers, authorization: `Bearer ${token}` }
        mw = jwtAuth({ secret })
      } else mw = front
      const { api, errors } = forgetfulApp(mw)
      const res: unknown = await api.request(path, { ...init, headers })
      expect(res).toBeInstanceOf(Response)
      if (mw === undefined && (path === '/plain' || path === '/checked')) {
        // A route with no middleware at all: Hono runs the lone handler without its compose and
        // answers an unreturned response with its not-found handler, as on a bare Hono app.
        expect((res as Response).status).toBe(404)
        expect(errors).toEqual([])
        return
      }
      expect((res as Response).status).toBe(500)
      expect(await (res as Response).text()).toBe('reported')
      expect(String(errors[0])).toMatch(/Context is not finalized/)
    })
  })
})
