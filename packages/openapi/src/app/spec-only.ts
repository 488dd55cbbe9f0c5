import type { OpenAPIOptions } from '../model/options'
import type { BasePathOf, EnvOf, HonoApp } from './hono-types'
import type { OpenAPIApp } from './router-types'
import { wrap } from './wrap'

/** `openapi()` options without the page paths: the spec-only wrapper serves no page. */
export type SpecOnlyOptions = Omit<
  OpenAPIOptions,
  'explorerPath' | 'referencePath' | 'docsPath' | 'redocPath'
>

/**
 * `openapi()` without the explorer and reference pages: the same wrapper, routes, validation and
 * document at `specPath`, and no page or viewer file. Nothing of the pages is imported, so a
 * bundle (a Cloudflare Worker's, say) leaves out their 2 MB of Swagger UI and ReDoc files. A page
 * option (`explorerPath`, `referencePath`) throws a `TypeError`.
 *
 * @param input - the Hono app to register on (its base path is respected)
 * @param options - as `openapi()` from `@palisade/openapi`, without the page paths
 * @example
 * ```ts
 * import { openapi } from '@palisade/openapi/spec'
 *
 * const api = openapi(new Hono(), { info: { title: 'Edge API', version: '1.0.0' } })
 * api.get('/health', (c) => c.text('ok'))
 * export default api // GET /openapi.json; no /explorer, no /reference
 * ```
 */
export function openapi<A extends HonoApp>(
  input: A,
  options: SpecOnlyOptions,
): OpenAPIApp<EnvOf<A>, BasePathOf<A>> {
  return wrap(input, options, undefined)
}
