// The built documentation site (docs/.vitepress/dist), for the tests that read it: the link
// checker and the browser test. `pnpm docs:build` writes it; the root `test` script runs that
// before vitest.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, normalize, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const DIST = resolve(fileURLToPath(new URL('../../docs/.vitepress/dist/', import.meta.url)))

/** Throws a readable error when the site has not been built. */
export function requireBuiltSite(): string {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error(`no built site in ${DIST}: run \`npx -y pnpm@10 docs:build\` first`)
  }
  return DIST
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * A static host for the built site, as a fetch handler: `/x/` serves `x/index.html`, `/x` serves
 * `x.html` when there is no file `x` (how VitePress links pages), anything else is a 404 page.
 */
export function staticSite(dist: string = DIST): { fetch: (request: Request) => Response } {
  return {
    fetch(request) {
      const pathname = decodeURIComponent(new URL(request.url).pathname)
      const file = normalize(join(dist, pathname))
      if (!file.startsWith(dist)) return new Response('Forbidden', { status: 403 })
      const candidates = pathname.endsWith('/')
        ? [join(file, 'index.html')]
        : [file, `${file}.html`, join(file, 'index.html')]
      const found = candidates.find((f) => existsSync(f) && statSync(f).isFile())
      if (!found) {
        return new Response(readFileSync(join(dist, '404.html')), {
          status: 404,
          headers: { 'content-type': TYPES['.html'] as string },
        })
      }
      return new Response(readFileSync(found), {
        headers: { 'content-type': TYPES[extname(found)] ?? 'application/octet-stream' },
      })
    },
  }
}
