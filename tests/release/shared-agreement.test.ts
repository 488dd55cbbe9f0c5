/**
 * Issue 19, point 2: what both packages share (problem details and the status phrases, the problem
 * schema, the self-description symbol, HTML escaping, the RFC 9110 token grammar) has one source,
 * the private workspace package @palisade/shared, which each build inlines. This test loads the two
 * PUBLISHED builds (dist/, after `pnpm build`) side by side and fails when they disagree on any of
 * these, or when either build still refers to @palisade/shared.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Hono } from 'hono'
import { beforeAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const dist = (pkg: string) => join(root, 'packages', pkg, 'dist')

// biome-ignore lint/suspicious/noExplicitAny: the builds are loaded by path, untyped on purpose
type Module = Record<string, any>
type Ctx = { text: (s: string) => Response }
let mw: Module
let oa: Module

beforeAll(async () => {
  for (const pkg of ['middleware', 'openapi']) {
    if (!existsSync(join(dist(pkg), 'index.js')))
      throw new Error(`packages/${pkg}/dist is missing: run \`pnpm build\` before this test`)
  }
  mw = await import(pathToFileURL(join(dist('middleware'), 'index.js')).href)
  oa = await import(pathToFileURL(join(dist('openapi'), 'index.js')).href)
})

/** The problem body middleware's problemHandler renders for a rejection with `status`. */
async function middlewareProblem(status: number): Promise<Record<string, unknown>> {
  const app = new Hono()
  app.onError(mw.problemHandler())
  app.get('/', () => {
    throw new mw.Rejection(status, 'detail', 'some_code')
  })
  return (await app.request('/')).json()
}

describe('the two published builds agree on what they share', () => {
  it('gives every error status the same problem title (413 is "Content Too Large")', async () => {
    const disagreements: string[] = []
    for (let status = 400; status <= 599; status++) {
      const rendered = (await middlewareProblem(status)).title
      const built = oa.problemDetails(status).title
      if (rendered !== built) disagreements.push(`${status}: ${rendered} / ${built}`)
    }
    expect(disagreements).toEqual([])
    expect(oa.problemDetails(413).title).toBe('Content Too Large')
  })

  it('builds the same problem body around a code', async () => {
    const body = await middlewareProblem(429)
    expect(body).toEqual(oa.problemDetails(429, { code: 'some_code', detail: 'detail' }))
  })

  it('documents problems with the same schema', () => {
    const shared = mw.PROBLEM_SCHEMA as { properties: Record<string, unknown> }
    const validation = oa.validationProblemSchema() as { properties: Record<string, unknown> }
    for (const key of ['type', 'title', 'detail', 'errors'])
      expect(validation.properties[key], key).toEqual(shared.properties[key])
    // openapi documents middleware's problem body with the schema middleware describes.
    const api = oa.openapi(new Hono(), { info: { title: 't', version: '1' } })
    api.onError(mw.problemHandler())
    api.get('/', (c: Ctx) => c.text('ok'), {
      middlewares: [mw.ipGuard({ mode: 'allow', list: ['10.0.0.1'] })],
    })
    const { title, ...documented } = api.spec().components.schemas.Problem
    expect(title).toBe('Problem')
    expect(documented).toEqual(mw.PROBLEM_SCHEMA)
  })

  it('uses one registered description symbol, so openapi reads what middleware describes', () => {
    expect(mw.OPENAPI_DESCRIPTION).toBe(Symbol.for('palisade.openapi.describe'))
    const api = oa.openapi(new Hono(), { info: { title: 't', version: '1' } })
    api.get('/', (c: Ctx) => c.text('ok'), {
      middlewares: [mw.rateLimit({ max: 1 })],
    })
    expect(Object.keys(api.spec().paths['/'].get.responses)).toContain('429')
  })

  it('escapes HTML the same way', async () => {
    const hostile = [
      '<script>alert(1)</script>',
      `"' onmouseover='x' &amp; <img src=x>`,
      'plain text, ünïcödé 🙂',
    ]
    const app = new Hono()
    app.post('/', mw.xssSanitize(), (c) => c.json(mw.sanitizedBody(c)))
    for (const s of hostile) {
      const res = await app.request('/', {
        method: 'POST',
        body: JSON.stringify({ s }),
        headers: { 'content-type': 'application/json' },
      })
      const { s: sanitized } = (await res.json()) as { s: string }
      const page: string = oa.explorerUIHTML('/openapi.json', s)
      expect(page).toContain(`<title>${sanitized}</title>`)
    }
  })

  it('accepts the same header names (the RFC 9110 token grammar)', () => {
    const names = ['X-Request-ID', "a!#$%&'*+.^_`|~z", 'bad name', 'bad:name', 'é', '(x)', '']
    for (const name of names) {
      let middlewareAccepts = true
      try {
        mw.requestId({ headerName: name })
      } catch {
        middlewareAccepts = false
      }
      const described = mw.describeMiddleware(
        async (_c: unknown, next: () => Promise<void>) => next(),
        {
          headers: [{ name, description: 'd' }],
        },
      )
      const api = oa.openapi(new Hono(), { info: { title: 't', version: '1' } })
      api.get('/', (c: Ctx) => c.text('ok'), { middlewares: [described] })
      const headers = api.spec().paths['/'].get.responses['200'].headers ?? {}
      expect(name in headers, JSON.stringify(name)).toBe(middlewareAccepts)
    }
  })

  it('neither build imports @palisade/shared, and neither package depends on it', () => {
    for (const pkg of ['middleware', 'openapi']) {
      const files = readdirSync(dist(pkg), { recursive: true, encoding: 'utf8' }).filter((f) =>
        /\.(c?js|d\.c?ts)$/.test(f),
      )
      expect(files.length).toBeGreaterThan(0)
      for (const f of files)
        expect(readFileSync(join(dist(pkg), f), 'utf8'), `${pkg}/dist/${f}`).not.toContain(
          '@palisade/shared',
        )
      const manifest = JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'))
      expect(Object.keys(manifest.dependencies ?? {})).not.toContain('@palisade/shared')
      expect(Object.keys(manifest.peerDependencies ?? {})).not.toContain('@palisade/shared')
    }
  })
})
