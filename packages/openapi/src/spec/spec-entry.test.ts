// `@palisade/openapi/spec`: the root entry's API without the pages (issue 26, finding 10); both
// entries export the one list in ./api.ts. The bundle side (no viewer file in a Worker bundle) is
// tests/openapi/spec-only-bundle.test.ts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as root from '../index'
import * as spec from './index'

const info = { title: 'Edge', version: '1.0.0' }
const PAGE_EXPORTS = [
  'EXPLORER_CSP',
  'createNonce',
  'explorerUIHTML',
  'referenceCSP',
  'referenceHTML',
]

describe('@palisade/openapi/spec', () => {
  it("exports the root entry's values, name for name, except the pages' HTML builders", () => {
    const rootNames = Object.keys(root).filter((n) => !PAGE_EXPORTS.includes(n))
    expect(Object.keys(spec).sort()).toEqual(rootNames.sort())
    expect(spec.openapi).not.toBe(root.openapi)
    expect(spec.generateSpec).toBe(root.generateSpec)
  })

  it('shares one list with the root entry, which adds only its openapi() and the pages (types too)', () => {
    // Values are compared above; types leave no trace at run time, so the root entry's source is
    // read: every export it makes itself is one of the pages' or its openapi(), the rest is ./api.
    const source = readFileSync(join(import.meta.dirname, '../index.ts'), 'utf8')
    const statements = source.match(/^export\b[\s\S]*?from '[^']+'$/gm) ?? []
    expect(statements).toContain("export * from './spec/api'")
    const own = statements.filter((s) => s !== "export * from './spec/api'")
    expect(own.length).toBeGreaterThan(0)
    for (const statement of own) {
      expect(statement).toMatch(
        /^export (?:\{ openapi \} from '\.\/app\/openapi'|[\s\S]* from '\.\/pages')$/,
      )
    }
    expect(source.match(/^export\b/gm)).toHaveLength(statements.length)
  })

  it('serves the document, and no page or viewer file', async () => {
    const api = spec.openapi(new Hono(), { info })
    api.get('/items', (c) => c.json({ sort: c.req.valid('query').sort }), {
      openapi: { request: { query: z.object({ sort: z.enum(['asc', 'desc']) }) } },
    })
    const doc = await (await api.request('/openapi.json')).json()
    expect(Object.keys(doc.paths)).toEqual(['/items'])
    expect((await api.request('/items?sort=up')).status).toBe(400)
    expect((await api.request('/items?sort=asc')).status).toBe(200)
    for (const path of ['/explorer', '/reference', '/explorer/assets/x.js']) {
      expect((await api.request(path)).status, path).toBe(404)
    }
    expect(api.app.routes.map((r) => r.path)).not.toContain('/explorer')
  })

  it('refuses a page option by name, pointing at the root entry', () => {
    for (const key of ['explorerPath', 'referencePath', 'docsPath', 'redocPath']) {
      expect(() => spec.openapi(new Hono(), { info, [key]: '/docs' } as never)).toThrow(
        new RegExp(
          `^openapi: ${key} is the path of a docs page.*import openapi from @palisade/openapi`,
        ),
      )
    }
    expect(() => spec.openapi(new Hono(), { info, specPath: '/spec.json' })).not.toThrow()
  })

  it('leaves the root entry as it was: the explorer and reference pages are served', async () => {
    const api = root.openapi(new Hono(), { info })
    expect((await api.request('/explorer')).status).toBe(200)
    expect((await api.request('/reference')).status).toBe(200)
  })
})
