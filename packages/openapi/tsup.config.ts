import { copyFileSync } from 'node:fs'
import { defineConfig, type Options } from 'tsup'

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

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  sourcemap: false,
  esbuildPlugins: [shipViewerBodiesOnce],
  onSuccess: async () => {
    copyFileSync(BODIES_SOURCE, `dist/${BODIES_DIST.slice(2)}`)
  },
})
