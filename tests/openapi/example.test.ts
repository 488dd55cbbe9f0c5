import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'
import type { OpenAPIDocument } from '../../packages/openapi/src'
import { expectValidOpenAPI } from './validate'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')

// The example app is documented through the wrapper; its document must satisfy the same tools.
describe('the example app document', () => {
  let app: Awaited<ReturnType<typeof createApp>>
  let dir: string
  beforeAll(async () => {
    app = await createApp({})
    dir = await mkdtemp(join(tmpdir(), 'palisade-example-'))
  })
  afterAll(async () => {
    await app?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('is served at /openapi.json and passes the OpenAPI schema validator', async () => {
    const res = await app.api.request('/openapi.json')
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const doc = (await res.json()) as OpenAPIDocument
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0)
    await expectValidOpenAPI(doc)
  })

  it('has no @redocly/cli lint errors', async () => {
    const file = join(dir, 'example.json')
    await writeFile(file, JSON.stringify(app.api.spec()))
    const config = join(root, 'tests/openapi/redocly.yaml')
    const out = await run(
      join(root, 'tests/node_modules/.bin/redocly'),
      ['lint', file, '--format=json', `--config=${config}`],
      {
        cwd: dir,
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }))
    const { problems } = JSON.parse(out.stdout) as {
      problems: { severity: string; ruleId: string; message: string }[]
    }
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
  })
})
