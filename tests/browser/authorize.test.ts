// The explorer authenticates: every scheme the middleware describe is in Swagger UI's Authorize
// dialog, and "Try it out" sends what was authorized. Driven on the example app in Chromium.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createAppUnderTest, paths } from './app-under-test'
import {
  type Browser,
  type GuardedPage,
  launchBrowser,
  NO_PROBLEMS,
  openGuardedPage,
  type RunningServer,
  startServer,
} from './harness'

let browser: Browser
let server: RunningServer
let guarded: GuardedPage

/** Rejections these tests provoke on purpose (the 401 and 403 before authorizing). */
const PROVOKED = new Set(['/api/me', '/forms/feedback'])

beforeAll(async () => {
  browser = await launchBrowser()
  server = await startServer(await createAppUnderTest(), { securityHeaders: true })
  guarded = await openGuardedPage(browser, server.origin, (url) => PROVOKED.has(url.pathname))
  const response = await guarded.page.goto(`${server.origin}${paths.explorer}`)
  expect(response?.status()).toBe(200)
  await guarded.page.locator('.opblock').first().waitFor()
})
afterAll(async () => {
  await guarded?.page.close()
  await server?.close()
  await browser?.close()
})

/** Opens an operation, switches on "Try it out" once, and returns a function that executes it. */
async function tryItOut(method: 'get' | 'post', path: string) {
  const { page } = guarded
  const block = page.locator(`.opblock-${method}`, {
    has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
  })
  if (!(await block.locator('button.try-out__btn').isVisible())) {
    await block.locator('.opblock-summary-control').click()
  }
  const tryOut = block.locator('button.try-out__btn')
  if ((await tryOut.textContent())?.includes('Try it out')) await tryOut.click()
  return async (): Promise<{ status: number; body: string; headers: Record<string, string> }> => {
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => r.request().method() === method.toUpperCase() && new URL(r.url()).pathname === path,
      ),
      block.locator('button.execute').click(),
    ])
    const shown = block.locator('.live-responses-table .response .response-col_status').first()
    await expect.poll(() => shown.textContent()).toBe(String(response.status()))
    return {
      status: response.status(),
      body: await response.text(),
      headers: await response.request().allHeaders(),
    }
  }
}

/** Authorizes one scheme in the Authorize dialog with `value`. */
async function authorize(scheme: string, value: string) {
  const { page } = guarded
  await page.locator('.auth-wrapper button.authorize').click()
  const container = page.locator('.modal-ux .auth-container', {
    has: page.locator('h4', { hasText: scheme }),
  })
  await container.locator('input').first().fill(value)
  await container.locator('button.authorize').click()
  await expect.poll(() => container.locator('h6', { hasText: 'Authorized' }).count()).toBe(1)
  await page.locator('.modal-ux button.close-modal').click()
}

describe('the explorer authenticates', () => {
  test('its Authorize dialog lists every scheme of the document', async () => {
    const { page } = guarded
    await page.locator('.auth-wrapper button.authorize').click()
    const names = await page.locator('.modal-ux .auth-container h4').allTextContents()
    expect(names.map((n) => n.trim().split(/\s/)[0])).toEqual([
      'bearerAuth',
      'apiKeyHeader',
      'csrfToken',
      // The signature of the Standard Webhooks webhook the app receives on /webhooks/billing.
      'webhookStandardWebhooks',
    ])
    await page.locator('.modal-ux button.close-modal').click()
  })

  test('GET /api/me answers 401 without a token and 200 after authorizing one from /api/login', async () => {
    const execute = await tryItOut('get', '/api/me')
    const before = await execute()
    expect(before.status).toBe(401)
    expect(JSON.parse(before.body)).toMatchObject({ code: 'token_missing' })

    const login = await guarded.page.request.post(`${server.origin}/api/login`, {
      data: { username: 'ada' },
    })
    expect(login.status()).toBe(200)
    const { token } = (await login.json()) as { token: string }
    await authorize('bearerAuth', token)

    const after = await execute()
    expect(after.headers.authorization).toBe(`Bearer ${token}`)
    expect(after.status).toBe(200)
    expect(JSON.parse(after.body)).toEqual({ sub: 'ada', role: 'member' })
  })

  test('POST /forms/feedback answers 403 without the CSRF token and 200 after authorizing it', async () => {
    // The token cookie: what a browser gets from any page of the forms area.
    const tokenResponse = await guarded.page.request.get(`${server.origin}/forms/token`)
    const { csrfToken } = (await tokenResponse.json()) as { csrfToken: string }

    const execute = await tryItOut('post', '/forms/feedback')
    const before = await execute()
    expect(before.status).toBe(403)
    expect(JSON.parse(before.body)).toMatchObject({ code: 'csrf_token_invalid' })

    await authorize('csrfToken', csrfToken)
    const after = await execute()
    expect(after.headers['x-xsrf-token']).toBe(csrfToken)
    expect(after.status).toBe(200)
    expect(JSON.parse(after.body)).toEqual({ received: true })
  })

  test('nothing failed, was blocked or left the origin', async () => {
    const problems = await guarded.collect()
    // Chromium logs every 4xx as a console error without its URL; the provoked ones are the
    // 401 and 403 above, and any other 4xx would be in failedRequests (by URL).
    problems.consoleErrors = problems.consoleErrors.filter(
      (text) =>
        !/^Failed to load resource: the server responded with a status of 40[13]\b/.test(text),
    )
    expect(problems).toEqual(NO_PROBLEMS)
  })
})
