import type { Hono } from 'hono'
import { assetHandler, assetsPathFor } from './assets'
import { cspSource } from './csp-source'
import { EXPLORER_CSP, explorerAssets, explorerUIHTML } from './explorer'
import { type DocsPagesOptions, type DocsRegistrar, mountPrefix, underPrefix } from './mount'
import { createNonce, referenceAssets, referenceCSP, referenceHTML } from './reference'

export type { ExplorerUIHTMLOptions } from './explorer'
export { EXPLORER_CSP, explorerUIHTML } from './explorer'
export type { DocsPagesOptions, DocsRegistrar, MountDocsPages } from './mount'
export { mountPrefix, underPrefix } from './mount'
export type { ReferenceHTMLOptions } from './reference'
export { createNonce, referenceCSP, referenceHTML } from './reference'

/**
 * `EXPLORER_CSP` with the origins of absolute `http(s)`/`ws(s)` server URLs added to
 * `connect-src`, so the explorer's "Try it out" can call the servers the document names. Each
 * origin goes through {@link cspSource}: a URL that cannot be written as a plain CSP source
 * (templated, IPv6, or carrying `;`, `,`, quotes, whitespace) is left out rather than let into
 * the policy, where it could add directives.
 */
export function explorerCSPFor(servers: readonly { url: string }[] = []): string {
  return explorerCSPForURLs(servers.map((s) => s.url))
}

/**
 * The URLs the explorer's Authorize dialog fetches for the document's security schemes: an
 * `openIdConnect` scheme's discovery document (`openIdConnectUrl`, which Swagger UI loads to
 * list the scheme at all) and an `oauth2` flow's `tokenUrl` and `refreshUrl` (where it posts for
 * a token). An `authorizationUrl` is opened as a window, which `connect-src` does not govern.
 *
 * @example
 * authorizeURLs({ oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration' } })
 * // ['https://id.example.com/.well-known/openid-configuration']
 */
export function authorizeURLs(schemes: Readonly<Record<string, unknown>> = {}): string[] {
  const urls: string[] = []
  const add = (value: unknown) => {
    if (typeof value === 'string') urls.push(value)
  }
  for (const scheme of Object.values(schemes)) {
    if (scheme === null || typeof scheme !== 'object') continue
    const { type, openIdConnectUrl, flows } = scheme as Record<string, unknown>
    if (type === 'openIdConnect') add(openIdConnectUrl)
    if (type === 'oauth2' && flows !== null && typeof flows === 'object') {
      for (const flow of Object.values(flows)) {
        if (flow === null || typeof flow !== 'object') continue
        add((flow as Record<string, unknown>).tokenUrl)
        add((flow as Record<string, unknown>).refreshUrl)
      }
    }
  }
  return urls
}

function explorerCSPForURLs(urls: readonly string[]): string {
  const origins = new Set<string>()
  for (const url of urls) {
    const source = cspSource(url)
    if (source !== null) origins.add(source)
  }
  if (origins.size === 0) return EXPLORER_CSP
  return EXPLORER_CSP.replace("connect-src 'self'", `connect-src 'self' ${[...origins].join(' ')}`)
}

// Pages are never cached without revalidation: the reference page carries a fresh nonce each time,
// and a stale page would point at asset hashes a newer deployment no longer serves.
const PAGE_CACHE = 'no-cache'

/**
 * Registers the explorer page at `explorerPath`, the reference page at `referencePath`, and the
 * hashed viewer files they load under `<explorerPath>/assets/` and `<referencePath>/assets/`.
 * Each page's path with its trailing slash toggled (`/explorer/`) redirects (301) to the page. Each
 * page response carries its own Content-Security-Policy, which `securityHeaders()` keeps. The pages
 * name the document and their files by the paths they are served at, also when a parent app mounts
 * this one with `parent.route(prefix, app)`.
 *
 * @example
 * mountDocsPages(app, {
 *   specPath: '/openapi.json',
 *   explorerPath: '/explorer',
 *   referencePath: '/reference',
 *   title: 'Pets API',
 * })
 */
export function mountDocsPages(
  // biome-ignore lint/suspicious/noExplicitAny: any Hono env
  app: Hono<any, any, any>,
  options: DocsPagesOptions,
  register?: DocsRegistrar,
): void {
  const { specPath, explorerPath, referencePath, title, servers = [], securitySchemes } = options
  const serverURLs = servers.map((s) => s.url)
  // The policy follows the document's schemes (an `openIdConnect` discovery URL must be
  // reachable, or Swagger UI silently leaves the scheme out of Authorize); one policy per set of
  // URLs, built once.
  const policies = new Map<string, string>()
  const explorerCSP = (): string => {
    let schemeURLs: string[] = []
    try {
      schemeURLs = authorizeURLs(securitySchemes?.())
    } catch {
      // A document that cannot be built: the page still loads, and says why when it fetches it.
    }
    const urls = [...serverURLs, ...schemeURLs]
    const key = urls.join('\n')
    let policy = policies.get(key)
    if (policy === undefined) {
      policy = explorerCSPForURLs(urls)
      policies.set(key, policy)
    }
    return policy
  }
  // Hono reports the served path (with the app's base path) in `app.routes`.
  const get: DocsRegistrar =
    register ??
    ((path, respond) => {
      app.get(path, respond)
      return app.routes.at(-1)?.path ?? path
    })

  // One explorer page per mount prefix: the page is the same for every request under it.
  const explorerPages = new Map<string, string>()
  const explorerServed = get(explorerPath, function explorerPage(c) {
    const prefix = mountPrefix(c.req.routePath, explorerServed)
    let html = explorerPages.get(prefix)
    if (html === undefined) {
      html = explorerUIHTML(underPrefix(prefix, specPath), title, {
        assetsPath: assetsPathFor(underPrefix(prefix, explorerServed)),
      })
      explorerPages.set(prefix, html)
    }
    return c.html(html, 200, {
      'Content-Security-Policy': explorerCSP(),
      'Cache-Control': PAGE_CACHE,
    })
  })

  const referenceServed = get(referencePath, function referencePage(c) {
    const prefix = mountPrefix(c.req.routePath, referenceServed)
    const nonce = createNonce()
    const html = referenceHTML(underPrefix(prefix, specPath), title, {
      assetsPath: assetsPathFor(underPrefix(prefix, referenceServed)),
      nonce,
    })
    return c.html(html, 200, {
      'Content-Security-Policy': referenceCSP(nonce),
      'Cache-Control': PAGE_CACHE,
    })
  })

  // `/explorer/` for `/explorer` (and `/ref` for `/ref/`): Hono routes them apart, and a 404 for
  // the spelling a browser or a link happened to use helps nobody. The other spelling redirects
  // to the page (301, query kept), so each page keeps one URL.
  for (const page of [explorerPath, referencePath]) {
    if (page === '/') continue
    get(page.endsWith('/') ? page.slice(0, -1) : `${page}/`, function docsPageRedirect(c) {
      const path = c.req.path
      const target = path.endsWith('/') ? path.slice(0, -1) : `${path}/`
      return c.redirect(`${target}${new URL(c.req.url).search}`, 301)
    })
  }

  // Registered relative to the app, like the pages, so the base path applies once.
  for (const asset of explorerAssets) {
    get(`${assetsPathFor(explorerPath)}/${asset.fileName}`, assetHandler(asset))
  }
  for (const asset of referenceAssets) {
    get(`${assetsPathFor(referencePath)}/${asset.fileName}`, assetHandler(asset))
  }
}
