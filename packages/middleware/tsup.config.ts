import { existsSync, readdirSync } from 'node:fs'
import { defineConfig } from 'tsup'

// One entry per middleware folder that has an index.ts, one per platform store folder
// (src/stores/<platform>/index.ts, published as the subpath `./<platform>`), plus the root barrel.
const entry: Record<string, string> = { index: 'src/index.ts' }
for (const base of ['src', 'src/stores']) {
  for (const dir of readdirSync(base, { withFileTypes: true })) {
    if (
      dir.isDirectory() &&
      dir.name !== 'internal' &&
      existsSync(`${base}/${dir.name}/index.ts`)
    ) {
      entry[`${dir.name}/index`] = `${base}/${dir.name}/index.ts`
    }
  }
}

export default defineConfig({
  entry,
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  splitting: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  sourcemap: false,
})
