// The documentation site in headless Chromium, served from its build on loopback: the home page,
// a middleware page and the API reference render, the local search index finds `rateLimit`, and
// no page logs an error, fails a request or reaches off its origin. Writes its screenshots (a
// middleware page, the API reference, a middleware page at phone width) into artifacts/docs-site/,
// like the other browser tests; docs/screenshots/ holds copies from a run, refreshed by hand, so a
// test run never dirties the tree.
import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { requireBuiltSite, staticSite } from '../docs/site'
import {
  type Browser,
  type GuardedPage,
  launchBrowser,
  NO_PROBLEMS,
  openGuardedPage,
  type RunningServer,
  startServer,
} from './harness'

const SCREENSHOTS = new URL('../../artifacts/docs-site/', import.meta.url)

let browser: Browser
let server: RunningServer
const opened: GuardedPage[] = []

beforeAll(async () => {
  server = await startServer(staticSite(requireBuiltSite()), { securityHeaders: false })
  browser = await launchBrowser()
  await mkdir(SCREENSHOTS, { recursive: true })
})
afterAll(async () => {
  for (const guarded of opened) await guarded.page.close()
  await browser?.close()
  await server?.close()
})

async function open(
  path: string,
  viewport?: { width: number; height: number },
): Promise<GuardedPage> {
  const guarded = await openGuardedPage(browser, server.origin)
  opened.push(guarded)
  if (viewport) await guarded.page.setViewportSize(viewport)
  const response = await guarded.page.goto(`${server.origin}${path}`)
  expect(response?.status(), path).toBe(200)
  // VitePress hydrates the static HTML; the page is live once the app has mounted.
  await guarded.page.locator('#app .VPContent').waitFor()
  return guarded
}

describe('documentation site', () => {
  test('home page renders its hero and links into the guide', async () => {
    const guarded = await open('/')
    await expect(guarded.page.locator('.VPHero .name').textContent()).resolves.toContain('Palisade')
    const actions = await guarded.page
      .locator('.VPHero .actions a')
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).pathname))
    expect(actions).toEqual(['/guide/', '/middleware/', '/api/'])
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)
  })

  test('a middleware page renders its options and rejection codes', async () => {
    const guarded = await open('/middleware/rate-limit')
    const { page } = guarded
    await expect(page.locator('.vp-doc h1').textContent()).resolves.toContain('rateLimit')
    const text = (await page.locator('.vp-doc').textContent()) ?? ''
    for (const expected of ['windowMs', 'sliding-window', 'rate_limited', 'Retry-After']) {
      expect(text).toContain(expected)
    }
    // Code blocks are highlighted at build time (shiki) and the sidebar marks the page.
    expect(
      await page.locator('.vp-doc div[class*="language-ts"] pre.shiki').count(),
    ).toBeGreaterThan(0)
    await expect(
      page
        .locator('.VPSidebar a.VPLink.link.active, .VPSidebar .is-active a')
        .first()
        .textContent(),
    ).resolves.toContain('rateLimit')
    await page.screenshot({ path: new URL('site-middleware-rate-limit.png', SCREENSHOTS).pathname })
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)
  })

  test('the API reference renders the generated page of rateLimit', async () => {
    const guarded = await open('/api/')
    const { page } = guarded
    const modules = await page.locator('.vp-doc a').allTextContents()
    expect(modules).toEqual(expect.arrayContaining(['@palisade/middleware', '@palisade/openapi']))
    await page.goto(`${server.origin}/api/middleware/functions/rateLimit`)
    await page.locator('.vp-doc h1').waitFor()
    await expect(page.locator('.vp-doc h1').textContent()).resolves.toContain('rateLimit')
    // The JSDoc summary and its @example made it into the page.
    const text = (await page.locator('.vp-doc').textContent()) ?? ''
    expect(text).toContain('RateLimitOptions')
    expect(await page.locator('.vp-doc pre.shiki').count()).toBeGreaterThan(0)
    await page.screenshot({ path: new URL('site-api-rate-limit.png', SCREENSHOTS).pathname })
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)
  })

  test('reads on a phone: no page-wide horizontal scroll, wide tables scroll inside the text', async () => {
    const guarded = await open('/middleware/rate-limit', { width: 390, height: 844 })
    const { page } = guarded
    await page.locator('.VPNavBarHamburger').waitFor() // the mobile navigation replaced the bar
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      tables: [...document.querySelectorAll('.vp-doc table')].map((t) => {
        const box = t.getBoundingClientRect()
        return { left: box.left, overflowX: getComputedStyle(t).overflowX }
      }),
    }))
    expect(widths.page).toBeLessThanOrEqual(widths.viewport)
    expect(widths.tables.length).toBeGreaterThan(0)
    for (const table of widths.tables) expect(table.overflowX).toBe('auto')
    await page.screenshot({ path: new URL('site-middleware-phone.png', SCREENSHOTS).pathname })
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)
  })

  test('local search finds rateLimit without any network service', async () => {
    const guarded = await open('/')
    const { page } = guarded
    await page.locator('.VPNavBarSearch button.DocSearch-Button').click()
    const input = page.locator('#localsearch-input')
    await input.waitFor()
    await input.fill('rateLimit')
    const results = page.locator('.VPLocalSearchBox ul.results li a.result')
    await results.first().waitFor()
    const found = await results.evaluateAll((links) =>
      links.map((a) => ({ path: (a as HTMLAnchorElement).pathname, text: a.textContent ?? '' })),
    )
    expect(
      found.some(
        (r) => r.path === '/middleware/rate-limit.html' || r.path === '/middleware/rate-limit',
      ),
    ).toBe(true)
    expect(found.some((r) => r.text.includes('rateLimit'))).toBe(true)
    // Following a result opens the page.
    await results.first().click()
    await page.locator('.vp-doc h1').waitFor()
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)
  })
})
