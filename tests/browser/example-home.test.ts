// The example app's `GET /` (what the start command opens first) in headless Chromium: it links
// the explorer, the reference and the documentation site's getting-started page, renders under
// the app's own CSP without a violation, and its same-origin links open working pages.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DOCS_SITE } from '../../examples/app'
import { createAppUnderTest, paths } from './app-under-test'
import {
  type Browser,
  launchBrowser,
  NO_PROBLEMS,
  openGuardedPage,
  type RunningServer,
  startServer,
} from './harness'

let browser: Browser
let server: RunningServer

beforeAll(async () => {
  server = await startServer(await createAppUnderTest(), { securityHeaders: false })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('example app home page', () => {
  test('links the explorer, the reference and the getting-started page of the site', async () => {
    const guarded = await openGuardedPage(browser, server.origin)
    const response = await guarded.page.goto(`${server.origin}/`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-type']).toMatch(/^text\/html/)
    // The app's securityHeaders() CSP applies to this page (the docs pages bring their own).
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'")
    const links = await guarded.page
      .locator('a')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))
    const site = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ).palisade.site.replace(/\/$/, '')
    expect(DOCS_SITE).toBe(site) // the example follows the project's one setting
    expect(links).toEqual(
      expect.arrayContaining([
        `${server.origin}${paths.explorer}`,
        `${server.origin}${paths.reference}`,
        `${server.origin}${paths.spec}`,
        `${site}/guide/`,
      ]),
    )
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)

    // Following the explorer link opens the explorer.
    await guarded.page.locator(`a[href="${paths.explorer}"]`).click()
    await guarded.page.locator('.opblock').first().waitFor()
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)
    await guarded.page.close()
  })
})
