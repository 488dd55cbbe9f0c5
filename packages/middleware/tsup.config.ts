import { existsSync, readdirSync } from 'node:fs'
import { defineConfig } from 'tsup'

// One entry per middleware folder that has an index.ts, plus the root barrel.
const entry: Record<string, string> = { index: 'src/index.ts' }
for (const dir of readdirSync('src', { withFileTypes: true })) {
  if (dir.isDirectory() && dir.name !== 'internal' && existsSync(`src/${dir.name}/index.ts`)) {
    entry[`${dir.name}/index`] = `src/${dir.name}/index.ts`
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
