import type { Hono } from 'hono'
import { assetHandler, assetsPathFor } from './assets'
import { EXPLORER_CSP, explorerAssets, explorerUIHTML } from './explorer'
import { createNonce, referenceAssets, referenceCSP, referenceHTML } from './reference'

export type { ExplorerUIHTMLOptions } from './explorer'
export { EXPLORER_CSP, explorerUIHTML } from './explorer'
export type { ReferenceHTMLOptions } from './reference'
export { createNonce, referenceCSP, referenceHTML } from './reference'

/** Where the docs pages live; passed by `openapi()`. */
export interface DocsPagesOptions {
  /** Path of the JSON document the pages load. */
  specPath: string
  /** Path of the explorer page; its assets are served under `<docsPath>/assets/`. */
  docsPath: string
  /** Path of the reference page; its assets are served under `<redocPath>/assets/`. */
  redocPath: string
  /** Page title. */
  title: string
}

// Pages are never cached without revalidation: the reference page carries a fresh nonce each time,
// and a stale page would point at asset hashes a newer deployment no longer serves.
const PAGE_CACHE = 'no-cache'

/**
 * Registers the explorer page at `docsPath`, the reference page at `redocPath`, and the hashed
 * viewer files they load under `<docsPath>/assets/` and `<redocPath>/assets/`. Each page response
 * carries its own Content-Security-Policy, which `securityHeaders()` keeps.
 *
 * @example
 * mountDocsPages(app, {
 *   specPath: '/openapi.json',
 *   docsPath: '/explorer',
 *   redocPath: '/reference',
 *   title: 'Pets API',
 * })
 */
// biome-ignore lint/suspicious/noExplicitAny: any Hono env
export function mountDocsPages(app: Hono<any, any, any>, options: DocsPagesOptions): void {
  const { specPath, docsPath, redocPath, title } = options
  // The HTML names its assets by absolute URL, so it needs each page's path as served, which
  // includes the app's base path (`new Hono().basePath('/api')`): Hono reports it in `app.routes`.
  const servedPath = (path: string) => app.routes.at(-1)?.path ?? path

  let explorerHTML = ''
  app.get(docsPath, function explorerPage(c) {
    return c.html(explorerHTML, 200, {
      'Content-Security-Policy': EXPLORER_CSP,
      'Cache-Control': PAGE_CACHE,
    })
  })
  const explorerAssetsPath = assetsPathFor(servedPath(docsPath))
  explorerHTML = explorerUIHTML(specPath, title, { assetsPath: explorerAssetsPath })

  let referenceAssetsPath = ''
  app.get(redocPath, function referencePage(c) {
    const nonce = createNonce()
    return c.html(referenceHTML(specPath, title, { assetsPath: referenceAssetsPath, nonce }), 200, {
      'Content-Security-Policy': referenceCSP(nonce),
      'Cache-Control': PAGE_CACHE,
    })
  })
  referenceAssetsPath = assetsPathFor(servedPath(redocPath))

  // Registered relative to the app, like the pages, so the base path applies once.
  for (const asset of explorerAssets) {
    app.get(`${assetsPathFor(docsPath)}/${asset.fileName}`, assetHandler(asset))
  }
  for (const asset of referenceAssets) {
    app.get(`${assetsPathFor(redocPath)}/${asset.fileName}`, assetHandler(asset))
  }
}
