import type { Hono } from 'hono'

/** Where the docs pages live; passed by `openapi()`. */
export interface DocsPagesOptions {
  specPath: string
  docsPath: string
  redocPath: string
  title: string
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  )

/** Minimal placeholder page; the explorer/reference issue replaces it with the real viewers. */
export function explorerUIHTML(specURL: string, title: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><a href="${escapeHtml(specURL)}">${escapeHtml(specURL)}</a></body></html>`
}

/** Minimal placeholder page; the explorer/reference issue replaces it with the real viewers. */
export function referenceHTML(specURL: string, title: string): string {
  return explorerUIHTML(specURL, title)
}

/** Registers the explorer and reference pages (and, later, their asset routes) on `app`. */
// biome-ignore lint/suspicious/noExplicitAny: any Hono env
export function mountDocsPages(app: Hono<any, any, any>, options: DocsPagesOptions): void {
  app.get(options.docsPath, (c) => c.html(explorerUIHTML(options.specPath, options.title)))
  app.get(options.redocPath, (c) => c.html(referenceHTML(options.specPath, options.title)))
}
