// What the wrapper needs to know about the docs pages without loading them: where they are
// mounted and the shape of the function that registers them. `@palisade/openapi/spec` imports this
// file and never `./index.ts`, so the viewer files stay out of its bundles.
import type { Context, Hono } from 'hono'
import { mergePath } from 'hono/utils/url'

/** Where the docs pages live; passed by `openapi()`. */
export interface DocsPagesOptions {
  /** Path of the JSON document the pages load. */
  specPath: string
  /** Path of the explorer page; its assets are served under `<explorerPath>/assets/`. */
  explorerPath: string
  /** Path of the reference page; its assets are served under `<referencePath>/assets/`. */
  referencePath: string
  /** Page title. */
  title: string
  /** Server URLs of the document: "Try it out" may call the origins of the absolute ones. */
  servers?: readonly { url: string }[]
  /**
   * The document's security schemes, read when the explorer is served (the document is built
   * lazily, and middleware added later describe schemes too): the explorer's Authorize dialog
   * may call the origins of their `openIdConnectUrl` and OAuth 2 `tokenUrl`/`refreshUrl`.
   */
  securitySchemes?: () => Readonly<Record<string, unknown>> | undefined
}

/**
 * Registers one GET endpoint and returns its path as served (with the app's base path).
 * `openapi()` passes one that also lets middleware added later guard the endpoint.
 */
export type DocsRegistrar = (
  path: string,
  respond: (c: Context) => Response | Promise<Response>,
) => string

/**
 * The prefix under which a parent app serves this route (`parent.route('/docs', app)`), from the
 * route path Hono matched and the path the route was registered at; `''` when not mounted.
 * Both are registered paths, never request data, so the set of prefixes is fixed by the app.
 */
export function mountPrefix(routePath: string, servedPath: string): string {
  if (routePath === servedPath) return ''
  // mergePath('/docs', '/') is '/docs': a root route mounted at a prefix is the prefix itself.
  if (servedPath === '/') return routePath
  return routePath.endsWith(servedPath) ? routePath.slice(0, -servedPath.length) : ''
}

/** `path` as served under a mount `prefix` (see {@link mountPrefix}). */
export const underPrefix = (prefix: string, path: string): string =>
  prefix === '' ? path : mergePath(prefix, path)

/**
 * Registers the explorer and reference pages and their files (`mountDocsPages`). The wrapper takes
 * it as an argument, so the spec-only entry can leave the pages (and their 2 MB of viewer files)
 * out of the module graph.
 */
export type MountDocsPages = (
  // biome-ignore lint/suspicious/noExplicitAny: any Hono env
  app: Hono<any, any, any>,
  options: DocsPagesOptions,
  register?: DocsRegistrar,
) => void
