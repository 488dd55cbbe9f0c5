/**
 * Issue 5, point 7: the example app is documented through the wrapper. Every route it serves is
 * one the wrapper recorded, every recorded route carries metadata, and the served document
 * describes each of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'

describe('the example app routes', () => {
  let app: Awaited<ReturnType<typeof createApp>>
  beforeAll(async () => {
    app = await createApp({})
  })
  afterAll(async () => {
    await app?.close()
  })

  const docsEndpoint = (path: string) =>
    path === '/openapi.json' || /^\/(explorer|reference)(\/|$)/.test(path)

  it('registers every served route through the wrapper, apart from the docs endpoints', () => {
    const recorded = new Set(app.api.routes.map((r) => `${r.method.toUpperCase()} ${r.path}`))
    const served = app.api.app.routes
      .filter((r) => r.method !== 'ALL' && !docsEndpoint(r.path))
      .map((r) => `${r.method} ${r.path}`)
    expect(served.length).toBeGreaterThan(0)
    expect([...new Set(served)].sort()).toEqual([...recorded].sort())
  })

  it('gives every route an operationId, a summary, tags and described responses', () => {
    expect(app.api.routes.length).toBeGreaterThanOrEqual(10)
    for (const route of app.api.routes) {
      const meta = route.openapi
      const label = `${route.method} ${route.path}`
      expect(meta?.operationId, label).toMatch(/^\w+$/)
      expect(meta?.summary, label).toBeTruthy()
      expect(meta?.tags?.length, label).toBeGreaterThan(0)
      const responses = Object.values(meta?.responses ?? {})
      expect(responses.length, label).toBeGreaterThan(0)
      for (const response of responses) expect(response.description, label).toBeTruthy()
    }
  })

  it('serves a document with one operation per recorded route, by operationId', async () => {
    const doc = (await (await app.api.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>
    }
    const documented = Object.values(doc.paths)
      .flatMap((item) => Object.values(item).map((op) => op.operationId))
      .sort()
    const recorded = app.api.routes.map((r) => r.openapi?.operationId).sort()
    expect(documented).toEqual(recorded)
  })
  it('answers a path no route matches with 404 problem details, like every other error', async () => {
    const res = await app.api.request('/no-such-route')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    expect(await res.json()).toMatchObject({ status: 404, title: 'Not Found', code: 'not_found' })
  })
})
