import { Hono } from 'hono'
import { describe, expect, test } from 'vitest'
import type { ViewerAsset } from './asset-types'
import { assetBytes } from './assets'
import { favicon, redocStandalone, swaggerUIBundle } from './assets.generated'
import { EXPLORER_CSP, explorerUIHTML, mountDocsPages, referenceCSP, referenceHTML } from './index'

const defaults = {
  specPath: '/openapi.json',
  explorerPath: '/explorer',
  referencePath: '/reference',
  title: 'Pets API',
}

function docsApp(options: Partial<typeof defaults> = {}) {
  const app = new Hono()
  mountDocsPages(app, { ...defaults, ...options })
  return app
}

/** The JSON settings the page hands to its init script, decoded the way the browser does. */
function pageConfig(html: string): { specURL: string; nonce?: string } {
  const match = /<script id="palisade-docs-config" type="application\/json">([^<]*)<\/script>/.exec(
    html,
  )
  expect(match, 'config element present').not.toBeNull()
  return JSON.parse(match?.[1] ?? '')
}

/** Every <script …> opening tag of the page. */
const scriptTags = (html: string) => html.match(/<script\b[^>]*>/g) ?? []
/** Every same-origin URL the page loads (scripts, styles, icon). */
const loadedURLs = (html: string) =>
  [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string)

const pages = [
  { name: 'explorer', render: explorerUIHTML },
  { name: 'reference', render: referenceHTML },
] as const

describe.each(pages)('$name HTML', ({ render }) => {
  const hostileTitles = [
    '</title><script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "' onload='alert(1)",
    '&lt;already escaped&gt;',
  ]
  test.each(hostileTitles)('renders the title %j as text', (title) => {
    const html = render('/openapi.json', title)
    const escaped = title
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
    expect(html).toContain(`<title>${escaped}</title>`)
    expect(html.match(/<title>/g)).toHaveLength(1)
    expect(html).not.toContain('<script>alert')
    expect(html).not.toContain('<img src=x')
  })

  const hostileURLs = [
    '/openapi.json"><script>alert(1)</script>',
    "/openapi.json'</script><script>alert(1)</script>",
    '/spec.json?a=1&b=2',
    '/x\u2028y\u2029z<!--',
    'javascript:alert(1)',
  ]
  test.each(hostileURLs)('carries the spec URL %j as data that cannot close its element', (url) => {
    const html = render(url, 'API')
    expect(pageConfig(html).specURL).toBe(url)
    expect(html).not.toContain('<script>alert')
    expect(html.match(/<\/script>/g)).toHaveLength(scriptTags(html).length)
    expect(html).not.toContain('\u2028')
    expect(html).not.toContain('<!--')
  })

  test('has no inline executable script: only same-origin files and a JSON data element', () => {
    const tags = scriptTags(render('/openapi.json', 'API'))
    expect(tags.length).toBeGreaterThan(1)
    for (const tag of tags) {
      expect(tag).toMatch(
        /^<script (defer src="\/[^"]+"|id="palisade-docs-config" type="application\/json")>$/,
      )
    }
  })

  test('loads nothing from another origin', () => {
    const html = render('/openapi.json', 'API')
    for (const url of loadedURLs(html)) expect(url).toMatch(/^\/[^/]/)
    expect(html).not.toMatch(/https?:\/\//)
  })

  test('escapes a custom assets path in attributes', () => {
    const html = render('/openapi.json', 'API', { assetsPath: '/a"b<c' })
    expect(html).toContain('src="/a&quot;b&lt;c/')
    expect(html).not.toContain('/a"b')
  })
})

describe('page CSP values', () => {
  test('the explorer allows same-origin scripts and styles only, with data: images', () => {
    expect(EXPLORER_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'",
    )
  })

  test('the reference allows its nonce for styles and blob: workers, never unsafe-inline', () => {
    expect(referenceCSP('abc123==')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-abc123=='; img-src 'self' data:; connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'self'; frame-ancestors 'self'",
    )
  })

  test.each([
    ['explorer', EXPLORER_CSP],
    ['reference', referenceCSP('n')],
  ])('the %s CSP has no unsafe keyword and no remote source', (_, csp) => {
    expect(csp).not.toMatch(/unsafe-|https?:|\*/)
  })
})

describe('mountDocsPages', () => {
  test('serves the explorer as text/html with its CSP and no-cache', async () => {
    const res = await docsApp().request('/explorer')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('content-security-policy')).toBe(EXPLORER_CSP)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const html = await res.text()
    expect(pageConfig(html).specURL).toBe('/openapi.json')
    expect(html).toContain('<title>Pets API</title>')
  })

  test('serves the reference with a fresh nonce per response, the same in header and page', async () => {
    const app = docsApp()
    const nonces = new Set<string>()
    for (let i = 0; i < 3; i++) {
      const res = await app.request('/reference')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      const { nonce } = pageConfig(await res.text())
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(res.headers.get('content-security-policy')).toBe(referenceCSP(nonce ?? ''))
      nonces.add(nonce ?? '')
    }
    expect(nonces.size).toBe(3)
  })

  test('points the pages at their assets under the app base path', async () => {
    const app = new Hono().basePath('/api')
    mountDocsPages(app, { ...defaults, specPath: '/api/openapi.json' })
    for (const page of ['/api/explorer', '/api/reference']) {
      const res = await app.request(page)
      expect(res.status).toBe(200)
      const urls = loadedURLs(await res.text())
      expect(urls.length).toBeGreaterThan(0)
      for (const url of urls) {
        expect(url).toMatch(/^\/api\/(explorer|reference)\/assets\//)
        expect((await app.request(url)).status, url).toBe(200)
      }
    }
  })

  test.each([
    ['/explorer/', '/explorer'],
    ['/reference/', '/reference'],
    ['/explorer/?x=1', '/explorer?x=1'],
  ])('redirects %s to the page at %s', async (path, location) => {
    const res = await docsApp().request(path)
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(location)
  })

  test('redirects the slashless spelling of a page path that ends in a slash, under a base path', async () => {
    const app = new Hono().basePath('/api')
    mountDocsPages(app, { ...defaults, specPath: '/api/openapi.json', referencePath: '/ref/' })
    const res = await app.request('/api/ref')
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('/api/ref/')
    expect((await app.request('/api/ref/')).status).toBe(200)
    expect((await app.request('/api/explorer/')).headers.get('location')).toBe('/api/explorer')
  })

  test('escapes a hostile title in both served pages', async () => {
    const app = docsApp({ title: '</title><script>alert(1)</script>' })
    for (const path of ['/explorer', '/reference']) {
      const html = await (await app.request(path)).text()
      expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>')
    }
  })

  test.each([
    ['/docs/explorer', '/docs/reference', '/docs/explorer/assets/', '/docs/reference/assets/'],
    ['/', '/ref/', '/assets/', '/ref/assets/'],
  ])(
    'with explorerPath %s and referencePath %s serves assets under %s and %s',
    async (explorerPath, referencePath, a, b) => {
      const app = docsApp({ explorerPath, referencePath })
      for (const [page, prefix] of [
        [explorerPath, a],
        [referencePath, b],
      ] as const) {
        const html = await (await app.request(page)).text()
        const urls = loadedURLs(html)
        expect(urls.length).toBeGreaterThan(0)
        for (const url of urls) {
          expect(url.startsWith(prefix)).toBe(true)
          expect((await app.request(url)).status).toBe(200)
        }
      }
    },
  )
})

describe('asset routes', () => {
  const app = docsApp()
  const assetURLs = async () => {
    const urls: string[] = []
    for (const page of ['/explorer', '/reference']) {
      urls.push(...loadedURLs(await (await app.request(page)).text()))
    }
    return urls
  }

  test('serves every file a page loads, with type, ETag and an immutable one-year cache', async () => {
    const types: Record<string, RegExp> = {
      js: /^text\/javascript; charset=utf-8$/,
      css: /^text\/css; charset=utf-8$/,
      png: /^image\/png$/,
    }
    const urls = await assetURLs()
    expect(urls).toHaveLength(9)
    for (const url of urls) {
      const res = await app.request(url)
      expect(res.status, url).toBe(200)
      const ext = url.split('.').pop() ?? ''
      expect(res.headers.get('content-type')).toMatch(types[ext] ?? /^$/)
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const hash = /\.([0-9a-f]{16})\.[a-z]+$/.exec(url)?.[1]
      expect(res.headers.get('etag')).toBe(`"${hash}"`)
    }
  })

  test('the hash in each name and ETag is the SHA-256 of the bytes served', async () => {
    for (const url of await assetURLs()) {
      const res = await app.request(url)
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await res.arrayBuffer()))
      const hex = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('')
      expect(res.headers.get('etag')).toBe(`"${hex.slice(0, 16)}"`)
    }
  })

  test('serves the favicon as PNG bytes, not base64 text', async () => {
    const res = await app.request(`/explorer/assets/${favicon.fileName}`)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  })

  const url = `/explorer/assets/${swaggerUIBundle.fileName}`
  const etag = `"${swaggerUIBundle.hash}"`
  test.each([
    [etag, 304],
    [`W/${etag}`, 304],
    [`"other", ${etag}`, 304],
    ['*', 304],
    ['"other"', 200],
    [`"${swaggerUIBundle.hash.slice(0, 15)}"`, 200],
    ['', 200],
  ])('answers If-None-Match %j with %i', async (ifNoneMatch, status) => {
    const res = await app.request(url, { headers: { 'If-None-Match': ifNoneMatch } })
    expect(res.status).toBe(status)
    expect(res.headers.get('etag')).toBe(etag)
    if (status === 304) expect(await res.text()).toBe('')
    else expect((await res.arrayBuffer()).byteLength).toBe(swaggerUIBundle.size)
  })

  test.each([
    '/explorer/assets/swagger-ui-bundle.js',
    `/explorer/assets/swagger-ui-bundle.0000000000000000.js`,
    `/reference/assets/${swaggerUIBundle.fileName}`,
    `/explorer/assets/${redocStandalone.fileName}`,
    '/explorer/assets/../../../etc/passwd',
    '/explorer/assets/',
  ])('answers 404 for %s', async (path) => {
    expect((await app.request(path)).status).toBe(404)
  })

  test('answers HEAD without a body', async () => {
    const res = await app.request(url, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
  })
})

describe('bundled viewer files', () => {
  const text = async (asset: ViewerAsset) =>
    new TextDecoder().decode(await assetBytes(asset, 'identity'))

  test('the reference bundle no longer points at the Redocly CDN logo', async () => {
    const body = await text(redocStandalone)
    expect(body).not.toContain('cdn.redoc.ly')
    expect(body).toContain("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'")
  })

  test.each([
    ['swagger-ui-bundle', swaggerUIBundle],
    ['redoc.standalone', redocStandalone],
  ])('%s loads no web fonts and names no unshipped source map', async (_, asset) => {
    const body = await text(asset)
    expect(body).not.toMatch(/fonts\.(googleapis|gstatic)\.com/)
    expect(body.trimEnd()).not.toMatch(/sourceMappingURL=[^\n]*\.map$/)
  })
})
