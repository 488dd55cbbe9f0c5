import { escapeHtml, jsonForScript } from '@palisade/shared/html'
import type { ViewerAsset } from './asset-types'
import { favicon, redocStandalone, referenceCSS, referenceInit } from './assets.generated'

/** Files the reference page loads, all served by the app under `<referencePath>/assets/`. */
export const referenceAssets: readonly ViewerAsset[] = [
  redocStandalone,
  referenceCSS,
  referenceInit,
  favicon,
]

/**
 * The Content-Security-Policy sent with the reference page. ReDoc renders with
 * styled-components, which creates `<style>` elements at run time; they carry `nonce` (ReDoc
 * passes its `nonce` option through), so no `'unsafe-inline'` is needed. Its search index runs in a
 * Web Worker built from a `blob:` URL, hence `worker-src blob:`.
 *
 * @param nonce - The per-response nonce also given to {@link referenceHTML}
 * @example
 * const nonce = createNonce()
 * c.header('Content-Security-Policy', referenceCSP(nonce))
 */
export function referenceCSP(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ')
}

/**
 * A fresh CSP nonce: 16 random bytes, base64. Call once per response.
 *
 * @example
 * app.get('/docs', (c) => {
 *   const nonce = createNonce()
 *   return c.html(referenceHTML('/openapi.json', 'Pets API', { nonce }), 200, {
 *     'Content-Security-Policy': referenceCSP(nonce),
 *   })
 * })
 */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
}

/**
 * Options of {@link referenceHTML}.
 *
 * @example
 * const options: ReferenceHTMLOptions = { assetsPath: '/reference/assets', nonce: createNonce() }
 * const html = referenceHTML('/openapi.json', 'Pets API', options)
 */
export interface ReferenceHTMLOptions {
  /**
   * URL path under which the page's assets are served.
   * @default '/reference/assets' (where `openapi()` serves them for the default `referencePath`)
   */
  assetsPath?: string
  /**
   * Nonce for the style elements ReDoc creates; send the same value in {@link referenceCSP}.
   * Without it, the page only renders under a CSP that allows inline styles.
   */
  nonce?: string
}

/**
 * Returns the HTML of the reference page (ReDoc) for the OpenAPI document at `specURL`. The page
 * has no inline script: the viewer and its start-up code are same-origin files and the settings
 * travel in a JSON data element. `title` and `specURL` are escaped.
 *
 * @param specURL - URL of the JSON document, e.g. `/openapi.json`
 * @param title - Text of the page's `<title>`
 * @param options - `assetsPath` (default `/reference/assets`), `nonce`
 * @example
 * app.get('/reference', (c) => {
 *   const nonce = createNonce()
 *   return c.html(referenceHTML('/openapi.json', 'Pets API', { nonce }), 200, {
 *     'Content-Security-Policy': referenceCSP(nonce),
 *   })
 * })
 */
export function referenceHTML(
  specURL: string,
  title: string,
  options: ReferenceHTMLOptions = {},
): string {
  const assets = escapeHtml(options.assetsPath ?? '/reference/assets')
  const config = jsonForScript(
    options.nonce === undefined ? { specURL } : { specURL, nonce: options.nonce },
  )
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="${assets}/${favicon.fileName}">
<link rel="stylesheet" href="${assets}/${referenceCSS.fileName}">
<script id="palisade-docs-config" type="application/json">${config}</script>
<script defer src="${assets}/${referenceInit.fileName}"></script>
<script defer src="${assets}/${redocStandalone.fileName}"></script>
</head>
<body>
<div id="redoc"></div>
</body>
</html>
`
}
