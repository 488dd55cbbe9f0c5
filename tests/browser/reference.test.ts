// The reference page (ReDoc) in headless Chromium: every operation and every component schema is
// rendered, search (a blob: worker) works, and nothing is blocked, fails or leaves the origin —
// with and without securityHeaders(). Markup in descriptions is rendered sanitized, by ReDoc as by
// Swagger UI: a document cannot navigate the page away or run script in it.
import { mkdir } from 'node:fs/promises'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createAppUnderTest, paths, specUnderTest } from './app-under-test'
import {
  type Browser,
  type GuardedPage,
  launchBrowser,
  NO_PROBLEMS,
  openGuardedPage,
  type RunningServer,
  type SpecInventory,
  startServer,
} from './harness'

let browser: Browser
let spec: SpecInventory

beforeAll(async () => {
  spec = await specUnderTest()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

describe.each([
  { securityHeaders: false, label: 'without securityHeaders()' },
  { securityHeaders: true, label: 'behind securityHeaders()' },
])('reference page $label', ({ securityHeaders, label }) => {
  let server: RunningServer
  let guarded: GuardedPage

  beforeAll(async () => {
    server = await startServer(await createAppUnderTest(), { securityHeaders })
    guarded = await openGuardedPage(browser, server.origin)
    const response = await guarded.page.goto(`${server.origin}${paths.reference}`)
    expect(response?.status()).toBe(200)
    await guarded.page.locator('.http-verb').first().waitFor()
    await mkdir('artifacts', { recursive: true })
    await guarded.page.screenshot({
      path: `artifacts/reference${securityHeaders ? '-security-headers' : ''}.png`,
    })
  })
  afterAll(async () => {
    await guarded?.page.close()
    await server?.close()
  })

  test('sends its own nonce-based CSP, which securityHeaders() keeps', async () => {
    const response = await guarded.page.request.get(`${server.origin}${paths.reference}`)
    const csp = response.headers()['content-security-policy'] ?? ''
    expect(csp).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
  })

  test('lists every security scheme of the document in its Authentication section', async () => {
    const doc = (await (
      await guarded.page.request.get(`${server.origin}${paths.spec}`)
    ).json()) as {
      components: { securitySchemes?: Record<string, unknown> }
    }
    const names = Object.keys(doc.components.securitySchemes ?? {})
    expect(names.length).toBeGreaterThan(0)
    for (const name of names) {
      await expect
        .poll(() => guarded.page.locator(`[id="section/Authentication/${name}"]`).count())
        .toBe(1)
    }
  })

  test('renders every documented operation', async () => {
    // Each operation has an endpoint box: the method badge followed by the path.
    const rendered = await guarded.page.$$eval('.http-verb', (verbs) =>
      verbs.map((verb) => `${verb.textContent} ${verb.nextElementSibling?.textContent ?? ''}`),
    )
    const documented = spec.operations.map((op) => `${op.method} ${op.path}`)
    expect(documented.length).toBeGreaterThan(0)
    expect(new Set(rendered)).toEqual(new Set(documented))
    for (const op of spec.operations) {
      if (op.summary) {
        await expect
          .poll(() => guarded.page.getByRole('heading', { name: op.summary }).count())
          .toBeGreaterThan(0)
      }
    }
  })

  test('badges the deprecated operations, and only those, as Deprecated', async () => {
    // ReDoc's operation heading carries a "Deprecated" badge (openapi.deprecated).
    const badged = await guarded.page.$$eval('[data-section-id*="operation/"]', (sections) =>
      sections
        .filter((section) => /Deprecated/.test(section.querySelector('h2')?.textContent ?? ''))
        .map((section) => section.getAttribute('data-section-id')?.replace(/^.*operation\//, '')),
    )
    const deprecated = spec.operations.filter((op) => op.deprecated).map((op) => op.operationId)
    expect(deprecated).toEqual(['whoami'])
    // ReDoc nests an element with the operation's section id inside its section: one per id.
    expect([...new Set(badged)]).toEqual(deprecated)
  })

  test('renders every component schema in the Schemas section', async () => {
    const rendered = await guarded.page.$$eval('[data-section-id^="schema/"]', (sections) =>
      sections.map((section) => section.getAttribute('data-section-id')?.slice('schema/'.length)),
    )
    expect(spec.schemas.length).toBeGreaterThan(0)
    expect(new Set(rendered)).toEqual(new Set(spec.schemas))
    for (const name of spec.schemas) {
      const heading = guarded.page.locator(`[data-section-id="schema/${name}"] h2`)
      await expect.poll(() => heading.textContent()).toBe(name)
    }
  })

  test('search, which runs in a blob: worker, finds an operation', async () => {
    const target = spec.operations.find((op) => op.summary) ?? spec.operations[0]
    expect(target).toBeDefined()
    const term = (target?.summary ?? target?.path ?? '').split(/\s+/).find((w) => w.length > 2)
    const search = guarded.page.getByRole('search').getByRole('textbox')
    await search.fill(term ?? '')
    await expect
      .poll(() => guarded.page.locator('[data-role="search:results"] li').count())
      .toBeGreaterThan(0)
    await search.fill('')
  })

  test(`has no console errors, CSP violations, failed or off-origin requests (${label})`, async () => {
    // Navigate the way a reader does, so styles created on the way are checked too.
    const { page } = guarded
    await page.getByRole('menuitem').last().click()
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    await page
      .locator('button', { hasText: /^\d{3}/ })
      .first()
      .click()
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)
  })
})

// What a description can carry when its text comes from somewhere else (a generated document, a
// contributor, a database): a refresh that navigates the page away, and two ways to run script.
const HOSTILE = [
  'Before the markup.',
  '<meta http-equiv="refresh" content="0;url=/elsewhere">',
  // An image that fails without a request: its onerror would run at once.
  '<img src="data:," onerror="window.__pwned = (window.__pwned || 0) + 1">',
  '<script>window.__pwned = (window.__pwned || 0) + 1</script>',
  'After the markup.',
].join('\n\n')

/** An app whose document carries {@link HOSTILE} in its info and operation descriptions. */
function hostileApp() {
  const api = openapi(new Hono(), {
    info: { title: 'Hostile descriptions', version: '1.0.0', description: HOSTILE },
  })
  api.get('/pets', (c) => c.json([]), {
    openapi: {
      summary: 'List pets',
      description: HOSTILE,
      responses: { 200: { description: 'The pets' } },
    },
  })
  // Where the refresh would go: served, so a navigation would show up as a request.
  api.get('/elsewhere', (c) => c.text('navigated away'))
  return { fetch: (request: Request) => api.fetch(request) }
}

describe('markup in descriptions', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer(hostileApp(), { securityHeaders: false })
  })
  afterAll(async () => {
    await server?.close()
  })

  test.each([
    // ReDoc shows every description at once; Swagger UI shows an operation's when it is opened.
    { page: 'reference', path: '/reference', expand: undefined },
    { page: 'explorer', path: '/explorer', expand: '.opblock-summary' },
  ])(
    'the $page page renders it inert: no refresh, no script, the page stays put',
    async ({ path, expand }) => {
      const guarded = await openGuardedPage(browser, server.origin)
      const { page } = guarded
      // Documents the main frame loaded (Swagger UI's deep links change only the fragment).
      const withoutFragment = (href: string) => href.replace(/#.*$/, '')
      const navigations: string[] = []
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations.push(withoutFragment(frame.url()))
      })
      const servedBefore = server.served.length
      try {
        const url = `${server.origin}${path}`
        expect((await page.goto(url))?.status()).toBe(200)
        if (expand) await page.locator(expand).first().click()
        // Both descriptions are rendered: the text after the markup shows twice.
        await expect
          .poll(() => page.getByText('After the markup.').count(), { timeout: 20_000 })
          .toBe(2)
        const found = await page.evaluate(() => ({
          meta: document.querySelectorAll('body meta[http-equiv]').length,
          scripts: [...document.querySelectorAll('body script')].filter((s) =>
            s.textContent?.includes('__pwned'),
          ).length,
          handlers: document.querySelectorAll('[onerror]').length,
          pwned: (window as unknown as { __pwned?: number }).__pwned ?? 0,
        }))
        // Not in the document at all, so nothing could fire later either.
        expect(found).toEqual({ meta: 0, scripts: 0, handlers: 0, pwned: 0 })
        expect(withoutFragment(page.url())).toBe(url)
        expect(new Set(navigations)).toEqual(new Set([url]))
        expect(server.served.slice(servedBefore).map((r) => r.path)).not.toContain('/elsewhere')
        // Both viewers sanitize with DOMPurify, which first parses the markup in an inert
        // document; Chromium reports the onerror handler it meets there as a CSP violation of
        // the page, though nothing can run in that document. Those reports are the only ones
        // allowed: a <script> reaching the page would be a script-src-elem report, a failed or
        // off-origin load its own entry.
        const problems = await guarded.collect()
        const inertHandler = (text: string) =>
          text.startsWith('Executing inline event handler violates') ||
          text.startsWith('script-src-attr blocked inline')
        expect({
          ...problems,
          consoleErrors: problems.consoleErrors.filter((e) => !inertHandler(e)),
          cspViolations: problems.cspViolations.filter((v) => !inertHandler(v)),
        }).toEqual(NO_PROBLEMS)
      } finally {
        await page.close()
      }
    },
  )
})
