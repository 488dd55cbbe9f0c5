/**
 * Issue 6, point 1: the viewer files are taken from the official npm packages at build time
 * (swagger-ui-dist for the explorer, the standalone bundle of redoc v2 for the reference) and
 * never committed. The bytes the app serves are compared with the installed packages' files.
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const require = createRequire(join(root, 'packages/openapi/package.json'))
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`))
const withoutSourceMap = (text: string) =>
  text
    .replace(/\n?\/\/# sourceMappingURL=[^\n]*\s*$/, '\n')
    .replace(/\n?\/\*# sourceMappingURL=[^*]*\*\/\s*$/, '\n')

const api = openapi(new Hono(), { info: { title: 'Assets', version: '1' } })

/** The body of the file a page loads whose name starts with `stem.` */
async function served(page: string, stem: string): Promise<string> {
  const html = await (await api.request(page)).text()
  const url = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)]
    .map((m) => m[1] as string)
    .find((u) => u.split('/').pop()?.startsWith(`${stem}.`))
  expect(url, `${page} loads ${stem}`).toBeDefined()
  const res = await api.request(url ?? '')
  expect(res.status).toBe(200)
  return res.text()
}

describe('viewer files', () => {
  it('serves the explorer bundle and styles of the installed swagger-ui-dist, unchanged', async () => {
    const dir = packageDir('swagger-ui-dist')
    const files: Array<[stem: string, file: string]> = [
      ['swagger-ui-bundle', 'swagger-ui-bundle.js'],
      ['swagger-ui', 'swagger-ui.css'],
    ]
    for (const [stem, file] of files) {
      const original = withoutSourceMap(await readFile(join(dir, file), 'utf8'))
      expect(await served('/explorer', stem)).toBe(original)
    }
  })

  it('serves the standalone bundle of redoc 2, changed only where it would load the Redocly CDN logo', async () => {
    const dir = packageDir('redoc')
    const { version } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      version: string
    }
    expect(version).toMatch(/^2\./)
    const original = withoutSourceMap(
      await readFile(join(dir, 'bundles/redoc.standalone.js'), 'utf8'),
    )
    const body = await served('/reference', 'redoc.standalone')
    const logo = 'https://cdn.redoc.ly/redoc/logo-mini.svg'
    const [before, after] = original.split(logo)
    expect(body.startsWith(before ?? '')).toBe(true)
    expect(body.endsWith(after ?? '')).toBe(true)
    expect(body.length - original.length).toBeLessThan(200)
  })

  it('keeps the generated viewer modules out of git', async () => {
    const generated = [
      'packages/openapi/src/pages/assets.generated.js',
      'packages/openapi/src/pages/assets.generated.d.ts',
      'packages/openapi/src/pages/viewer-bodies.generated.js',
      'packages/openapi/src/pages/viewer-bodies.generated.d.ts',
    ]
    const tracked = await run('git', ['ls-files', '--', ...generated], { cwd: root })
    expect(tracked.stdout).toBe('')
    const ignored = await run('git', ['check-ignore', ...generated], { cwd: root })
    expect(ignored.stdout.trim().split('\n')).toEqual(generated)
  })
})
