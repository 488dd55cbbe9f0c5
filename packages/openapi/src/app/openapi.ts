import type { OpenAPIOptions } from '../model/options'
import { mountDocsPages } from '../pages'
import type { BasePathOf, EnvOf, HonoApp } from './hono-types'
import type { OpenAPIApp } from './router-types'
import { wrap } from './wrap'

/**
 * Wraps a Hono app so that every route registered through the wrapper is also documented, and
 * serves the OpenAPI 3.1.0 document at `specPath` with the explorer and reference pages.
 *
 * Route methods take `(path, handler, opts?)`, where `opts` is `{ middlewares, openapi }` or an
 * array of middleware. Routes go to the real Hono app, so routing, middleware order and responses
 * are Hono's own. The document is built on first request (or `spec()`) and cached until another
 * route is added. Registration throws a descriptive `Error` for a duplicate operationId, a path
 * that clashes with an earlier one, or a schema that cannot be documented.
 *
 * @param input - the Hono app to register on (its base path is respected)
 * @param options - `info` (required); `servers` default `[]`; `specPath` default `/openapi.json`,
 *   `explorerPath` default `/explorer`, `referencePath` default `/reference` (`docsPath` and
 *   `redocPath`, their old names, still work and are deprecated)
 * @example
 * ```ts
 * const api = openapi(new Hono(), { info: { title: 'Users', version: '1.0.0' } })
 * api.post('/users', (c) => c.json({ id: '1' }, 201), {
 *   openapi: {
 *     operationId: 'createUser',
 *     request: { body: z.object({ name: z.string(), email: z.email() }) },
 *     responses: { 201: { description: 'Created', schema: z.object({ id: z.string() }) } },
 *   },
 * })
 * export default api // GET /openapi.json, /explorer, /reference
 * ```
 */
export function openapi<A extends HonoApp>(
  input: A,
  options: OpenAPIOptions,
): OpenAPIApp<EnvOf<A>, BasePathOf<A>> {
  return wrap(input, options, mountDocsPages)
}
