// The explorer lists an OpenID Connect scheme: jwtAuth with `discovery: true` describes the
// issuer's discovery document as an `openIdConnect` scheme, and Swagger UI fetches that document
// to show the scheme in Authorize at all. The page's CSP must let it (connect-src gets the
// discovery URL's origin, as it gets the origins of `servers`), or the scheme silently vanishes.
// Driven in Chromium against a local issuer on another origin (another port of 127.0.0.1).
import { jwtAuth } from '@palisade/middleware'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
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
let issuer: RunningServer
let server: RunningServer
let guarded: GuardedPage
/** Requests the issuer answered, by path. */
const discoveryFetches: string[] = []

/** A minimal OpenID provider: its discovery document, readable cross-origin as real ones are. */
function identityProvider(origin: () => string): Hono {
  const idp = new Hono()
  idp.get('/.well-known/openid-configuration', (c) => {
    discoveryFetches.push(c.req.path)
    c.header('Access-Control-Allow-Origin', '*')
    return c.json({
      issuer: origin(),
      authorization_endpoint: `${origin()}/authorize`,
      token_endpoint: `${origin()}/token`,
      jwks_uri: `${origin()}/jwks`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      scopes_supported: ['openid', 'read:items'],
    })
  })
  return idp
}

beforeAll(async () => {
  browser = await launchBrowser()
  let issuerOrigin = ''
  issuer = await startServer(
    identityProvider(() => issuerOrigin),
    { securityHeaders: false },
  )
  issuerOrigin = issuer.origin
  const api = openapi(new Hono(), { info: { title: 'OIDC API', version: '1.0.0' } })
  api.get('/api/items', (c) => c.json([]), {
    middlewares: [jwtAuth({ issuer: issuer.origin, discovery: true, scopes: ['read:items'] })],
    openapi: { summary: 'Items' },
  })
  server = await startServer(api, { securityHeaders: true })
  guarded = await openGuardedPage(browser, server.origin, () => false, [issuer.origin])
  const response = await guarded.page.goto(`${server.origin}/explorer`)
  expect(response?.status()).toBe(200)
  await guarded.page.locator('.opblock').first().waitFor()
})
afterAll(async () => {
  await guarded?.page.close()
  await server?.close()
  await issuer?.close()
  await browser?.close()
})

describe('the explorer with an OpenID Connect issuer', () => {
  test("Authorize lists the issuer's scheme, read from its discovery document", async () => {
    const { page } = guarded
    await page.locator('.auth-wrapper button.authorize').click()
    const names = page.locator('.modal-ux .auth-container h4')
    await expect
      .poll(async () => (await names.allTextContents()).map((n) => n.trim().split(/\s/)[0]))
      .toEqual(['openIdConnect', 'bearerAuth'])
    // The flow Swagger UI offers comes from the discovery document it fetched.
    const oidc = page.locator('.modal-ux .auth-container', {
      has: page.locator('h4', { hasText: 'openIdConnect' }),
    })
    await expect.poll(() => oidc.textContent()).toContain(`${issuer.origin}/authorize`)
    expect(discoveryFetches).toContain('/.well-known/openid-configuration')
    await page.locator('.modal-ux button.close-modal').click()
  })

  test('nothing was blocked by the CSP, failed or went anywhere else', async () => {
    expect(await guarded.collect()).toEqual(NO_PROBLEMS)
  })
})
