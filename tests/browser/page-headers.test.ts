// Without a browser: the docs pages of an openapi() app keep their own CSP behind
// securityHeaders(), while every other response gets the middleware's default policy.
import { securityHeaders } from '@palisade/middleware/security-headers'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { expect, test } from 'vitest'
import { EXPLORER_CSP } from '../../packages/openapi/src/pages'

function securedDocsApp() {
  const app = new Hono()
  app.use('*', securityHeaders())
  const api = openapi(app, { info: { title: 'Pets API', version: '1.0.0' } })
  api.get('/health', (c) => c.text('ok'))
  return api
}

test('the explorer keeps its own CSP behind securityHeaders()', async () => {
  const res = await securedDocsApp().request('/explorer')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-security-policy')).toBe(EXPLORER_CSP)
  expect(res.headers.get('x-content-type-options')).toBe('nosniff')
})

test('the reference keeps its own nonce CSP behind securityHeaders()', async () => {
  const res = await securedDocsApp().request('/reference')
  expect(res.status).toBe(200)
  const csp = res.headers.get('content-security-policy') ?? ''
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
  expect(nonce).toBeDefined()
  expect(await res.text()).toContain(`"nonce":"${nonce}"`)
})

test('other responses get the default CSP of securityHeaders()', async () => {
  const api = securedDocsApp()
  for (const path of ['/health', '/openapi.json']) {
    const res = await api.request(path)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toBe("default-src 'self'")
  }
})
