// Issue 26, finding 10: a Worker that serves the document without the two pages must not carry the
// pages' 1.96 MB of viewer files. A Worker's bundler (wrangler uses esbuild) inlines every module
// it can reach, `import()` included, so only an entry that never reaches the pages keeps them out:
// `@palisade/openapi/spec`. Bundled here from source as wrangler would bundle a Worker.
import { join, resolve } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const openapiDir = join(root, 'packages/openapi')

const worker = (entry: string) => `
import { Hono } from 'hono'
import { openapi } from '${entry}'
const api = openapi(new Hono(), { info: { title: 'Edge', version: '1.0.0' } })
api.get('/health', (c) => c.text('ok'))
export default { fetch: api.fetch }
`

/** The minified Worker bundle of a module importing `openapi` from `entry`, as text. */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: worker(entry), resolveDir: openapiDir, loader: 'ts' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    logLevel: 'silent',
    alias: {
      '@palisade/openapi/spec': join(openapiDir, 'src/spec/index.ts'),
      '@palisade/openapi': join(openapiDir, 'src/index.ts'),
    },
  })
  return result.outputFiles.map((f) => f.text).join('\n')
}

// The viewer files by name (as the pages and the asset routes list them) and by content.
const VIEWER_MARKERS = [/swagger-ui/i, /redoc\.standalone/i, /viewer-bodies/, /SwaggerUIBundle/]
/** The markers found in `code` (compared as a list, so a failure does not print the bundle). */
const markersIn = (code: string) => VIEWER_MARKERS.filter((m) => m.test(code)).map(String)

describe('a Worker bundle', () => {
  it('of the spec-only entry holds no viewer file and stays small', async () => {
    const code = await bundle('@palisade/openapi/spec')
    expect(markersIn(code)).toEqual([])
    // Hono and the wrapper, minified: a small fraction of the viewer files alone.
    expect(code.length).toBeLessThan(150_000) // about 78 KB; the root entry: about 2 MB
  })

  it('of the root entry still carries the pages and their files (what the spec entry leaves out)', async () => {
    const code = await bundle('@palisade/openapi')
    // The pages name their hashed files; the files themselves are compressed, so nameless.
    expect(markersIn(code)).toEqual(['/swagger-ui/i', '/redoc\\.standalone/i'])
    expect(code.length).toBeGreaterThan(1_500_000)
  })
})
