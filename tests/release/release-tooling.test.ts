/**
 * Issue 16, point 4: the release tooling. The size check fails when a budget is exceeded or
 * missing (shown on a small package made here, so the test needs no build), and the Changesets
 * config publishes the two packages publicly and names only packages of this workspace.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script without declarations
import { checkSizes } from '../../tools/check-size.mjs'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const tmp = mkdtempSync(join(tmpdir(), 'palisade-size-test-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

// A package with one entry point in both formats and a lazily loaded file, like @palisade/openapi.
const pkgDir = join(tmp, 'pkg')
mkdirSync(join(pkgDir, 'dist'), { recursive: true })
writeFileSync(
  join(pkgDir, 'package.json'),
  JSON.stringify({
    name: 'size-fixture',
    version: '1.0.0',
    type: 'module',
    exports: {
      '.': { import: './dist/index.js', require: './dist/index.cjs' },
      './package.json': './package.json',
    },
    peerDependencies: { hono: '^4' },
  }),
)
const code = `${'export const words = ' + JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i * 7919}`))}
export const load = () => import('./lazy.js')
import { Hono } from 'hono'
export const app = () => new Hono()
`
writeFileSync(join(pkgDir, 'dist', 'index.js'), code)
writeFileSync(join(pkgDir, 'dist', 'index.cjs'), 'module.exports = { words: [1, 2, 3] }\n')
writeFileSync(
  join(pkgDir, 'dist', 'lazy.js'),
  `export const big = ${JSON.stringify('x'.repeat(5000))}\n`,
)

function budgets(name: string, esm: number, cjs: number, lazy: number, unpacked = 1e6): string {
  const file = join(tmp, `${name}.json`)
  writeFileSync(
    file,
    JSON.stringify({
      packages: {
        pkg: {
          tarball: { packed: 1e6, unpacked },
          entries: { 'size-fixture': { esm, cjs } },
          lazy: { './dist/lazy.js': lazy },
        },
      },
    }),
  )
  return file
}
const silent = { log: () => {} }

describe('size budgets', () => {
  it('passes when every figure is within its budget', async () => {
    const { problems, rows } = await checkSizes(budgets('roomy', 10_000, 10_000, 10_000), silent)
    expect(problems).toEqual([])
    // esm, cjs, the lazy file, packed, unpacked
    expect(rows).toHaveLength(5)
  })

  it('fails an entry over a tiny budget, and leaves the peer (hono) and the lazy file out of it', async () => {
    const { problems, rows } = await checkSizes(budgets('tiny', 10, 10_000, 10_000), silent)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/size-fixture \(esm, min\+gzip\): \d+ B is over its budget of 10 B/)
    const esm = rows.find((r: unknown[]) => String(r[1]).includes('(esm'))
    // 400 words gzip to well under 2 kB; bundling hono or the 5 kB lazy string would not.
    expect(esm[2]).toBeGreaterThan(10)
    expect(esm[2]).toBeLessThan(2_000)
  })

  it('fails a lazy file and an unpacked tarball over their budgets', async () => {
    const { problems } = await checkSizes(budgets('lazy', 10_000, 10_000, 10, 100), silent)
    expect(problems.join('\n')).toMatch(/lazy\.js \(lazy, gzip\).*over its budget of 10 B/)
    expect(problems.join('\n')).toMatch(/tarball \(unpacked\).*over its budget of 100 B/)
  })

  it('fails an entry point that has no budget', async () => {
    const file = budgets('missing', 10_000, 10_000, 10_000)
    const json = JSON.parse(readFileSync(file, 'utf8'))
    delete json.packages.pkg.entries['size-fixture'].cjs
    writeFileSync(file, JSON.stringify(json))
    const { problems } = await checkSizes(file, silent)
    expect(problems).toEqual([expect.stringMatching(/\(cjs, min\+gzip\): no budget/)])
  })

  it('the command exits 1 when a budget is exceeded', async () => {
    const script = join(root, 'tools', 'check-size.mjs')
    const failing = run(process.execPath, [script, '--budgets', budgets('cli', 10, 10, 10)])
    await expect(failing).rejects.toMatchObject({ code: 1 })
    const passing = await run(process.execPath, [
      script,
      '--budgets',
      budgets('cli-ok', 10_000, 10_000, 10_000),
    ])
    expect(passing.stdout).toContain('within its budget')
  })

  it('the committed budgets cover both packages and keep the openapi tarball within 4 MB', () => {
    const committed = JSON.parse(readFileSync(join(root, 'size-budgets.json'), 'utf8'))
    expect(Object.keys(committed.packages).sort()).toEqual([
      'packages/middleware',
      'packages/openapi',
    ])
    expect(committed.packages['packages/openapi'].tarball.unpacked).toBeLessThanOrEqual(4_000_000)
  })
})

describe('changesets', () => {
  const dir = join(root, '.changeset')
  const workspace = ['@palisade/middleware', '@palisade/openapi']

  it('publishes publicly and leaves the private workspace packages alone', () => {
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))
    expect(config.access).toBe('public')
    expect(config.baseBranch).toBe('main')
    expect(config.privatePackages).toEqual({ version: false, tag: false })
  })

  it('every pending changeset names only packages of this workspace', () => {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
      const text = readFileSync(join(dir, file), 'utf8')
      const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1]
      expect(front, file).toBeDefined()
      for (const line of (front ?? '').split('\n').filter(Boolean)) {
        const m = /^"([^"]+)":\s*(patch|minor|major)$/.exec(line)
        expect(m, `${file}: ${line}`).not.toBeNull()
        expect(workspace).toContain(m?.[1])
      }
    }
  })
})
