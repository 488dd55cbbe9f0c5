/**
 * @palisade/openapi — OpenAPI 3.1 documentation for Hono apps, generated from the routes and
 * the schemas they already use, and request validation from the same schemas.
 *
 * The public API is the list in src/spec/api.ts, which `@palisade/openapi/spec` exports too, plus
 * what only this entry has: the `openapi()` that serves the explorer and reference pages, and the
 * pages' HTML builders.
 */

export { openapi } from './app/openapi'
export type { ExplorerUIHTMLOptions, ReferenceHTMLOptions } from './pages'
export { createNonce, EXPLORER_CSP, explorerUIHTML, referenceCSP, referenceHTML } from './pages'
export * from './spec/api'
