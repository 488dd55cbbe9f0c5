// Test support for the jwtAuth tests: an app whose /p/* routes sit behind one jwtAuth and whose
// /p/me answers the verified payload, and a request to it with a Bearer token.
import { Hono } from 'hono'
import { type JwtAuthOptions, jwtAuth } from '../src/jwt-auth/index'

/** A Hono app with `jwtAuth(options)` on `/p/*`; `GET /p/me` answers `jwtPayload` as JSON. */
export function jwtApp(options: JwtAuthOptions): Hono {
  const app = new Hono()
  app.use('/p/*', jwtAuth(options))
  app.get('/p/me', (c) => c.json(c.get('jwtPayload')))
  return app
}

/** `GET /p/me` with `Authorization: Bearer <token>`. */
export function callBearer(app: Hono, token: string): Promise<Response> {
  return Promise.resolve(app.request('/p/me', { headers: { Authorization: `Bearer ${token}` } }))
}
