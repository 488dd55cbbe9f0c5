import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import openapiTS, { astToString } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { type OpenAPIDocument, openapi } from '../../packages/openapi/src'
import { bookstore } from './bookstore'
import { expectValidOpenAPI } from './validate'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
// The linters live in the tests/ workspace package; TypeScript is the root's.
const bin = (name: string) => join(root, 'tests/node_modules/.bin', name)
const tsc = join(root, 'node_modules/.bin/tsc')

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'palisade-openapi-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Exit code and output of a CLI; a non-zero exit is data here, not an exception. */
async function cli(file: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string }
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }
  }
}

interface LintProblem {
  ruleId: string
  severity: 'error' | 'warn'
  message: string
}

async function redoclyLint(
  doc: unknown,
  name: string,
  configFile = 'redocly.yaml',
): Promise<LintProblem[]> {
  const file = join(dir, `${name}.json`)
  await writeFile(file, JSON.stringify(doc))
  const config = join(root, 'tests/openapi', configFile)
  const out = await cli(bin('redocly'), ['lint', file, '--format=json', `--config=${config}`])
  return (JSON.parse(out.stdout) as { problems: LintProblem[] }).problems
}

describe('the bookstore document', () => {
  it('passes the OpenAPI schema validator, with every $ref resolving and every schema compiling', async () => {
    await expectValidOpenAPI(bookstore().spec())
  })

  it('documents every route through the wrapper', () => {
    const doc = bookstore().spec()
    expect(Object.keys(doc.paths)).toEqual([
      '/health',
      '/api/v1/books',
      '/api/v1/books/{id}',
      '/api/v1/books/{id}/reviews',
      '/api/v1/books/{id}/reviews/{n}',
      '/api/v1/login',
      '/api/v1/users',
      '/api/v1/users/{name}',
    ])
    expect(doc.components.schemas.Book).toMatchObject({
      title: 'Book',
      required: ['id', 'title', 'author', 'format'],
    })
    // zod 4 and zod 3 versions of Problem share one component.
    expect(
      Object.keys(doc.components.schemas).filter((n) => n.startsWith('ErrorAndDetails')),
    ).toEqual(['ErrorAndDetails'])
  })

  it('serves what it documents', async () => {
    const api = bookstore()
    const created = await api.request('/api/v1/books', {
      method: 'POST',
      headers: { authorization: 'Bearer test', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Dune', author: 'Frank Herbert', format: 'paperback' }),
    })
    expect(created.status).toBe(201)
    const book = (await created.json()) as { id: string }
    expect((await api.request(`/api/v1/books/${book.id}`)).status).toBe(200)
    expect((await api.request('/api/v1/books', { method: 'POST' })).status).toBe(401)
  })
})

describe('@redocly/cli lint', () => {
  it('finds no errors in the bookstore document', async () => {
    const problems = await redoclyLint(bookstore().spec(), 'bookstore')
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
  })

  it('flags an operation without security or a 4xx answer (both rules are on)', async () => {
    const doc = bookstore().spec() as OpenAPIDocument
    const op = doc.paths['/health']?.get
    delete doc.security
    if (op) {
      delete op.security
      op.responses = { '200': { description: 'OK' } }
    }
    const problems = await redoclyLint(doc, 'unsecured')
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.ruleId)).toEqual(
      expect.arrayContaining(['security-defined', 'operation-4xx-response']),
    )
  })

  it('does find errors in a broken document (the check can fail)', async () => {
    const doc = bookstore().spec() as OpenAPIDocument
    const op = doc.paths['/api/v1/books/{id}']?.get
    if (op) delete op.parameters
    const problems = await redoclyLint(doc, 'broken')
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.ruleId)).toContain(
      'path-parameters-defined',
    )
  })
})

/** One route and `openapi()` with its defaults: what a new user's first document is. */
function minimalApp() {
  const api = openapi(new Hono(), { info: { title: 'Minimal', version: '1.0.0' } })
  api.get('/hello', (c) => c.json({ hello: 'world' }))
  return api
}

const exampleDocument = async () =>
  JSON.parse(await readFile(join(root, 'examples/openapi.json'), 'utf8')) as OpenAPIDocument

describe('@redocly/cli lint with its plain recommended rules', () => {
  it('finds no errors in a minimal app (one route, openapi() with its defaults)', async () => {
    const doc = minimalApp().spec()
    // What the recommended rules ask for and the defaults now say outright.
    expect(doc.servers).toEqual([{ url: '/' }])
    expect(doc.security).toEqual([])
    expect(doc.paths['/hello']?.get?.summary).toBe('GET /hello')
    const problems = await redoclyLint(doc, 'minimal', 'redocly-recommended.yaml')
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
  })

  it('finds no errors in the example document (examples/openapi.json)', async () => {
    const problems = await redoclyLint(
      await exampleDocument(),
      'example',
      'redocly-recommended.yaml',
    )
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
  })
})

interface SpectralFinding {
  code: string
  path: string[]
}
interface Allowed {
  rule: string
  path: string
  reason: string
}

/** `*` is one path segment, `**` any rest; a segment may also contain `*` (`*Problem`). */
function pathPattern(pattern: string): RegExp {
  const segments = pattern.split('.').map((segment) =>
    segment === '**'
      ? '.+'
      : segment
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\/-]/g, '\\$&'))
          .join('[^.]*'),
  )
  return new RegExp(`^${segments.join('\\.')}$`)
}

describe('Spectral OWASP ruleset on the example', () => {
  it('finds only what the committed allow-list names, each with its reason', async () => {
    const file = join(dir, 'example-owasp.json')
    await writeFile(file, JSON.stringify(await exampleDocument()))
    const ruleset = join(root, 'tests/openapi/spectral-owasp.mjs')
    const out = await cli(bin('spectral'), ['lint', file, '-r', ruleset, '-f', 'json', '-q'])
    const findings = JSON.parse(out.stdout || '[]') as SpectralFinding[]
    const allowed = JSON.parse(
      await readFile(join(root, 'tests/openapi/spectral-owasp-allow.json'), 'utf8'),
    ) as Allowed[]
    for (const entry of allowed) expect(entry.reason.length, entry.rule).toBeGreaterThan(20)
    const used = new Set<Allowed>()
    const unexplained: string[] = []
    for (const finding of findings) {
      // Dots inside a segment (`/.well-known/jwks.json`) are escaped, so `*` stays one segment.
      const path = finding.path.map((segment) => segment.replaceAll('.', '%2E')).join('.')
      const entry = allowed.find((a) => a.rule === finding.code && pathPattern(a.path).test(path))
      if (entry) used.add(entry)
      else unexplained.push(`${finding.code} at ${path}`)
    }
    expect(unexplained).toEqual([])
    // An entry nothing matches any more is stale: remove it.
    expect(allowed.filter((a) => !used.has(a)).map((a) => `${a.rule} at ${a.path}`)).toEqual([])
  })

  it('does find what it is there to find (the check can fail)', async () => {
    const doc = await exampleDocument()
    const problem = doc.components.schemas.Comment as { properties: Record<string, object> }
    problem.properties.extra = { type: 'array', items: { type: 'integer' } }
    const file = join(dir, 'example-owasp-broken.json')
    await writeFile(file, JSON.stringify(doc))
    const ruleset = join(root, 'tests/openapi/spectral-owasp.mjs')
    const out = await cli(bin('spectral'), ['lint', file, '-r', ruleset, '-f', 'json', '-q'])
    const codes = (JSON.parse(out.stdout || '[]') as SpectralFinding[]).map((f) => f.code)
    expect(codes).toContain('owasp:api4:2023-array-limit')
  })
})

describe('openapi-typescript', () => {
  const client = `
import type { components, operations, paths } from './api'

type ListQuery = NonNullable<paths['/api/v1/books']['get']['parameters']['query']>
const query: ListQuery = { q: 'dune', limit: 10, format: 'ebook' }

type NewBook = paths['/api/v1/books']['post']['requestBody']['content']['application/json']
const body: NewBook = { title: 'Dune', author: 'Frank Herbert', format: 'paperback' }

type Created = paths['/api/v1/books']['post']['responses'][201]['content']['application/json']
declare const created: Created
const id: string = created.id
const year: number | undefined = created.year

type ReviewPath = paths['/api/v1/books/{id}/reviews/{n}']['get']['parameters']['path']
const reviewPath: ReviewPath = { id, n: '3' }

type Stored = components['schemas']['Book']
declare const stored: Stored
const title: string = stored.title

type Users = operations['findUsers']['responses'][200]['content']['application/json']
declare const users: Users
const email: string | undefined = users[0]?.email

type Problem = components['schemas']['ErrorAndDetails']
const problem: Problem = { error: 'nope' }

export const used = [query, body, year, reviewPath, email, problem, title]
`

  async function typecheck(source: string) {
    await writeFile(join(dir, 'client.ts'), source)
    return cli(tsc, [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--target',
      'ES2022',
      '--module',
      'ESNext',
      '--moduleResolution',
      'Bundler',
      'client.ts',
    ])
  }

  beforeAll(async () => {
    // Defaults document the input side (a defaulted field may be left out of a request), so the
    // generator must not turn `default` into `required`; see the package README.
    const ast = await openapiTS(bookstore().spec() as never, { defaultNonNullable: false })
    await writeFile(join(dir, 'api.d.ts'), astToString(ast))
  })

  it('generates types that a typed client compiles against', async () => {
    const out = await typecheck(client)
    expect(out.stdout + out.stderr).toBe('')
    expect(out.code).toBe(0)
  })

  it.each([
    ['a wrong body field type', "const bad: NewBook = { title: 1, author: 'x', format: 'ebook' }"],
    ['an unknown enum value', "const bad: NewBook = { title: 't', author: 'x', format: 'scroll' }"],
    ['a missing required field', "const bad: NewBook = { title: 't', format: 'ebook' }"],
    ['a missing path parameter', "const bad: ReviewPath = { id: 'x' }"],
  ])('rejects a client with %s', async (_label, line) => {
    const out = await typecheck(`${client}\n${line}\nexport { bad }\n`)
    expect(out.code).not.toBe(0)
    expect(out.stdout).toMatch(/error TS\d+/)
  })
})

describe('serving', () => {
  it('is accepted by serve() from @hono/node-server and serves the document over HTTP', async () => {
    const api = bookstore()
    expectTypeOf(api).toExtend<Parameters<typeof serve>[0]>()
    const server = await new Promise<ReturnType<typeof serve>>((done) => {
      const s = serve({ fetch: api.fetch, port: 0, hostname: '127.0.0.1' }, () => done(s))
    })
    try {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      const res = await fetch(`http://127.0.0.1:${port}/openapi.json`)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await res.json()).toEqual(api.spec())
    } finally {
      await new Promise((done) => server.close(done))
    }
  })
})
