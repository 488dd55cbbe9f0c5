import { copyFileSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { defineConfig, type Options } from 'tsup'
import { inlineShared } from '../shared/inline.config'

type Plugin = NonNullable<Options['esbuildPlugins']>[number]

// The viewer bodies (about 2 MB of pre-compressed base64, see scripts/copy-viewer-assets.mjs) are
// shipped once, as dist/viewer-bodies.js, not inlined into both index.js and index.cjs: the
// `import()` that loads them stays a dynamic import of that file in both builds.
const BODIES_SOURCE = 'src/pages/viewer-bodies.generated.js'
const BODIES_DIST = './viewer-bodies.js'
const shipViewerBodiesOnce: Plugin = {
  name: 'viewer-bodies-once',
  setup(build) {
    build.onResolve({ filter: /[\\/]viewer-bodies\.generated\.js$/ }, () => ({
      path: BODIES_DIST,
      external: true,
    }))
  },
}

// The viewer files keep their licences: Swagger UI (Apache-2.0, with its NOTICE) and ReDoc (MIT),
// plus the third-party notices each bundle points at, ship in dist/licenses/.
const require = createRequire(import.meta.url)
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`))
const LICENCES: Array<[from: string, to: string]> = [
  [join(packageDir('swagger-ui-dist'), 'LICENSE'), 'swagger-ui-dist.LICENSE'],
  [join(packageDir('swagger-ui-dist'), 'NOTICE'), 'swagger-ui-dist.NOTICE'],
  [
    join(packageDir('swagger-ui-dist'), 'swagger-ui-bundle.js.LICENSE.txt'),
    'swagger-ui-bundle.js.LICENSE.txt',
  ],
  [join(packageDir('redoc'), 'LICENSE'), 'redoc.LICENSE'],
  [
    join(packageDir('redoc'), 'bundles', 'redoc.standalone.js.LICENSE.txt'),
    'redoc.standalone.js.LICENSE.txt',
  ],
]

// @palisade/shared (private: what both packages share) is inlined into the code and the
// declarations; see packages/shared/inline.config.ts.

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      // Subpaths the root entry never imports: proving an app costs nothing at run time.
      'audit/index': 'src/audit/index.ts',
      // Comparing two documents (breaking changes): a tool over documents, no app needed.
      'diff/index': 'src/diff/index.ts',
      'fuzz/index': 'src/fuzz/index.ts',
      // The root's API without the pages: nothing it imports reaches the viewer files.
      'spec/index': 'src/spec/index.ts',
    },
    format: ['esm', 'cjs'],
    noExternal: inlineShared.noExternal,
    dts: inlineShared.dts,
    // Both configs build at once: this one cleans everything but the command the other writes.
    clean: ['!cli.js'],
    treeshake: true,
    target: 'es2022',
    platform: 'neutral',
    sourcemap: false,
    esbuildPlugins: [shipViewerBodiesOnce],
    onSuccess: async () => {
      copyFileSync(BODIES_SOURCE, `dist/${BODIES_DIST.slice(2)}`)
      mkdirSync('dist/licenses', { recursive: true })
      for (const [from, to] of LICENCES) copyFileSync(from, join('dist/licenses', to))
    },
  },
  // The `palisade` command: Node only, ESM, one file (audit, diff and fuzz bundled in), run by the bin.
  {
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
    treeshake: true,
    target: 'node20',
    platform: 'node',
    sourcemap: false,
    banner: { js: '#!/usr/bin/env node' },
    noExternal: inlineShared.noExternal,
    external: ['hono', 'fast-check', 'ajv', 'ajv-formats', 'tsx'],
  },
])
