/**
 * Both docs pages (Swagger UI explorer, ReDoc reference) served by workerd: the app in
 * ./workerd-app.ts is bundled and run in miniflare on a loopback port, and headless Chromium opens
 * each page. Nothing may fail, leave the origin, log an error or break the CSP.
 */
import { fileURLToPath } from 'node:url'
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundle } from '../stores/remote'
import { type Browser, launchBrowser, NO_PROBLEMS, openGuardedPage } from './harness'

let browser: Browser
let mf: Miniflare
let origin: string

beforeAll(async () => {
  const script = await bundle(fileURLToPath(new URL('./workerd-app.ts', import.meta.url)))
  mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2025-09-01',
    host: '127.0.0.1',
    port: 0,
  })
  origin = new URL(await mf.ready).origin
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await mf?.dispose()
})

describe('docs pages served by workerd', () => {
  test('the spec is served by the Worker', async () => {
    const res = await fetch(`${origin}/openapi.json`)
    expect(res.status).toBe(200)
    const spec = (await res.json()) as { paths: Record<string, unknown> }
    expect(Object.keys(spec.paths)).toEqual(['/books'])
  })

  test.each([
    ['explorer (Swagger UI)', '/explorer', '.opblock', 2],
    ['reference (ReDoc)', '/reference', '.http-verb', 2],
  ])(
    '%s loads and renders every operation without errors',
    async (_label, path, selector, count) => {
      const guarded = await openGuardedPage(browser, origin)
      try {
        const response = await guarded.page.goto(`${origin}${path}`)
        expect(response?.status()).toBe(200)
        expect(response?.headers()['content-security-policy']).toMatch(/default-src 'none'/)
        await guarded.page.locator(selector).first().waitFor()
        await expect.poll(() => guarded.page.locator(selector).count()).toBe(count)
        expect(await guarded.collect()).toEqual(NO_PROBLEMS)
      } finally {
        await guarded.page.close()
      }
    },
  )
})
