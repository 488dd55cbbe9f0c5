import { escapeHtml, jsonForScript } from '@palisade/shared/html'
import type { ViewerAsset } from './asset-types'
import {
  explorerCSS,
  explorerInit,
  favicon,
  swaggerUIBundle,
  swaggerUICSS,
} from './assets.generated'

/** Files the explorer page loads, all served by the app under `<explorerPath>/assets/`. */
export const explorerAssets: readonly ViewerAsset[] = [
  swaggerUIBundle,
  swaggerUICSS,
  explorerCSS,
  explorerInit,
  favicon,
]

/**
 * The Content-Security-Policy sent with the explorer page. Swagger UI needs no inline script and
 * no inline style element: scripts and styles come from the app (`'self'`), its icons are `data:`
 * SVGs in the stylesheet, and "Try it out" calls the API on the same origin.
 *
 * @example
 * app.get('/explorer', (c) =>
 *   c.html(explorerUIHTML('/openapi.json', 'Pets API'), 200, {
 *     'Content-Security-Policy': EXPLORER_CSP,
 *   }),
 * )
 */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ')

/**
 * Options of {@link explorerUIHTML}.
 *
 * @example
 * const options: ExplorerUIHTMLOptions = { assetsPath: '/docs/assets' }
 * const html = explorerUIHTML('/openapi.json', 'Pets API', options)
 */
export interface ExplorerUIHTMLOptions {
  /**
   * URL path under which the page's assets are served.
   * @default '/explorer/assets' (where `openapi()` serves them for the default `explorerPath`)
   */
  assetsPath?: string
}

/**
 * Returns the HTML of the interactive explorer page (Swagger UI) for the OpenAPI document at
 * `specURL`. The page has no inline script: the viewer and its start-up code are same-origin files
 * and the settings travel in a JSON data element. `title` and `specURL` are escaped.
 *
 * @param specURL - URL of the JSON document, e.g. `/openapi.json`
 * @param title - Text of the page's `<title>`
 * @param options - `assetsPath` (default `/explorer/assets`)
 * @example
 * app.get('/explorer', (c) =>
 *   c.html(explorerUIHTML('/openapi.json', 'Pets API'), 200, {
 *     'Content-Security-Policy': EXPLORER_CSP,
 *   }),
 * )
 */
export function explorerUIHTML(
  specURL: string,
  title: string,
  options: ExplorerUIHTMLOptions = {},
): string {
  const assets = escapeHtml(options.assetsPath ?? '/explorer/assets')
  const config = jsonForScript({ specURL })
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="${assets}/${favicon.fileName}">
<link rel="stylesheet" href="${assets}/${swaggerUICSS.fileName}">
<link rel="stylesheet" href="${assets}/${explorerCSS.fileName}">
<script id="palisade-docs-config" type="application/json">${config}</script>
<script defer src="${assets}/${swaggerUIBundle.fileName}"></script>
<script defer src="${assets}/${explorerInit.fileName}"></script>
</head>
<body>
<div id="swagger-ui"></div>
</body>
</html>
`
}
