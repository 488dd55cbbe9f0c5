// The explorer page (Swagger UI) in headless Chromium: every operation is listed, "Try it out"
// reaches the app, and nothing is blocked, fails or leaves the origin — with and without
// securityHeaders().
import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createAppUnderTest, paths, specUnderTest } from './app-under-test'
import {
  type Browser,
  type GuardedPage,
  launchBrowser,
  NO_PROBLEMS,
  openGuardedPage,
  pickTryItOut,
  type RunningServer,
  type SpecInventory,
  startServer,
} from './harness'

/** JSON bodies compare by value (the page pretty-prints them), anything else as trimmed text. */
function comparable(body: string): unknown {
  try {
    return JSON.parse(body)
  } catch {
    return body.trim()
  }
}

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
])('explorer page $label', ({ securityHeaders, label }) => {
  let server: RunningServer
  let guarded: GuardedPage

  beforeAll(async () => {
    server = await startServer(await createAppUnderTest(), { securityHeaders })
    const executed = pickTryItOut(spec)
    // Try-it-out calls may answer 4xx on purpose (e.g. a validation error); that is the app's
    // real response, not a failure of the page.
    guarded = await openGuardedPage(browser, server.origin, (url) =>
      executed.some((op) => op.matches(url.pathname)),
    )
    const response = await guarded.page.goto(`${server.origin}${paths.explorer}`)
    expect(response?.status()).toBe(200)
    await guarded.page.locator('.opblock').first().waitFor()
    await mkdir('artifacts', { recursive: true })
    await guarded.page.screenshot({
      path: `artifacts/explorer${securityHeaders ? '-security-headers' : ''}.png`,
    })
  })
  afterAll(async () => {
    await guarded?.page.close()
    await server?.close()
  })

  test('sends its own CSP, which securityHeaders() keeps', async () => {
    const response = await guarded.page.request.get(`${server.origin}${paths.explorer}`)
    const csp = response.headers()['content-security-policy'] ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
  })

  test('lists every documented operation', async () => {
    const listed = await guarded.page.$$eval('.opblock-summary', (summaries) =>
      summaries.map((summary) => {
        const method = summary.querySelector('.opblock-summary-method')?.textContent ?? ''
        // A deprecated operation's path is `.opblock-summary-path__deprecated` (struck through).
        const path = summary
          .querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')
          ?.getAttribute('data-path')
        return `${method.toLowerCase()} ${path}`
      }),
    )
    // Swagger UI lists the document's webhooks (OpenAPI 3.1) as operations too, by name.
    const documented = [
      ...spec.operations.map((op) => `${op.method} ${op.path}`),
      ...spec.webhooks.map((hook) => `${hook.method} ${hook.name}`),
    ]
    expect(documented.length).toBeGreaterThan(0)
    expect([...listed].sort()).toEqual([...documented].sort())
  })

  test('shows the deprecated operations, and only those, as deprecated', async () => {
    const shown = await guarded.page.$$eval('.opblock.opblock-deprecated', (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent ?? ''
        const path = block
          .querySelector('.opblock-summary-path__deprecated')
          ?.getAttribute('data-path')
        return `${method.toLowerCase()} ${path}`
      }),
    )
    const deprecated = spec.operations
      .filter((op) => op.deprecated)
      .map((op) => `${op.method} ${op.path}`)
    // The example app deprecates one operation (GET /api/keys/whoami, with a sunset).
    expect(deprecated).toEqual(['get /api/keys/whoami'])
    expect(shown).toEqual(deprecated)
  })

  test('shows each response link under the response it belongs to', async () => {
    const withLinks = spec.operations.filter((op) => op.links.length > 0)
    // The example app links POST /api/comments's 201 to getComment (`links` on the route).
    expect(withLinks.map((op) => `${op.method} ${op.path}`)).toEqual(['post /api/comments'])
    const { page } = guarded
    for (const op of withLinks) {
      const block = page.locator(`.opblock-${op.method}`, {
        has: page.locator(`.opblock-summary-path[data-path="${op.path}"]`),
      })
      if (!(await block.locator('.opblock-body').isVisible())) {
        await block.locator('.opblock-summary-control').click()
      }
      for (const link of op.links) {
        const cell = block.locator(
          `.responses-table tr.response[data-code="${link.status}"] .response-col_links`,
        )
        await expect.poll(async () => (await cell.textContent()) ?? '').toContain(link.name)
      }
    }
  })

  test.each(['get', 'post'] as const)(
    '"Try it out" + "Execute" on a %s operation reaches the app and shows its real response',
    async (method) => {
      const op = pickTryItOut(spec).find((candidate) => candidate.method === method)
      expect(op, `the app documents a ${method} operation to try`).toBeDefined()
      if (!op) return
      const { page } = guarded
      const block = page.locator(`.opblock-${method}`, {
        has: page.locator(`.opblock-summary-path[data-path="${op.path}"]`),
      })
      await block.locator('.opblock-summary-control').click()
      await block.locator('button.try-out__btn').click()
      if (method === 'post') {
        // Swagger UI fills the body from the schema's examples; it must be JSON.
        const body = await block.locator('textarea.body-param__text').inputValue()
        expect(() => JSON.parse(body)).not.toThrow()
      }
      const servedBefore = server.served.length
      const [apiResponse] = await Promise.all([
        page.waitForResponse(
          (r) =>
            r.request().method() === method.toUpperCase() && op.matches(new URL(r.url()).pathname),
        ),
        block.locator('button.execute').click(),
      ])
      const realBody = await apiResponse.text()

      const shownStatus = block.locator('.live-responses-table .response .response-col_status')
      await expect.poll(() => shownStatus.first().textContent()).toBe(String(apiResponse.status()))
      const hits = server.served
        .slice(servedBefore)
        .filter((r) => r.method === method.toUpperCase() && op.matches(r.path))
      expect(hits).toHaveLength(1)
      expect(hits[0]?.status).toBe(apiResponse.status())

      if (realBody.trim() !== '') {
        const shownBody = await block
          .locator('.live-responses-table .response-col_description pre')
          .first()
          .textContent()
        expect(comparable(shownBody ?? '')).toEqual(comparable(realBody))
      }
      await shownStatus.first().scrollIntoViewIfNeeded()
      await page.screenshot({
        path: `artifacts/explorer-try-${method}-${securityHeaders ? 'secure' : 'plain'}.png`,
      })
    },
  )

  test(`has no console errors, CSP violations, failed or off-origin requests (${label})`, async () => {
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)
  })
})
