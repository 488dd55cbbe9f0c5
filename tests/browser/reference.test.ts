// The reference page (ReDoc) in headless Chromium: every operation and every component schema is
// rendered, search (a blob: worker) works, and nothing is blocked, fails or leaves the origin —
// with and without securityHeaders().
import { mkdir } from 'node:fs/promises'
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
