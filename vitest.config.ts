import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url))

// Tests and examples run from source: the package names resolve to src/, not dist/. Every
// subpath `@palisade/middleware/<name>` is the folder src/<name>/ (folder = subpath).
const alias = [
  {
    find: /^@palisade\/middleware\/(.+)$/,
    replacement: src('./packages/middleware/src/$1/index.ts'),
  },
  { find: /^@palisade\/middleware$/, replacement: src('./packages/middleware/src/index.ts') },
  {
    find: /^@palisade\/openapi\/(audit|diff|fuzz|spec)$/,
    replacement: src('./packages/openapi/src/$1/index.ts'),
  },
  { find: /^@palisade\/openapi$/, replacement: src('./packages/openapi/src/index.ts') },
  { find: /^@palisade\/shared\/(.+)$/, replacement: src('./packages/shared/src/$1.ts') },
]

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          environment: 'node',
          // Property tests run a hundred cases each; on a loaded machine (CI shares its cores)
          // 5 s is not enough for some. A timeout is a hang guard here, never a speed assertion.
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['tests/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
