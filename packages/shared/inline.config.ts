// How a published package takes @palisade/shared in: both tsup configs spread `inlineShared`, so
// the code (esbuild `noExternal`) and the declarations (TypeScript `paths` onto this package's
// sources, which rollup-plugin-dts then bundles) carry their own copy, and neither the published
// JavaScript nor the published .d.ts imports @palisade/shared.
import { fileURLToPath } from 'node:url'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** Every import of the shared package: `@palisade/shared/<module>`. */
export const SHARED = /^@palisade\/shared\//

export const inlineShared = {
  noExternal: [SHARED],
  dts: {
    compilerOptions: {
      // The declarations of packages/shared/src are compiled with the package's own sources.
      rootDir: here('..'),
      paths: { '@palisade/shared/*': [here('./src/*.ts')] },
    },
  },
}
