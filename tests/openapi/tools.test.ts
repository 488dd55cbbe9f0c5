import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { serve } from '@hono/node-server'
import openapiTS, { astToString } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type { OpenAPIDocument } from '../../packages/openapi/src'
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

async function redoclyLint(doc: unknown, name: string): Promise<LintProblem[]> {
  const file = join(dir, `${name}.json`)
  await writeFile(file, JSON.stringify(doc))
  const config = join(root, 'tests/openapi/redocly.yaml')
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
